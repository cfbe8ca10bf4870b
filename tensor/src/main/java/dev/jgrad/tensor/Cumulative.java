package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.Parallel;

/**
 * {@code torch.cumsum}: running sums along one dim. float32 sums run in double and each output is rounded once, as
 * PyTorch's CPU kernel accumulates (its {@code acc_type} of float is double), so the two agree to the bit; int64 and
 * bool sum in int64, as PyTorch's do. A loop per type: Java has no generics over primitive arrays, int64 cannot go
 * through double without losing the integers above 2^53, and float32 would pay twice its size in copies to go through
 * float64's.
 */
final class Cumulative {
    private Cumulative() {
    }

    static Tensor cumsum(Tensor x, int dim) {
        int d = Shape.wrapDim(dim, x.shape.length);
        DType out = x.dtype() == DType.BOOL ? DType.INT64 : x.dtype();
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
        switch (out) {
            case FLOAT32 -> floats(src.storage.f(), src.offset, r.storage.f(), outer, n, inner);
            case FLOAT64 -> doubles(src.storage.d(), src.offset, r.storage.d(), outer, n, inner);
            default -> longs(src.storage.l(), src.offset, r.storage.l(), outer, n, inner);
        }
        return r;
    }

    /** What {@link Parallel#forRangeCosting} counts for an element of a running sum. */
    private static final int COST_PER_ELEMENT = 16;

    /**
     * float32 summed in double, each output rounded once: PyTorch's bits. Blocks go to the threads, or, where there are
     * too few, ranges of the inner positions; each sum is the same chain of additions however they are shared. Lines
     * along the last dim run four at a time, so four chains of dependent additions overlap.
     */
    private static void floats(float[] a, int ao, float[] o, int outer, int n, int inner) {
        // A running sum is a chain of dependent additions, each some four cycles: count it as a few operations an element.
        long work = (long) outer * n * inner * COST_PER_ELEMENT;
        if (inner == 1) {
            Parallel.forRangeCosting(work, (outer + 3) / 4, (lo, hi) -> {
                for (int q = lo; q < hi; q++) {
                    int first = 4 * q;
                    if (first + 4 <= outer) {
                        fourLines(a, ao, o, first * n, n);
                    } else {
                        floatBlocks(a, ao, o, first, outer, n, 1, 0, 1);
                    }
                }
            });
        } else if (outer >= 2 * Parallel.threads()) {
            Parallel.forRangeCosting(work, outer, (lo, hi) -> floatBlocks(a, ao, o, lo, hi, n, inner, 0, inner));
        } else {
            Parallel.forRangeCosting(work, inner, (lo, hi) -> floatBlocks(a, ao, o, 0, outer, n, inner, lo, hi));
        }
    }

    /** Four consecutive lines of n along the last dim, from {@code at}. */
    private static void fourLines(float[] a, int ao, float[] o, int at, int n) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        for (int k = 0; k < n; k++) {
            int p = at + k;
            s0 += a[ao + p];
            s1 += a[ao + p + n];
            s2 += a[ao + p + 2 * n];
            s3 += a[ao + p + 3 * n];
            o[p] = (float) s0;
            o[p + n] = (float) s1;
            o[p + 2 * n] = (float) s2;
            o[p + 3 * n] = (float) s3;
        }
    }

    /** Blocks [b0, b1) along the dim, inner positions [i0, i1) of each, carrying a row of running sums. */
    private static void floatBlocks(float[] a, int ao, float[] o, int b0, int b1, int n, int inner, int i0, int i1) {
        double[] acc = new double[i1 - i0];
        for (int b = b0; b < b1; b++) {
            java.util.Arrays.fill(acc, 0);
            int base = b * n * inner;
            for (int k = 0; k < n; k++) {
                int at = base + k * inner;
                for (int i = i0; i < i1; i++) {
                    double s = acc[i - i0] + a[ao + at + i];
                    acc[i - i0] = s;
                    o[at + i] = (float) s;
                }
            }
        }
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
