package dev.jgrad.autograd;

import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;

/**
 * Differentiable views and copies. A view's backward puts the gradient back where the view came from:
 * reshape it, transpose it back, or write it into zeros through the same view (slice, select, diagonal).
 * Expand needs no rule of its own: the engine sums the gradient down to the input's shape.
 */
final class ViewOps {
    private ViewOps() {
    }

    /** Marks {@code out} as a view of {@code x}'s base where they share storage, for the in-place rules. */
    private static Variable viewOf(Variable out, Variable x) {
        if (out.data.sharesStorage(x.data)) {
            out.base = x.base != null ? x.base : x;
        }
        return out;
    }

    /** view, reshape, (un)squeeze, (un)flatten: the gradient is reshaped back. */
    static Variable reshapeLike(String name, Variable x, Tensor y) {
        int[] shape = x.data.shape();
        return viewOf(Op.of(name, y, x).backward((g, n) -> new Variable[] {g.reshape(shape)}), x);
    }

    static Variable transpose(Variable x, int d0, int d1) {
        Tensor y = x.data.transpose(d0, d1);
        return viewOf(Op.of("transpose", y, x).backward((g, n) -> new Variable[] {g.transpose(d0, d1)}), x);
    }

    static Variable permute(Variable x, int[] dims) {
        Tensor y = x.data.permute(dims);
        int[] inverse = Shape.inversePermutation(Shape.wrapDims(dims, x.dim()));
        return viewOf(Op.of("permute", y, x).backward((g, n) -> new Variable[] {g.permute(inverse)}), x);
    }

    static Variable expand(Variable x, int[] sizes) {
        Tensor y = x.data.expand(sizes);
        return viewOf(Op.of("expand", y, x).backward((g, n) -> new Variable[] {g}), x);
    }

    static Variable slice(Variable x, int dim, int start, int end, int step) {
        Tensor y = x.data.slice(dim, start, end, step);
        return viewOf(Op.of("slice", y, x).backwardInto(z -> z.slice(dim, start, end, step)), x);
    }

    static Variable select(Variable x, int dim, int index) {
        Tensor y = x.data.select(dim, index);
        return viewOf(Op.of("select", y, x).backwardInto(z -> z.select(dim, index)), x);
    }

    static Variable diagonal(Variable x, int offset, int dim1, int dim2) {
        Tensor y = x.data.diagonal(offset, dim1, dim2);
        return viewOf(Op.of("diagonal", y, x).backwardInto(z -> z.diagonal(offset, dim1, dim2)), x);
    }

    /** unfold: the gradient of every window is added back where the window was read. */
    static Variable unfold(Variable x, int dim, int size, int step) {
        Tensor y = x.data.unfold(dim, size, step);
        int[] shape = x.data.shape();
        int d = Shape.wrapDim(dim, shape.length);
        return viewOf(Op.of("unfold", y, x).backward((g, n) -> new Variable[] {unfoldBackward(g, shape, d, size, step)}), x);
    }

    /** unfold's backward as an op of its own: linear in g, so its gradient is unfold again. */
    private static Variable unfoldBackward(Variable g, int[] shape, int d, int size, int step) {
        Tensor z = unfoldBackward(g.data, shape, d, size, step);
        return Op.of("unfold_backward", z, g).backward((gg, n) -> new Variable[] {gg.unfold(d, size, step)});
    }

    /**
     * The sum, into zeros of the input's shape, of each window's gradient at the window's place. Windows may
     * overlap, so no single view of the result can take the gradient; instead it is added in a few strided
     * pieces that do not overlap: per element position k of the windows (every k-th element of all windows
     * at once) where windows outnumber their size, as in a convolution, else per window.
     */
    static Tensor unfoldBackward(Tensor g, int[] inShape, int d, int size, int step) {
        Tensor z = zerosInLayoutOf(g, inShape);
        if (inShape.length == 0) {
            return size == 0 ? z : g.reshape();
        }
        int windows = g.size(d);
        if (windows == 0 || size == 0) {
            return z;
        }
        if (windows > size) {
            int span = (windows - 1) * step + 1;
            for (int k = 0; k < size; k++) {
                z.slice(d, k, k + span, step).addi(g.select(-1, k));
            }
        } else {
            for (int w = 0; w < windows; w++) {
                z.narrow(d, w * step, size).addi(g.select(d, w).movedim(-1, d));
            }
        }
        return z;
    }

    /**
     * Zeros of {@code shape} laid out in memory in the order of g's strides over its first dims (the windows'
     * dims, not the window's own last dim): the adds of unfold's backward then run along rows that are
     * contiguous in both, however the windows were permuted after the unfold (as im2col does).
     */
    private static Tensor zerosInLayoutOf(Tensor g, int[] shape) {
        int n = shape.length;
        int[] order = Shape.dimsByStride(java.util.Arrays.copyOf(g.strides(), n));
        int[] laid = new int[n];
        int[] back = new int[n];
        for (int i = 0; i < n; i++) {
            laid[i] = shape[order[i]];
            back[order[i]] = i;
        }
        return Tensor.zeros(g.dtype(), laid).permute(back);
    }

    /** Constant padding: the gradient is padded back the other way, which crops what was added and zero-fills what was cropped. */
    static Variable pad(Variable x, int[] pad, double value) {
        Tensor y = x.data.pad(pad, value);
        int[] back = new int[pad.length];
        for (int i = 0; i < pad.length; i++) {
            back[i] = -pad[i];
        }
        Op op = Op.of("pad", y, x);
        if (!Double.isFinite(value)) {
            op.allowNonFinite();
        }
        return op.backward((g, n) -> new Variable[] {g.pad(back, 0.0)});
    }

    /** contiguous and clone: a copy whose gradient passes through. */
    static Variable copy(String name, Variable x) {
        Tensor y = x.data.clone();
        return Op.of(name, y, x).backward((g, n) -> new Variable[] {g});
    }

    static Variable flip(Variable x, int[] dims) {
        Tensor y = x.data.flip(dims);
        return Op.of("flip", y, x).backward((g, n) -> new Variable[] {g.flip(dims)});
    }
}
