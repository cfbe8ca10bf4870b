package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.DTypeException;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.Parallel;
import dev.jgrad.tensor.internal.kernels.Tuning;

import static dev.jgrad.tensor.internal.TensorAccess.dense;
import static dev.jgrad.tensor.internal.TensorAccess.bools;
import static dev.jgrad.tensor.internal.TensorAccess.empty;
import static dev.jgrad.tensor.internal.TensorAccess.floats;
import static dev.jgrad.tensor.internal.TensorAccess.offset;
import static dev.jgrad.tensor.internal.TensorAccess.shape;
import static dev.jgrad.tensor.internal.TensorAccess.strides;

/**
 * Attention's weights in float32 as one pass and their gradient as one: {@code softmax(scale x)} over the last
 * dim with the positions of a bool mask (true = masked out, broadcast to x) left out, in place of a scale, a
 * masked fill with -inf and a softmax forward (three passes and three results) and four passes backward. A
 * row with every position masked gets zero weights (and a zero gradient), as attention wants.
 */
public final class MaskedSoftmax {
    private MaskedSoftmax() {
    }

    /**
     * The weights, {@code x}'s shape; {@code mask} may be null. With {@code causal}, every position j past the row's own
     * index i along the second-to-last dim is left out too (the causal mask, without making it or its union with
     * {@code mask}).
     */
    public static Tensor forward(Tensor x, Tensor mask, boolean causal, double scale) {
        if (x.dtype() != DType.FLOAT32 || x.dim() == 0 || (mask != null && mask.dtype() != DType.BOOL)) {
            throw new DTypeException("masked softmax: expected a float32 x with at least one dim and a bool mask, got "
                    + x.dtype() + " " + Shape.str(x.shape()) + (mask == null ? "" : " and " + mask.dtype() + " " + Shape.str(mask.shape())));
        }
        if (causal && x.dim() < 2) {
            throw new ShapeException("masked softmax: a causal mask needs (..., T, S) scores, got " + Shape.str(x.shape()));
        }
        Tensor in = dense(x);
        Tensor m = mask == null ? null : mask.expand(x.shape());
        int len = x.size(-1);
        int queries = causal ? x.size(-2) : 1;
        int rows = len == 0 ? 0 : x.numel() / len;
        Tensor out = empty(DType.FLOAT32, x.shape());
        float[] a = floats(in);
        float[] o = floats(out);
        float sc = (float) scale;
        Parallel.forRange(rows, Math.max(1, Tuning.parallelMin() / Math.max(1, len)), (lo, hi) -> {
            boolean[] mb = m == null ? null : bools(m);
            int ms = m == null ? 0 : strides(m)[m.dim() - 1];
            for (int r = lo; r < hi; r++) {
                int row = r * len;
                int mo = m == null ? 0 : rowOffset(m, r);
                // Positions from 'seen' on are past the query's own (causal); without a causal mask, none are.
                int seen = causal ? r % queries + 1 : len;
                if (Kernels.SOFTMAX.maskedScale(a, row, mb, mo, ms, seen, sc, o, row, len)) {
                    Kernels.SOFTMAX.row(o, row, 1, o, row, 1, len, false);
                } else {
                    java.util.Arrays.fill(o, row, row + len, 0f);
                }
            }
        });
        return out;
    }

    /** The gradient of x from the gradient of the weights {@code y}: {@code scale y (g - sum(g y))} by rows. */
    public static Tensor backward(Tensor grad, Tensor y, double scale) {
        Tensor g = dense(grad.to(DType.FLOAT32));
        int len = y.size(-1);
        int rows = len == 0 ? 0 : y.numel() / len;
        Tensor dx = empty(DType.FLOAT32, y.shape());
        float[] gs = floats(g);
        float[] ys = floats(y);
        float[] d = floats(dx);
        float sc = (float) scale;
        Parallel.forRange(rows, Math.max(1, Tuning.parallelMin() / Math.max(1, len)), (lo, hi) -> {
            for (int r = lo; r < hi; r++) {
                int row = r * len;
                Kernels.SOFTMAX.gradient(gs, row, ys, row, sc, d, row, len);
            }
        });
        return dx;
    }

    /** Where row r (over every dim but the last) of the expanded mask starts. */
    private static int rowOffset(Tensor m, int r) {
        int off = offset(m);
        for (int dim = m.dim() - 2; dim >= 0; dim--) {
            int size = shape(m)[dim];
            off += (r % size) * strides(m)[dim];
            r /= size;
        }
        return off;
    }
}
