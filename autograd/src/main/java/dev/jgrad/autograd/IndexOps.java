package dev.jgrad.autograd;

import dev.jgrad.tensor.Index;
import dev.jgrad.tensor.ScatterReduce;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;

import java.util.Arrays;
import java.util.List;

/**
 * Differentiable indexing, gather/scatter and joining. Index tensors are plain tensors: positions have
 * no gradient. The backward of a read (index, gather, index_select) is the matching accumulating write
 * into zeros (index_put with accumulate, scatter_add, index_add), so repeated indices add up.
 */
final class IndexOps {
    private IndexOps() {
    }

    static Variable index(Variable x, Index[] indices) {
        Tensor y = x.data.index(indices);
        int[] shape = x.data.shape();
        Variable out = Op.of("index", y, x).backward((g, n) -> new Variable[] {Op.linear("index_backward",
                Tensor.zeros(g.dtype(), shape).indexPuti(indices, g.data, true), g, gg -> gg.index(indices))});
        if (y.sharesStorage(x.data)) {
            out.base = x.base != null ? x.base : x;
        }
        return out;
    }

    static Variable gather(Variable x, int dim, Tensor index) {
        Tensor y = x.data.gather(dim, index);
        int[] shape = x.data.shape();
        return Op.of("gather", y, x).save(index).backward((g, n) -> {
            Tensor ix = n.savedTensor(0);
            return new Variable[] {Op.linear("gather_backward", Tensor.zeros(g.dtype(), shape).scatterAdd(dim, ix, g.data), g,
                    gg -> gg.gather(dim, ix))};
        });
    }

    static Variable takeAlongDim(Variable x, Tensor index, int dim) {
        Tensor y = x.data.takeAlongDim(index, dim);
        int d = Shape.wrapDim(dim, Math.max(x.dim(), 1));
        int size = x.dim() == 0 ? 1 : x.data.size(d);
        return Op.of("take_along_dim", y, x).save(index).backward((g, n) -> {
            int[] target = g.shape();
            target[d] = size;
            // A gradient in the broadcast shape of x; the engine sums it down to x's own shape.
            Tensor ix = n.savedTensor(0).expand(g.shape());
            return new Variable[] {Op.linear("take_along_dim_backward", Tensor.zeros(g.dtype(), target).scatterAdd(d, ix, g.data), g,
                    gg -> gg.gather(d, ix))};
        });
    }

    /** A gradient gathered at the index positions, padded with zeros to src's shape where src is larger than the index. */
    private static Variable fitTo(Variable gathered, int[] srcShape) {
        if (Arrays.equals(gathered.shape(), srcShape)) {
            return gathered;
        }
        int n = srcShape.length;
        int[] pad = new int[2 * n];
        for (int d = 0; d < n; d++) {
            pad[2 * (n - 1 - d) + 1] = srcShape[d] - gathered.size(d);
        }
        return gathered.pad(pad, 0.0);
    }

    static Variable scatter(Variable self, int dim, Tensor index, Variable src) {
        Tensor y = self.data.scatter(dim, index, src.data);
        int[] srcShape = src.data.shape();
        return Op.of("scatter", y, self, src).save(index).backward((g, n) -> {
            Tensor ix = n.savedTensor(0);
            return new Variable[] {
                n.needs(0) ? g.scatter(dim, ix, 0.0) : null,
                n.needs(1) ? fitTo(g.gather(dim, ix), srcShape) : null};
        });
    }

    static Variable scatterAdd(Variable self, int dim, Tensor index, Variable src) {
        Tensor y = self.data.scatterAdd(dim, index, src.data);
        int[] srcShape = src.data.shape();
        return Op.of("scatter_add", y, self, src).save(index).backward((g, n) -> new Variable[] {
            g, n.needs(1) ? fitTo(g.gather(dim, n.savedTensor(0)), srcShape) : null});
    }

