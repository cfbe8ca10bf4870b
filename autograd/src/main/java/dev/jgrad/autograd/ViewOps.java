package dev.jgrad.autograd;

import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.List;

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
        return viewOf(Op.of(name, y, x).backward((g, n) -> new Tensor[] {g.reshape(shape)}), x);
    }

    static Variable transpose(Variable x, int d0, int d1) {
        Tensor y = x.data.transpose(d0, d1);
        return viewOf(Op.of("transpose", y, x).backward((g, n) -> new Tensor[] {g.transpose(d0, d1)}), x);
    }

    static Variable permute(Variable x, int[] dims) {
        Tensor y = x.data.permute(dims);
        int[] d = Shape.wrapDims(dims, x.dim());
        int[] inverse = new int[d.length];
        for (int i = 0; i < d.length; i++) {
            inverse[d[i]] = i;
        }
        return viewOf(Op.of("permute", y, x).backward((g, n) -> new Tensor[] {g.permute(inverse)}), x);
    }

    static Variable expand(Variable x, int[] sizes) {
        Tensor y = x.data.expand(sizes);
        return viewOf(Op.of("expand", y, x).backward((g, n) -> new Tensor[] {g}), x);
    }

    static Variable movedim(Variable x, int source, int destination) {
        Tensor y = x.data.movedim(source, destination);
        int s = Shape.wrapDim(source, x.dim());
        int d = Shape.wrapDim(destination, x.dim());
        return viewOf(Op.of("movedim", y, x).backward((g, n) -> new Tensor[] {g.movedim(d, s)}), x);
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

    /** split, chunk, tensor_split: each piece is a differentiable slice of x. */
    static List<Variable> pieces(Variable x, List<Tensor> parts, int dim) {
        int d = Shape.wrapDim(dim, x.dim());
        List<Variable> out = new ArrayList<>(parts.size());
        int start = 0;
        for (Tensor p : parts) {
            int len = p.size(d);
            out.add(slice(x, d, start, start + len, 1));
            start += len;
        }
        return out;
    }

    static List<Variable> unbind(Variable x, int dim) {
        int d = Shape.wrapDim(dim, x.dim());
        List<Variable> out = new ArrayList<>();
        for (int i = 0; i < x.data.size(d); i++) {
            out.add(select(x, d, i));
        }
        return out;
    }

    /** contiguous and clone: a copy whose gradient passes through. */
    static Variable copy(String name, Variable x) {
        Tensor y = x.data.clone();
        return Op.of(name, y, x).backward((g, n) -> new Tensor[] {g});
    }

    static Variable flip(Variable x, int[] dims) {
        Tensor y = x.data.flip(dims);
        return Op.of("flip", y, x).backward((g, n) -> new Tensor[] {g.flip(dims)});
    }
}
