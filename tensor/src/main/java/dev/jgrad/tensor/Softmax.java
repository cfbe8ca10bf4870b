package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.Parallel;
import dev.jgrad.tensor.internal.kernels.ThreadBuffer;
import dev.jgrad.tensor.internal.kernels.Tuning;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Softmax and log-softmax over one dim, rows at a time: float32 rows by the kernels' softmax family (on several threads,
 * with a large result's allocation overlapped by the rows' statistics), float64 rows here, shifted by their maximum.
 */
final class Softmax {
    private Softmax() {
    }

    static Tensor softmax(Tensor x, int dim, boolean log) {
        if (!x.dtype().isFloating()) {
            throw new DTypeException((log ? "log_softmax" : "softmax") + "(): expected a floating point tensor, got " + x.dtype());
        }
        int n = x.shape.length;
        if (n == 0) {
            Shape.wrapDim(dim, 0);
            return Tensor.scalar(log ? 0.0 : 1.0, x.dtype());
        }
        int d = Shape.wrapDim(dim, n);
        int len = x.shape[d];
        // In a memory scope the result's array is recycled, not zeroed: nothing to overlap, so no second pass.
        if (d == n - 1 && x.dtype() == DType.FLOAT32 && x.isContiguous() && len >= 16
                && x.numel() >= Tuning.parallelMin() && Parallel.threads() > 1 && !Memory.inScope()) {
            return softmaxRowsOverlapped(x, len, log);
        }
        if (d < n - 1 && x.dtype() == DType.FLOAT32 && x.isContiguous() && len > 0) {
            // How far apart consecutive elements along d are.
            int inner = Shape.contiguousStrides(x.shape)[d];
            if (inner >= MIN_INNER) {
                return softmaxAcrossColumns(x, d, len, inner, log);
            }
        }
        Tensor r = Tensor.empty(x.dtype(), x.shape);
        int[] keptShape = x.shape.clone();
        keptShape[d] = 1;
        Iter it = Iter.of(keptShape, r.strides, x.strides);
        int rs = it.rowStride(0);
        int xs = it.rowStride(1);
        int xStep = x.strides[d];
        int rStep = r.strides[d];
        if (x.dtype() == DType.FLOAT32) {
            float[] a = x.storage.f();
            float[] o = r.storage.f();
            it.forEachRowParallel(new int[] {0, x.offset}, len, (off, m) -> {
                for (int i = 0; i < m; i++) {
                    Kernels.SOFTMAX.row(a, off[1] + i * xs, xStep, o, off[0] + i * rs, rStep, len, log);
                }
            });
        } else {
            double[] a = x.storage.d();
            double[] o = r.storage.d();
            it.forEachRow(new int[] {0, x.offset}, (off, m) -> {
                for (int i = 0; i < m; i++) {
                    softmaxRowD(a, off[1] + i * xs, xStep, o, off[0] + i * rs, rStep, len, log);
                }
            });
        }
        return r;
    }

    /** The fewest elements after the dim for {@link #softmaxAcrossColumns}: below a vector's worth, the rows path does as well. */
    static final int MIN_INNER = 16;
    /** The columns each task of {@link #softmaxAcrossColumns} takes: their statistics stay in L1 while the rows pass. */
    private static final int COLUMNS = 512;

    /**
     * Softmax over a dim that is not the last (channels of an image, dim 0 of a matrix) of a contiguous float32 tensor:
     * the rows along the dim are {@code inner} apart, so instead of one strided row at a time, whole runs of
     * {@code inner} columns go through the vector kernels together, each column the softmax of its own elements: the
     * columns' maximum, e^(x - max) and its sum in double, then the scale by the sum's inverse (or, for log-softmax, x
     * minus max plus log of the sum), as the last-dim kernel does each row. Tasks are runs of columns, so the thread
     * count does not change the result.
     */
    private static Tensor softmaxAcrossColumns(Tensor x, int d, int len, int inner, boolean log) {
        Tensor r = Tensor.empty(DType.FLOAT32, x.shape);
        int outer = x.numel() / (len * inner);
        int runs = (inner + COLUMNS - 1) / COLUMNS;
        float[] a = x.storage.f();
        float[] o = r.storage.f();
        int xo = x.offset;
        long work = (long) len * Math.min(inner, COLUMNS);
        Parallel.forRange(outer * runs, (int) Math.max(1, Tuning.parallelMin() / Math.max(1, work)), (lo, hi) -> {
            float[] max = new float[COLUMNS];
            double[] sum = new double[COLUMNS];
            float[] scale = new float[COLUMNS];
            for (int t = lo; t < hi; t++) {
                int block = t / runs;
                int c0 = (t - block * runs) * COLUMNS;
                int w = Math.min(COLUMNS, inner - c0);
                int in = xo + block * len * inner + c0;
                int out = block * len * inner + c0;
                System.arraycopy(a, in, max, 0, w);
                for (int j = 1; j < len; j++) {
                    Kernels.ELEMENTWISE.binary(BinaryOp.MAXIMUM, max, 0, a, in + j * inner, max, 0, w);
                }
                java.util.Arrays.fill(sum, 0, w, 0.0);
                for (int j = 0; j < len; j++) {
                    Kernels.SOFTMAX.expShiftedColumns(a, in + j * inner, max, o, out + j * inner, sum, w);
                }
                for (int c = 0; c < w; c++) {
                    scale[c] = log ? (float) -(max[c] + Math.log(sum[c])) : (float) (1.0 / sum[c]);
                }
                for (int j = 0; j < len; j++) {
                    int row = out + j * inner;
                    if (log) {
                        Kernels.ELEMENTWISE.binary(BinaryOp.ADD, a, in + j * inner, scale, 0, o, row, w);
                    } else {
                        Kernels.ELEMENTWISE.binary(BinaryOp.MUL, o, row, scale, 0, o, row, w);
                    }
                }
            }
        });
        return r;
    }

