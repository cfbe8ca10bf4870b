package dev.jgrad.autograd;

import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.ValuesIndices;

import java.util.Arrays;

/** Differentiable reductions, softmax and log-softmax, each forward beside its backward rule. */
final class ReduceOps {
    private ReduceOps() {
    }

    /** The reduced dims, wrapped and ascending; null or empty means all, as in PyTorch. */
    static int[] reducedDims(int[] dims, int ndim) {
        if (dims == null || dims.length == 0) {
            int[] all = new int[ndim];
            for (int i = 0; i < ndim; i++) {
                all[i] = i;
            }
            return all;
        }
        if (ndim == 0) {
            Shape.wrapDims(dims, 0);
            return new int[0];
        }
        int[] d = Shape.wrapDims(dims, ndim);
        Arrays.sort(d);
        return d;
    }

    /** A gradient of a reduction's output put back in the input's shape (a stride-0 view, no copy). */
    static Variable expandBack(Variable g, int[] inShape, int[] dims, boolean keepdim) {
        Variable r = g;
        if (!keepdim) {
            for (int d : dims) {
                r = r.unsqueeze(d);
            }
        }
        return r.expand(inShape);
    }

    private static int count(int[] shape, int[] dims) {
        int c = 1;
        for (int d : dims) {
            c *= shape[d];
        }
        return c;
    }

    static Variable sum(Variable x, int[] dims, boolean keepdim) {
        int[] shape = x.data.shape();
        int[] red = reducedDims(dims, shape.length);
        Tensor y = x.data.sum(dims, keepdim);
        return Op.of("sum", y, x).backward((g, n) -> new Variable[] {expandBack(g, shape, red, keepdim)});
    }

    static Variable mean(Variable x, int[] dims, boolean keepdim) {
        int[] shape = x.data.shape();
        int[] red = reducedDims(dims, shape.length);
        Tensor y = x.data.mean(dims, keepdim);
        int c = count(shape, red);
        return Op.of("mean", y, x).backward((g, n) -> new Variable[] {expandBack(g.div(c), shape, red, keepdim)});
    }

    static Variable prod(Variable x, int[] dims, boolean keepdim) {
        int[] shape = x.data.shape();
        int[] red = reducedDims(dims, shape.length);
        Tensor y = x.data.prod(dims, keepdim);
        return Op.of("prod", y, x).save(x).backward((g, n) ->
                new Variable[] {expandBack(g, shape, red, keepdim).mul(productOfOthers(n.saved(0), red))});
    }

    /**
     * For every element, the product of the other elements of its reduced group. A first-order backward
     * takes it in one pass (exact where some are zero); a recorded one builds it from differentiable ops:
     * each element's group, with the element itself replaced by one, multiplied out.
     */
    static Variable productOfOthers(Variable x, int[] red) {
        if (!GradMode.isEnabled() || !x.requiresGrad()) {
            return x.constant(productOfOthers(x.data, red));
        }
        int n = x.dim();
        int[] perm = groupLast(n, red);
        Variable p = x.permute(perm);
        int[] permuted = p.shape();
        int kept = n - red.length;
        int[] rows = new int[kept + 1];
        System.arraycopy(permuted, 0, rows, 0, kept);
        int m = count(x.shape(), red);
        rows[kept] = m;
        Variable grouped = p.reshape(rows);
        int[] square = java.util.Arrays.copyOf(rows, kept + 2);
        square[kept + 1] = m;
        Variable others = Variable.where(x.constant(Tensor.eye(m).to(dev.jgrad.tensor.DType.BOOL)), 1.0,
                grouped.unsqueeze(kept).expand(square));
        return others.prod(new int[] {kept + 1}, false).reshape(permuted).permute(Shape.inversePermutation(perm));
    }

