package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.Parallel;
import dev.jgrad.tensor.internal.kernels.ThreadBuffer;
import dev.jgrad.tensor.internal.kernels.Tuning;

/**
 * The backward of softmax and log-softmax from their output y: {@code y (g - sum(g y))} and {@code g - e^y sum(g)}, the
 * sums over the softmax's dim. Where g and y are contiguous float32 of one shape and the dim is the last, one pass over
 * rows (or blocks of rows) that stay in cache instead of four ops each writing a whole tensor; elsewhere those four ops.
 * Both give the same bits: the rows go through the kernels the ops call, on the same elements in the same lanes, or
 * (a row's sum of g y) through one that adds as they do.
 */
final class SoftmaxBackward {
    /** About how many floats a block of rows holds: log-softmax's exponentials of a block stay in L1 until they are used. */
    private static final int BLOCK_FLOATS = 4096;
    /** Each thread's scratch rows of e^y. */
    private static final ThreadBuffer SCRATCH = new ThreadBuffer();
    /** Each thread's row sums of g over a block (log-softmax). */
    private static final ThreadBuffer SUMS = new ThreadBuffer();

    private SoftmaxBackward() {
    }

    static Tensor softmaxBackward(Tensor g, Tensor y, int dim) {
        return backward(g, y, dim, false);
    }

    static Tensor logSoftmaxBackward(Tensor g, Tensor y, int dim) {
        return backward(g, y, dim, true);
    }

    private static Tensor backward(Tensor g, Tensor y, int dim, boolean log) {
        String name = log ? "log_softmax_backward" : "softmax_backward";
        if (!java.util.Arrays.equals(g.shape, y.shape)) {
            throw new ShapeException(name + ": the gradient's shape " + Shape.str(g.shape) + " differs from the output's "
                    + Shape.str(y.shape));
        }
        if (y.shape.length == 0) {
            Shape.wrapDim(dim, 0);
            return Tensor.zerosLike(g);
        }
        int d = Shape.wrapDim(dim, y.shape.length);
        if (d == y.shape.length - 1 && g.dtype() == DType.FLOAT32 && y.dtype() == DType.FLOAT32 && g.isContiguous() && y.isContiguous()
                && y.numel() > 0) {
            return lastDimRows(g, y, log);
        }
        if (log) {
            return g.sub(y.exp().mul(g.sum(d, true)));
        }
        return y.mul(g.sub(g.mul(y).sum(d, true)));
    }

    /**
     * Blocks of whole rows, each block's first element a multiple of 64 elements from the start: the exponential's
     * vector loop then puts each element in the lane it has in one pass over the whole tensor (the op form's), whose
     * last few elements, and only those, take the scalar formula. The rows are shared among the threads by blocks.
     */
    private static Tensor lastDimRows(Tensor g, Tensor y, boolean log) {
        int n = y.shape[y.shape.length - 1];
        int rows = y.numel() / n;
        int align = Iter.PIECE_ALIGN / gcd(n, Iter.PIECE_ALIGN);
        int blockRows = Math.max(1, (BLOCK_FLOATS / n + align - 1) / align) * align;
        int blocks = (rows + blockRows - 1) / blockRows;
        Tensor r = Tensor.empty(DType.FLOAT32, y.shape);
        float[] ga = g.storage.f();
        float[] ya = y.storage.f();
        float[] o = r.storage.f();
        int go = g.offset;
        int yo = y.offset;
        Parallel.RangeBody body = (lo, hi) -> {
            float[] scratch = log ? SCRATCH.get(Math.min(rows, blockRows) * n) : null;
            float[] sums = log ? SUMS.get(Math.min(rows, blockRows)) : null;
            for (int b = lo; b < hi; b++) {
                int r0 = b * blockRows;
                int count = Math.min(blockRows, rows - r0);
                int at = r0 * n;
                int len = count * n;
                if (log) {
                    // The block's e^y in one call, so its lanes are the exponential op's over the whole tensor.
                    Kernels.REDUCTIONS.rowSums(ga, go + at, n, count, n, false, sums, 0, 1);
                    Kernels.ELEMENTWISE.unary(UnaryOp.EXP, ya, yo + at, scratch, 0, len);
                    for (int i = 0; i < count; i++) {
                        Kernels.ELEMENTWISE.softmaxBackwardRow(true, ga, go + at + i * n, scratch, i * n, sums[i], o, at + i * n, n);
                    }
                } else {
                    // Each row's sum of g y as the sum op adds the products' tensor (sumOfProducts: the same bits).
                    for (int i = 0; i < count; i++) {
                        int row = at + i * n;
                        float s = (float) Kernels.REDUCTIONS.sumOfProducts(ga, go + row, ya, yo + row, n);
                        Kernels.ELEMENTWISE.softmaxBackwardRow(false, ga, go + row, ya, yo + row, s, o, row, n);
                    }
                }
            }
        };
        if ((long) rows * n < Tuning.parallelMin()) {
            body.run(0, blocks);
        } else {
            Parallel.forRange(blocks, Math.max(1, Tuning.parallelMin() / 2 / (blockRows * n)), body);
        }
        return r;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
