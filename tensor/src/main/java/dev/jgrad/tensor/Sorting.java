package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.Parallel;

/**
 * {@code torch.sort} and {@code torch.topk} along one dim: each line's positions in a stable order, so equal values keep
 * their order (as PyTorch's CPU sort does, in both directions), NaN counts as larger than every number, and -0 equals
 * +0. Lines are spread over the threads.
 */
final class Sorting {
    private Sorting() {
    }

    /** Orders two positions of a line: negative when the first comes first. */
    @FunctionalInterface
    private interface Order {
        int compare(int i, int j);
    }

    /** {@code torch.sort}: {@link #topk} of the whole dim. */
    static ValuesIndices<Tensor> sort(Tensor x, int dim, boolean descending) {
        return topk(x, x.dim() == 0 ? 1 : x.shape[Shape.wrapDim(dim, x.dim())], dim, descending);
    }

    /** The positions {@link #sort} orders each line by (int64, x's shape), without gathering the values: argsort's. */
    static Tensor indices(Tensor x, int dim, boolean descending) {
        int d = Shape.wrapDim(dim, x.shape.length);
        if (x.shape.length == 0) {
            return Tensor.zeros(DType.INT64);
        }
        return firstOfLines(x, d, x.shape[d], descending);
    }

    /**
     * {@code torch.topk}: the {@code k} largest (or smallest) along {@code dim} in order and their int64 positions: the
     * first k of {@link #sort}'s order, found without sorting the rest.
     */
    static ValuesIndices<Tensor> topk(Tensor x, int k, int dim, boolean largest) {
        int d = Shape.wrapDim(dim, x.dim());
        int size = x.dim() == 0 ? 1 : x.shape[d];
        if (k < 0 || k > size) {
            throw new IllegalArgumentException("topk: k (" + k + ") out of range for dim " + dim + " of size " + size
                    + " (shape " + Shape.str(x.shape) + ")");
        }
        if (x.dim() == 0) {
            return new ValuesIndices<>(x.clone(), Tensor.zeros(DType.INT64));
        }
        Tensor indices = firstOfLines(x, d, k, largest);
        return new ValuesIndices<>(x.gather(d, indices), indices);
    }

    /** The first {@code k} positions of each line along {@code d} in sorted order (int64, x's shape with k along d). */
    private static Tensor firstOfLines(Tensor x, int d, int k, boolean descending) {
        // Move the dim last so each line is a contiguous run; the results are moved back.
        Tensor src = x.movedim(d, -1).contiguous();
        int n = x.shape[d];
        int lines = n == 0 ? 0 : src.numel() / n;
        int[] shape = src.shape.clone();
        shape[shape.length - 1] = k;
        Tensor idx = Tensor.empty(DType.INT64, shape);
        long[] out = idx.storage.l();
        boolean packed = src.dtype() == DType.FLOAT32 || src.dtype() == DType.BOOL;
        Parallel.RangeBody body = (lo, hi) -> {
            if (packed) {
                long[] keys = new long[n];
                long[] heap = k < n ? new long[k] : null;
                for (int line = lo; line < hi; line++) {
                    packKeys(src, line * n, n, descending, keys);
                    firstByPackedKey(keys, n, k, heap, out, line * k);
                }
            } else {
                int[] order = new int[n];
                int[] scratch = new int[n];
                for (int line = lo; line < hi; line++) {
                    mergeSortLine(src, line * n, n, descending, order, scratch);
                    for (int j = 0; j < k; j++) {
                        out[line * k + j] = order[j];
                    }
                }
            }
        };
        // Lines are independent, so how they are shared among the threads does not change a bit.
        Parallel.forRangeCosting((long) lines * n * COST_PER_COMPARISON * (32 - Integer.numberOfLeadingZeros(n)), lines, body);
        return idx.movedim(-1, d).contiguous();
    }

    /**
     * What one of a sort's n log n comparisons costs, in the floating-point operations {@link Parallel#forRangeCosting}
     * counts: a mispredicted branch each other time, some thirty cycles an element a level.
     */
    private static final int COST_PER_COMPARISON = 16;

    /**
     * A float32 or bool line as longs whose signed order is the stable sort's: the value's order-preserving bits (-0 made
     * +0, every NaN the one NaN, above +infinity; all of it reversed for descending) above the position, so ties fall
     * to the position and the whole is a sort of distinct longs by Arrays.sort, with no comparator to call.
     */
    private static void packKeys(Tensor src, int at, int n, boolean descending, long[] keys) {
        int p0 = src.offset + at;
        if (src.dtype() == DType.FLOAT32) {
            float[] f = src.storage.f();
            for (int j = 0; j < n; j++) {
                float v = f[p0 + j];
                int bits = Float.floatToIntBits(v == 0f ? 0f : v);
                int key = bits ^ ((bits >> 31) & 0x7fffffff);
                keys[j] = ((long) (descending ? ~key : key) << 32) | j;
            }
        } else {
            boolean[] b = src.storage.b();
            for (int j = 0; j < n; j++) {
                int key = b[p0 + j] ? 1 : 0;
                keys[j] = ((long) (descending ? ~key : key) << 32) | j;
            }
        }
    }

    /**
     * The positions (the keys' low halves) of the {@code k} smallest keys, in order, into {@code out}: all of them
     * sorted where k is the whole line, else a max-heap of the k smallest seen (most keys fail against its top alone),
     * then the heap sorted.
     */
    private static void firstByPackedKey(long[] keys, int n, int k, long[] heap, long[] out, int at) {
        long[] chosen = keys;
        if (k < n) {
            for (int j = 0; j < k; j++) {
                heap[j] = keys[j];
                siftUp(heap, j);
            }
            for (int j = k; j < n; j++) {
                if (k > 0 && keys[j] < heap[0]) {
                    heap[0] = keys[j];
                    siftDown(heap, k);
                }
            }
            chosen = heap;
        }
        java.util.Arrays.sort(chosen, 0, k);
        for (int j = 0; j < k; j++) {
            out[at + j] = (int) chosen[j];
        }
    }

    private static void siftUp(long[] heap, int j) {
        long v = heap[j];
        while (j > 0) {
            int parent = (j - 1) >>> 1;
            if (heap[parent] >= v) {
                break;
            }
            heap[j] = heap[parent];
            j = parent;
        }
        heap[j] = v;
    }

    /** Restores the max-heap of {@code size} keys after its top was replaced. */
    private static void siftDown(long[] heap, int size) {
        long v = heap[0];
        int j = 0;
        while (true) {
            int child = 2 * j + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && heap[child + 1] > heap[child]) {
                child++;
            }
            if (heap[child] <= v) {
                break;
            }
            heap[j] = heap[child];
            j = child;
        }
        heap[j] = v;
    }

    /** A float64 or int64 line's positions in the stable order, by a merge sort of the positions. */
    private static void mergeSortLine(Tensor src, int at, int n, boolean descending, int[] order, int[] scratch) {
        int p0 = src.offset + at;
        int sign = descending ? -1 : 1;
        for (int j = 0; j < n; j++) {
            order[j] = j;
        }
        if (src.dtype() == DType.INT64) {
            long[] l = src.storage.l();
            mergeSort(order, scratch, 0, n, (i, j) -> sign * Long.compare(l[p0 + i], l[p0 + j]));
        } else {
            double[] v = src.storage.d();
            mergeSort(order, scratch, 0, n, (i, j) -> sign * compareWithNanLast(v[p0 + i], v[p0 + j]));
        }
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
