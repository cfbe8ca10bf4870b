package dev.jgrad.tensor;

/**
 * {@code torch.sort} along one dim: a stable merge sort of each line's positions, so equal values keep their order (as
 * PyTorch's CPU sort does, in both directions), NaN counts as larger than every number, and -0 equals +0.
 */
final class Sorting {
    private Sorting() {
    }

    /** Orders two positions of a line: negative when the first comes first. */
    @FunctionalInterface
    private interface Order {
        int compare(int i, int j);
    }

    static ValuesIndices<Tensor> sort(Tensor x, int dim, boolean descending) {
        Tensor indices = indices(x, dim, descending);
        return new ValuesIndices<>(x.dim() == 0 ? x.clone() : x.gather(Shape.wrapDim(dim, x.dim()), indices), indices);
    }

    /** The positions {@link #sort} orders each line by (int64, x's shape), without gathering the values: argsort's. */
    static Tensor indices(Tensor x, int dim, boolean descending) {
        int d = Shape.wrapDim(dim, x.shape.length);
        if (x.shape.length == 0) {
            return Tensor.zeros(DType.INT64);
        }
        // Move the dim last so each line is a contiguous run; the results are moved back.
        Tensor src = x.movedim(d, -1).contiguous();
        int n = x.shape[d];
        int lines = n == 0 ? 0 : src.numel() / n;
        Tensor idx = Tensor.empty(DType.INT64, src.shape);
        long[] out = idx.storage.l();
        int[] order = new int[n];
        int[] scratch = new int[n];
        boolean integral = src.dtype() == DType.INT64;
        double[] keys = integral ? null : new double[n];
        long[] longKeys = integral ? new long[n] : null;
        int sign = descending ? -1 : 1;
        Order byValue = integral
                ? (i, j) -> sign * Long.compare(longKeys[i], longKeys[j])
                : (i, j) -> sign * compareWithNanLast(keys[i], keys[j]);
        for (int line = 0; line < lines; line++) {
            int at = line * n;
            for (int k = 0; k < n; k++) {
                order[k] = k;
                int p = src.offset + at + k;
                switch (src.dtype()) {
                    case INT64 -> longKeys[k] = src.storage.l()[p];
                    case FLOAT32 -> keys[k] = src.storage.f()[p];
                    case FLOAT64 -> keys[k] = src.storage.d()[p];
                    default -> keys[k] = src.storage.b()[p] ? 1 : 0;
                }
            }
            mergeSort(order, scratch, 0, n, byValue);
            for (int k = 0; k < n; k++) {
                out[at + k] = order[k];
            }
        }
        return idx.movedim(-1, d).contiguous();
    }

    /** Numbers in their order, -0 equal to +0, NaN after all of them. */
    private static int compareWithNanLast(double a, double b) {
        if (a < b) {
            return -1;
        }
        if (a > b) {
            return 1;
        }
        boolean na = a != a;
        boolean nb = b != b;
        return na == nb ? 0 : (na ? 1 : -1);
    }

    /** Sorts positions [lo, hi) of {@code a} stably: equal elements keep their order. */
    private static void mergeSort(int[] a, int[] tmp, int lo, int hi, Order order) {
        if (hi - lo < 16) {
            for (int i = lo + 1; i < hi; i++) {
                int v = a[i];
                int j = i - 1;
                while (j >= lo && order.compare(a[j], v) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(a, tmp, lo, mid, order);
        mergeSort(a, tmp, mid, hi, order);
        if (order.compare(a[mid - 1], a[mid]) <= 0) {
            return;
        }
        System.arraycopy(a, lo, tmp, lo, hi - lo);
        int i = lo;
        int j = mid;
        for (int k = lo; k < hi; k++) {
            if (j >= hi || (i < mid && order.compare(tmp[i], tmp[j]) <= 0)) {
                a[k] = tmp[i++];
            } else {
                a[k] = tmp[j++];
            }
        }
    }
}