    /** The permutation that moves the reduced dims last, in order. */
    private static int[] groupLast(int n, int[] red) {
        int[] perm = new int[n];
        boolean[] isRed = new boolean[n];
        for (int d : red) {
            isRed[d] = true;
        }
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (!isRed[i]) {
                perm[k++] = i;
            }
        }
        for (int d : red) {
            perm[k++] = d;
        }
        return perm;
    }

    /** For every element, the product of the other elements of its reduced group (exact where some are zero). */
    static Tensor productOfOthers(Tensor x, int[] red) {
        int[] perm = groupLast(x.dim(), red);
        Tensor p = x.permute(perm).contiguous();
        int groupSize = count(x.shape(), red);
        if (x.dtype() == dev.jgrad.tensor.DType.FLOAT32) {
            return productOfOthersFloat(p, groupSize).permute(Shape.inversePermutation(perm));
        }
        double[] v = p.toDoubleArray();
        double[] out = new double[v.length];
        for (int start = 0; start + groupSize <= v.length && groupSize > 0; start += groupSize) {
            double prefix = 1;
            for (int i = 0; i < groupSize; i++) {
                out[start + i] = prefix;
                prefix *= v[start + i];
            }
            double suffix = 1;
            for (int i = groupSize - 1; i >= 0; i--) {
                out[start + i] *= suffix;
                suffix *= v[start + i];
            }
        }
        return Tensor.fromDoubles(out, x.dtype(), p.shape()).permute(Shape.inversePermutation(perm));
    }

    /**
     * {@link #productOfOthers(Tensor, int[])} of a contiguous float32 tensor whose groups are runs of {@code groupSize}:
     * the same products in double (a group's prefixes, then its suffixes, in the same order), read from and written to
     * float arrays instead of double copies of the whole tensor.
     */
    private static Tensor productOfOthersFloat(Tensor p, int groupSize) {
        float[] v = p.toFloatArray();
        float[] out = new float[v.length];
        double[] prefixes = new double[groupSize];
        for (int start = 0; start + groupSize <= v.length && groupSize > 0; start += groupSize) {
            double prefix = 1;
            for (int i = 0; i < groupSize; i++) {
                prefixes[i] = prefix;
                prefix *= v[start + i];
            }
            double suffix = 1;
            for (int i = groupSize - 1; i >= 0; i--) {
                out[start + i] = (float) (prefixes[i] * suffix);
                suffix *= v[start + i];
            }
        }
        return Tensor.of(out, p.shape());
    }

    /** amax/amin: the gradient is split evenly among the elements that tie for the extreme, as in PyTorch. */
    static Variable amaxAmin(Variable x, int[] dims, boolean keepdim, boolean isMax) {
        int[] shape = x.data.shape();
        int[] red = reducedDims(dims, shape.length);
        Tensor y = isMax ? x.data.amax(dims, keepdim) : x.data.amin(dims, keepdim);
        // The mask of the extremes is constant where the op is differentiable: x and y are saved as tensors.
        return Op.of(isMax ? "amax" : "amin", y, x).save(x.data).save(y).backward((g, n) -> {
            Tensor v = n.savedTensor(0);
            Tensor mask = v.eq(expandBack(g.constant(n.savedTensor(1)), shape, red, keepdim).data).to(v.dtype());
            Tensor ties = mask.sum(red, true);
            return new Variable[] {expandBack(g, shape, red, keepdim).mul(g.constant(mask.div(ties)))};
        });
    }

    static Variable logsumexp(Variable x, int[] dims, boolean keepdim) {
        int[] shape = x.data.shape();
        int[] red = reducedDims(dims, shape.length);
        Tensor y = x.data.logsumexp(dims, keepdim);
        return Op.of("logsumexp", y, x).save(x).saveOutput().backward((g, n) -> {
            Variable w = n.saved(0).sub(expandBack(n.saved(1), shape, red, keepdim)).exp();
            return new Variable[] {expandBack(g, shape, red, keepdim).mul(w)};
        });
    }

    static Variable var(Variable x, int[] dims, double correction, boolean keepdim) {
        int[] shape = x.data.shape();
        int[] red = reducedDims(dims, shape.length);
        Tensor y = x.data.var(dims, correction, keepdim);
        int c = count(shape, red);
        return Op.of("var", y, x).save(x).backward((g, n) -> {
            Variable v = n.saved(0);
            Variable centred = v.sub(v.mean(red, true));
            double scale = 2.0 / Math.max(0.0, c - correction);
            return new Variable[] {expandBack(g, shape, red, keepdim).mul(centred).mul(scale)};
        });
    }

    static ValuesIndices<Variable> sort(Variable x, int dim, boolean descending) {
        return fromPositions("sort", x, x.data.sort(dim, descending), dim);
    }

    static ValuesIndices<Variable> topk(Variable x, int k, int dim, boolean largest) {
        return fromPositions("topk", x, x.data.topk(k, dim, largest), dim);
    }

    /** Values picked from x along dim at the positions vi holds: each value's gradient goes back to its position. */
    private static ValuesIndices<Variable> fromPositions(String name, Variable x, ValuesIndices<Tensor> vi, int dim) {
        Tensor idx = vi.indices();
        if (x.data.dim() == 0) {
            return new ValuesIndices<>(Op.of(name, vi.values(), x).backward((g, n) -> new Variable[] {g}), idx);
        }
        int d = Shape.wrapDim(dim, x.data.dim());
        int[] shape = x.data.shape();
        Variable values = Op.of(name, vi.values(), x).save(idx).backward((g, n) ->
                new Variable[] {g.constant(Tensor.zeros(g.dtype(), shape)).scatter(d, n.savedTensor(0), g)});
        return new ValuesIndices<>(values, idx);
    }

    static Variable cumsum(Variable x, int dim) {
        Tensor y = x.data.cumsum(dim);
        // Each input element reaches every output at or after it: the gradient's sums taken from the end backwards.
        return Op.of("cumsum", y, x).backward((g, n) -> new Variable[] {g.dim() == 0 ? g : g.flip(dim).cumsum(dim).flip(dim)});
    }

    static ValuesIndices<Variable> maxMin(Variable x, int dim, boolean keepdim, boolean isMax) {
        ValuesIndices<Tensor> vi = isMax ? x.data.max(dim, keepdim) : x.data.min(dim, keepdim);
        int[] shape = x.data.shape();
        if (shape.length == 0) {
            Variable values = Op.of(isMax ? "max" : "min", vi.values(), x).backward((g, n) -> new Variable[] {g});
            return new ValuesIndices<>(values, vi.indices());
        }
        int d = Shape.wrapDim(dim, shape.length);
        Tensor idx = vi.indices();
        Variable values = Op.of(isMax ? "max" : "min", vi.values(), x).save(idx).backward((g, n) -> {
            Tensor ix = n.savedTensor(0);
            Variable gk = keepdim ? g : g.unsqueeze(d);
            Tensor ik = keepdim ? ix : ix.unsqueeze(d);
            return new Variable[] {g.constant(Tensor.zeros(g.dtype(), shape)).scatter(d, ik, gk)};
        });
        return new ValuesIndices<>(values, idx);
    }

    static Variable softmax(Variable x, int dim, boolean log) {
        Tensor y = log ? x.data.logSoftmax(dim) : x.data.softmax(dim);
        if (x.dim() == 0) {
            return Op.of(log ? "log_softmax" : "softmax", y, x).backward((g, n) -> new Variable[] {g.constant(Tensor.zerosLike(g.data))});
        }
        int d = Shape.wrapDim(dim, x.dim());
        return Op.of(log ? "log_softmax" : "softmax", y, x).saveOutput().backward((g, n) -> {
            Variable out = n.saved(0);
            if (!GradMode.isEnabled() || !(g.requiresGrad() || out.requiresGrad())) {
                // No graph of this backward to record: the tensors' one pass, the same bits as the ops below.
                Tensor dx = log ? Tensor.logSoftmaxBackward(g.data, out.data, d) : Tensor.softmaxBackward(g.data, out.data, d);
                return new Variable[] {g.constant(dx)};
            }
            if (log) {
                return new Variable[] {g.sub(out.exp().mul(g.sum(d, true)))};
            }
            return new Variable[] {out.mul(g.sub(g.mul(out).sum(d, true)))};
        });
    }

    static Variable sumTo(Variable x, int[] target) {
        int[] shape = x.data.shape();
        Tensor y = x.data.sumTo(target);
        if (y == x.data) {
            return x;
        }
        return Op.of("sum_to", y, x).backward((g, n) -> new Variable[] {g.reshape(padLeft(target, shape.length)).expand(shape)});
    }

    private static int[] padLeft(int[] s, int n) {
        int[] r = new int[n];
        Arrays.fill(r, 1);
        System.arraycopy(s, 0, r, n - s.length, s.length);
        return r;
    }
}
