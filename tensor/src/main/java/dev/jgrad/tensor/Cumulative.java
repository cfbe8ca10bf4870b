package dev.jgrad.tensor;

/**
 * {@code torch.cumsum}: running sums along one dim. float32 sums run in double and each output is rounded once, as
 * PyTorch's CPU kernel accumulates (its {@code acc_type} of float is double), so the two agree to the bit; int64 and
 * bool sum in int64, as PyTorch's do. Two loops, one per kind of sum: Java has no generics over primitive arrays, and
 * int64 cannot go through double without losing the integers above 2^53.
 */
final class Cumulative {
    private Cumulative() {
    }

    static Tensor cumsum(Tensor x, int dim) {
        int d = Shape.wrapDim(dim, x.shape.length);
        DType out = x.dtype() == DType.BOOL ? DType.INT64 : x.dtype();
        if (out == DType.FLOAT32) {
            // The sums in float64, each rounded to float32 once at the end: the bits of a float32 loop with a double accumulator.
            return cumsum(x.to(DType.FLOAT64), d).to(DType.FLOAT32);
        }
        Tensor src = x.to(out).contiguous();
        Tensor r = Tensor.empty(out, x.shape);
        if (x.shape.length == 0) {
            r.copyFrom(src);
            return r;
        }
        int n = x.shape[d];
        int inner = 1;
        for (int i = d + 1; i < x.shape.length; i++) {
            inner *= x.shape[i];
        }
        int outer = n == 0 || inner == 0 ? 0 : x.numel() / (n * inner);
        // Each outer block walks the dim once, carrying a row of `inner` running sums, so the reads stay in order.
        if (out == DType.FLOAT64) {
            doubles(src.storage.d(), src.offset, r.storage.d(), outer, n, inner);
        } else {
            longs(src.storage.l(), src.offset, r.storage.l(), outer, n, inner);
        }
        return r;
    }

    private static void doubles(double[] a, int ao, double[] o, int outer, int n, int inner) {
        double[] acc = new double[inner];
        for (int b = 0; b < outer; b++) {
            java.util.Arrays.fill(acc, 0);
            int base = b * n * inner;
            for (int k = 0; k < n; k++) {
                int at = base + k * inner;
                for (int i = 0; i < inner; i++) {
                    acc[i] += a[ao + at + i];
                    o[at + i] = acc[i];
                }
            }
        }
    }

    private static void longs(long[] a, int ao, long[] o, int outer, int n, int inner) {
        long[] acc = new long[inner];
        for (int b = 0; b < outer; b++) {
            java.util.Arrays.fill(acc, 0);
            int base = b * n * inner;
            for (int k = 0; k < n; k++) {
                int at = base + k * inner;
                for (int i = 0; i < inner; i++) {
                    acc[i] += a[ao + at + i];
                    o[at + i] = acc[i];
                }
            }
        }
    }
}