    /** Each row's maximum and sum of exponentials, kept per calling thread and grown as needed. */
    private static final class RowStats {
        float[] max = new float[0];
        double[] sum = new double[0];

        RowStats ensure(int rows) {
            if (max.length < rows) {
                max = new float[rows];
                sum = new double[rows];
            }
            return this;
        }
    }

    private static final ThreadLocal<RowStats> ROW_STATS = ThreadLocal.withInitial(RowStats::new);

    /** Each thread's row of exponentials for {@link #softmaxRowsOverlapped}, which only needs their sum. */
    private static final ThreadBuffer EXP_ROW = new ThreadBuffer();

    /**
     * Softmax over the rows of a contiguous float32 tensor, on several threads, with the result's
     * allocation overlapped: the JVM zeroes a new array on the calling thread, in memory the cache has
     * not seen, and meanwhile the other threads work out each row's maximum and sum of exponentials; the
     * caller joins them when it is done. A second pass writes e^(x - max) / sum, so each exponential is
     * computed twice, which costs less than the wait it hides. The numbers are those of the one-thread
     * path, bit for bit.
     */
    private static Tensor softmaxRowsOverlapped(Tensor x, int len, boolean log) {
        int rows = x.numel() / len;
        float[] a = x.storage.f();
        int base = x.offset;
        RowStats stats = ROW_STATS.get().ensure(rows);
        float[] rowMax = stats.max;
        double[] rowSum = stats.sum;
        Tensor[] result = new Tensor[1];
        int chunk = Math.max(1, 4096 / len);
        int chunks = (rows + chunk - 1) / chunk;
        AtomicInteger next = new AtomicInteger();
        // One part per thread; part 0 runs on the calling thread, which allocates before it joins in.
        Parallel.forRange(Parallel.threads(), 1, (lo, hi) -> {
            if (lo == 0) {
                result[0] = Tensor.empty(DType.FLOAT32, x.shape);
            }
            float[] exps = EXP_ROW.get(len);
            for (int c = next.getAndIncrement(); c < chunks; c = next.getAndIncrement()) {
                for (int i = c * chunk, end = Math.min(rows, i + chunk); i < end; i++) {
                    float m = Kernels.SOFTMAX.max(a, base + i * len, len);
                    rowMax[i] = m;
                    rowSum[i] = Kernels.SOFTMAX.expShifted(a, base + i * len, exps, 0, len, m, 1.0);
                }
            }
        });
        float[] o = result[0].storage.f();
        Parallel.forRange(rows, Math.max(1, Tuning.parallelMin() / 2 / len), (lo, hi) -> {
            for (int i = lo; i < hi; i++) {
                if (log) {
                    Kernels.SOFTMAX.addScalar(a, base + i * len, o, i * len, len, -(rowMax[i] + Math.log(rowSum[i])));
                } else {
                    Kernels.SOFTMAX.expShifted(a, base + i * len, o, i * len, len, rowMax[i], 1.0 / rowSum[i]);
                }
            }
        });
        return result[0];
    }

    static void softmaxRowD(double[] a, int ao, int as, double[] o, int oo, int os, int n, boolean log) {
        double m = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < n; k++) {
            m = Math.max(m, a[ao + k * as]);
        }
        double sum = 0;
        for (int k = 0; k < n; k++) {
            sum += Math.exp(a[ao + k * as] - m);
        }
        if (log) {
            double lse = m + Math.log(sum);
            for (int k = 0; k < n; k++) {
                o[oo + k * os] = a[ao + k * as] - lse;
            }
        } else {
            for (int k = 0; k < n; k++) {
                o[oo + k * os] = Math.exp(a[ao + k * as] - m) / sum;
            }
        }
    }
}