    /**
     * scatter_reduce: sum and mean pass the gradient (divided by the count for mean); amax and amin split
     * it among the values that equal the result. prod has no gradient here.
     */
    static Variable scatterReduce(Variable self, int dim, Tensor index, Variable src, ScatterReduce reduce, boolean includeSelf) {
        Tensor y = self.data.scatterReduce(dim, index, src.data, reduce, includeSelf);
        Op op = Op.of("scatter_reduce", y, self, src);
        if (op.recording() && reduce == ScatterReduce.PROD) {
            throw new AutogradException("scatter_reduce(reduce='prod') has no gradient in jgrad; compute it under NoGrad or use"
                    + " exp(scatter_reduce(log(x), reduce='sum')) for positive values");
        }
        int[] srcShape = src.data.shape();
        // Which values reached the result is constant where the op is differentiable: all are saved as tensors.
        return op.save(index).save(self.data).save(src.data).save(y).backward((g, n) -> {
            Tensor ix = n.savedTensor(0);
            Tensor received = Tensor.zerosLike(g.data).scatterAdd(dim, ix, Tensor.ones(g.dtype(), ix.shape()));
            Tensor touched = received.gt(0.0);
            Variable gs;
            Variable gsrc;
            switch (reduce) {
                case SUM:
                    gs = includeSelf ? g : g.maskedFill(touched, 0.0);
                    gsrc = g.gather(dim, ix);
                    break;
                case MEAN: {
                    Variable count = g.constant((includeSelf ? received.add(1.0) : received).clampMin(1.0));
                    gs = includeSelf ? g.div(count) : g.maskedFill(touched, 0.0);
                    gsrc = g.div(count).gather(dim, ix);
                    break;
                }
                default: {
                    Tensor result = n.savedTensor(3);
                    Tensor selfHit = includeSelf ? n.savedTensor(1).eq(result).to(g.dtype()) : Tensor.zerosLike(g.data);
                    Tensor srcHit = gatherRegion(n.savedTensor(2), ix).eq(result.gather(dim, ix)).to(g.dtype());
                    Tensor count = Tensor.zerosLike(g.data).scatterAdd(dim, ix, srcHit).add(selfHit);
                    Variable share = g.div(g.constant(count.clampMin(1.0)));
                    gs = Variable.where(g.constant(touched), share.mul(g.constant(selfHit)), g);
                    gsrc = share.gather(dim, ix).mul(g.constant(srcHit));
                }
            }
            return new Variable[] {n.needs(0) ? gs : null, n.needs(1) ? fitTo(gsrc, srcShape) : null};
        });
    }

    /** The part of {@code src} that the index covers (index may be smaller than src in every dim). */
    private static Tensor gatherRegion(Tensor src, Tensor ix) {
        Tensor r = src;
        for (int d = 0; d < ix.dim(); d++) {
            r = r.slice(d, 0, ix.size(d), 1);
        }
        return r;
    }

    static Variable indexSelect(Variable x, int dim, Tensor index) {
        Tensor y = x.data.indexSelect(dim, index);
        int[] shape = x.data.shape();
        return Op.of("index_select", y, x).save(index).backward((g, n) -> {
            Tensor ix = n.savedTensor(0);
            return new Variable[] {Op.linear("index_select_backward", Tensor.zeros(g.dtype(), shape).indexAddi(dim, ix, g.data), g,
                    gg -> gg.indexSelect(dim, ix))};
        });
    }

    static Variable indexAdd(Variable self, int dim, Tensor index, Variable source) {
        Tensor y = self.data.indexAdd(dim, index, source.data);
        return Op.of("index_add", y, self, source).save(index).backward((g, n) -> new Variable[] {
            g, n.needs(1) ? g.indexSelect(dim, n.savedTensor(0)) : null});
    }

    static Variable indexPut(Variable self, Index[] indices, Variable values, boolean accumulate) {
        Tensor y = self.data.indexPut(indices, values.data, accumulate);
        return Op.of("index_put", y, self, values).backward((g, n) -> new Variable[] {
            n.needs(0) ? (accumulate ? g : g.indexPut(indices, g.constant(Tensor.scalar(0.0, g.dtype())), false)) : null,
            n.needs(1) ? g.index(indices) : null});
    }

    static Variable cat(List<Variable> parts, int dim) {
        Tensor[] data = new Tensor[parts.size()];
        for (int i = 0; i < data.length; i++) {
            data[i] = parts.get(i).data;
        }
        Tensor y = Tensor.cat(Arrays.asList(data), dim);
        int d = Shape.wrapDim(dim, y.dim());
        int[][] shapes = new int[data.length][];
        for (int i = 0; i < data.length; i++) {
            shapes[i] = data[i].shape();
        }
        return Op.of("cat", y, parts.toArray(new Variable[0])).backward((g, n) -> {
            Variable[] out = new Variable[shapes.length];
            int at = 0;
            for (int i = 0; i < shapes.length; i++) {
                boolean skipped = shapes[i].length == 1 && shapes[i][0] == 0 && y.dim() != 1;
                if (skipped) {
                    out[i] = g.constant(Tensor.zeros(g.dtype(), 0));
                    continue;
                }
                int len = shapes[i][d];
                out[i] = n.needs(i) ? g.slice(d, at, at + len, 1) : null;
                at += len;
            }
            return out;
        });
    }

    static Variable stack(List<Variable> parts, int dim) {
        Tensor[] data = new Tensor[parts.size()];
        for (int i = 0; i < data.length; i++) {
            data[i] = parts.get(i).data;
        }
        Tensor y = Tensor.stack(Arrays.asList(data), dim);
        int d = Shape.wrapDim(dim, y.dim());
        return Op.of("stack", y, parts.toArray(new Variable[0])).backward((g, n) -> {
            Variable[] out = new Variable[data.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = n.needs(i) ? g.select(d, i) : null;
            }
            return out;
        });
    }
}
