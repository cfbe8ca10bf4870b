package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.ThreadBuffer;
import dev.jgrad.tensor.internal.kernels.Tuning;

/**
 * The backward of sigmoid, tanh and SiLU: where the gradient and the saved tensor are contiguous float32 of one shape,
 * one pass ({@link dev.jgrad.tensor.internal.kernels.ElementwiseKernels#activationBackward}) instead of the three to six
 * ops of their op form, each of which writes a whole tensor; elsewhere those ops. Both give the same bits: the pass does
 * the ops' float operations in their order, and SiLU's sigmoid is the sigmoid op's kernel on the same lanes.
 */
final class ActivationBackward {
    /** The elements of a block: a multiple of {@link Iter#PIECE_ALIGN}, so each block's sigmoid has the op's lanes. */
    private static final int BLOCK = 4096;
    /** Each thread's block of sigmoid(x) for SiLU. */
    private static final ThreadBuffer SIGMOIDS = new ThreadBuffer();

    private ActivationBackward() {
    }

    /** {@code g y (1 - y)} from sigmoid's output y. */
    static Tensor sigmoid(Tensor g, Tensor y) {
        check("sigmoid_backward", g, y);
        return fusable(g, y) ? blocks(UnaryOp.SIGMOID, g, y) : g.mul(y.mul(y.rsub(1.0)));
    }

    /** {@code g (1 - y^2)} from tanh's output y. */
    static Tensor tanh(Tensor g, Tensor y) {
        check("tanh_backward", g, y);
        return fusable(g, y) ? blocks(UnaryOp.TANH, g, y) : g.mul(y.square().rsub(1.0));
    }

    /** {@code g s (1 + x (1 - s))}, s = sigmoid(x), from SiLU's input x. */
    static Tensor silu(Tensor g, Tensor x) {
        check("silu_backward", g, x);
        if (fusable(g, x)) {
            return blocks(UnaryOp.SILU, g, x);
        }
        Tensor s = x.sigmoid();
        return g.mul(s.mul(x.mul(s.rsub(1.0)).add(1.0)));
    }

    private static void check(String name, Tensor g, Tensor saved) {
        if (!java.util.Arrays.equals(g.shape, saved.shape)) {
            throw new ShapeException(name + ": the gradient's shape " + Shape.str(g.shape) + " differs from the saved tensor's "
                    + Shape.str(saved.shape));
        }
    }

    private static boolean fusable(Tensor g, Tensor v) {
        return g.dtype() == DType.FLOAT32 && v.dtype() == DType.FLOAT32 && g.isContiguous() && v.isContiguous();
    }

    private static Tensor blocks(UnaryOp op, Tensor g, Tensor v) {
        Tensor r = Tensor.empty(DType.FLOAT32, v.shape);
        int n = v.numel();
        float[] ga = g.storage.f();
        float[] va = v.storage.f();
        float[] o = r.storage.f();
        int go = g.offset;
        int vo = v.offset;
        // Pieces start at multiples of 64 elements and blocks are 4096 long, so every block starts on the op's lanes.
        Iter.forAlignedPieces(n, Tuning.parallelMin() / 2, (from, to) -> {
            float[] s = op == UnaryOp.SILU ? SIGMOIDS.get(Math.min(to - from, BLOCK)) : null;
            for (int at = from; at < to; at += BLOCK) {
                int len = Math.min(BLOCK, to - at);
                if (s != null) {
                    Kernels.ELEMENTWISE.unary(UnaryOp.SIGMOID, va, vo + at, s, 0, len);
                }
                Kernels.ELEMENTWISE.activationBackward(op, ga, go + at, va, vo + at, s, 0, o, at, len);
            }
        });
        return r;
    }
}
