package dev.jgrad.nn;

import dev.jgrad.autograd.CustomFunction;
import dev.jgrad.autograd.Trace;
import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.internal.fused.FusedLayerNorm;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.TensorIndexException;

import java.util.Arrays;

/** The functional forms of the layers, as {@code torch.nn.functional}: composed of differentiable ops. */
public final class Functional {
    private Functional() {
    }

    /** {@code F.layer_norm}: normalise over the trailing {@code normalizedShape} dims; weight and bias may be null. */
    public static Variable layerNorm(Variable x, int[] normalizedShape, Variable weight, Variable bias, double eps) {
        int[] shape = x.shape();
        int k = normalizedShape.length;
        boolean fits = k <= shape.length && k > 0
                && Arrays.equals(Arrays.copyOfRange(shape, shape.length - k, shape.length), normalizedShape);
        if (!fits) {
            throw new dev.jgrad.tensor.ShapeException("Given normalized_shape=" + Shape.str(normalizedShape)
                    + ", expected input with shape [*, " + Shape.str(normalizedShape).substring(1) + ", but got input of size"
                    + Shape.str(shape));
        }
        int mark = Trace.mark();
        Variable y = k == 1 && allFloat32(x, weight, bias) && shape[shape.length - 1] > 0
                ? fusedLayerNorm(x, weight, bias, eps) : layerNormComposite(x, k, weight, bias, eps);
        return Trace.annotate(mark, y, "layer_norm", x, weight, bias, k, eps);
    }

    /** Layer norm over the last dim in float32 as one op ({@link FusedLayerNorm}); the composite is its definition. */
    private static Variable fusedLayerNorm(Variable x, Variable weight, Variable bias, double eps) {
        Tensor w = weight == null ? null : weight.data();
        Tensor b = bias == null ? null : bias.data();
        FusedLayerNorm.Forward f = FusedLayerNorm.forward(x.data(), w, b, eps);
        java.util.List<Variable> in = new java.util.ArrayList<>(java.util.List.of(x));
        if (weight != null) {
            in.add(weight);
        }
        if (bias != null) {
            in.add(bias);
        }
        boolean hasW = weight != null;
        boolean hasB = bias != null;
        Tensor[] keep = hasW ? new Tensor[] {x.data(), f.mean(), f.rstd(), w} : new Tensor[] {x.data(), f.mean(), f.rstd()};
        return CustomFunction.apply("layer_norm", f.output(), in.toArray(new Variable[0]), keep,
                (g, saved, needs) -> {
                    boolean[] want = {needs[0], hasW && needs[1], hasB && needs[needs.length - 1]};
                    FusedLayerNorm.Gradients d = FusedLayerNorm.backward(g, saved[0], hasW ? saved[3] : null,
                            new FusedLayerNorm.Forward(null, saved[1], saved[2]), want);
                    Tensor[] out = new Tensor[needs.length];
                    out[0] = d.input();
                    if (hasW) {
                        out[1] = d.weight();
                    }
                    if (hasB) {
                        out[needs.length - 1] = d.bias();
                    }
                    return out;
                },
                v -> layerNormComposite(v[0], 1, hasW ? v[1] : null, hasB ? v[v.length - 1] : null, eps));
    }

    /** Layer norm over the last {@code k} dims in differentiable ops: what other dtypes use, and the fused op's definition. */
    static Variable layerNormComposite(Variable x, int k, Variable weight, Variable bias, double eps) {
        int[] shape = x.shape();
        int[] dims = new int[k];
        for (int i = 0; i < k; i++) {
            dims[i] = shape.length - k + i;
        }
        Variable centred = x.sub(x.mean(dims, true));
        Variable var = centred.square().mean(dims, true);
        Variable y = centred.mul(var.add(eps).rsqrt());
        if (weight != null) {
            y = y.mul(weight);
        }
        if (bias != null) {
            y = y.add(bias);
        }
        return y;
    }

    /** {@code F.embedding}: rows of {@code weight} at int64 {@code indices}; the result has shape indices + [dim]. */
    public static Variable embedding(Tensor indices, Variable weight) {
        if (indices.dtype() != DType.INT64) {
            throw new dev.jgrad.tensor.DTypeException("embedding: expected int64 indices, got " + indices.dtype());
        }
        int rows = weight.size(0);
        for (long i : indices.toLongArray()) {
            if (i < 0 || i >= rows) {
                throw new TensorIndexException("index out of range in self: embedding index " + i + " but the table has "
                        + rows + " rows (valid 0.." + (rows - 1) + ")");
            }
        }
        int[] out = Arrays.copyOf(indices.shape(), indices.dim() + 1);
        out[indices.dim()] = weight.size(1);
        int mark = Trace.mark();
        Variable y = weight.indexSelect(0, indices.reshape(-1)).reshape(out);
        return Trace.annotate(mark, y, "embedding", indices, weight);
    }

    /** {@code F.dropout}: zeroes elements with probability p and scales the rest by 1/(1-p) in training; identity otherwise. */
    public static Variable dropout(Variable x, double p, boolean training, Generator gen) {
        checkDropoutProbability(p);
        if (!training || p == 0) {
            return x;
        }
        if (p == 1) {
            return x.mul(0.0);
        }
        Distributed.Group group = Distributed.current();
        if (group != null && group.size() > 1 && x.dim() > 0) {
            // Data-parallel: the mask of the whole batch, of which this worker's shard takes its rows, so every worker
            // drops what one process would, and every worker's generator moves alike.
            int[] whole = x.shape();
            whole[0] *= group.size();
            return x.mul(Variable.of(dropoutMask(whole, x.dtype(), p, gen).narrow(0, group.rank() * x.size(0), x.size(0))));
        }
        return x.mul(Variable.of(dropoutMask(x.shape(), x.dtype(), p, gen)));
    }

    /**
     * The kept elements' scale 1/(1-p) and zeros: {@code rand(shape).ge(p).to(dtype).mul(1/(1-p))}, one draw per element in
     * order. In float32 it is made in one pass, with the same draws, comparisons and products as that expression.
     */
    static Tensor dropoutMask(int[] shape, DType dtype, double p, Generator gen) {
        if (dtype != DType.FLOAT32) {
            return Tensor.rand(gen, shape).ge(p).to(dtype).mul(1.0 / (1.0 - p));
        }
        float[] mask = new float[Shape.numel(shape)];
        int n = mask.length;
        float threshold = (float) p;
        float scale = (float) (1.0 / (1.0 - p));
        for (int i = 0; i < n; i++) {
            mask[i] = (float) gen.nextDouble() >= threshold ? scale : 0f;
        }
        return Tensor.of(mask, shape);
    }

    /** Whether every given variable (nulls skipped) is float32: the fused ops' condition, beside their float64 definitions. */
    static boolean allFloat32(Variable... vs) {
        for (Variable v : vs) {
            if (v != null && v.dtype() != DType.FLOAT32) {
                return false;
            }
        }
        return true;
    }

    /** PyTorch's check of a dropout probability, shared by the layer (at construction) and the function. */
    static void checkDropoutProbability(double p) {
        if (p < 0 || p > 1) {
            throw new IllegalArgumentException("dropout probability has to be between 0 and 1, but got " + p);
        }
    }
}
