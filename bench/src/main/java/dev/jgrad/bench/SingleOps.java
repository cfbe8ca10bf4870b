package dev.jgrad.bench;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.function.Supplier;

/**
 * Single ops beyond the workloads, for {@code ./jgrad bench --only S1}: what a user's own code calls besides a training
 * step's ops, each on a (768, 512) float32 x (y beside it, mask = x > 0; the permute on a (12, 4, 64, 32) tensor, as
 * attention's heads), each call in a scope. {@code bench/pytorch/workloads.py --ops} times the same under the same
 * keys ({@code S1.<op>.us}).
 */
@State(Scope.Benchmark)
public class SingleOps {
    @Param({"transpose_contiguous", "permute_contiguous", "cat_dim0", "flip_dim1", "clone", "to_float64", "gt", "where",
            "clamp", "softmax_dim0", "logsumexp_dim1", "logsumexp_dim0", "sum_dim0", "argmax_dim1", "prod_dim1", "nonzero",
            "masked_select", "log1p", "softplus", "floor", "isnan", "pow3", "pow0_5", "pow2", "sign", "amin", "masked_fill",
            "expand_contiguous", "gather", "softmax_backward", "sigmoid_backward", "sin", "cos", "expm1", "atan2", "round", "leaky_relu", "cumsum_dim1",
            "sort_dim1", "topk10"})
    public String op;
    Supplier<Tensor> call;

    @Setup
    public void setUp() {
        call = of(op);
    }

    /** The call named {@code name}, on inputs made here from fixed seeds. */
    static Supplier<Tensor> of(String name) {
        Generator g = new Generator(1);
        Tensor x = Tensor.randn(g, 768, 512);
        Tensor y = Tensor.randn(g, 768, 512);
        Tensor positive = x.abs();
        Tensor mask = x.gt(0.0);
        Tensor heads = Tensor.randn(g, 12, 4, 64, 32);
        Tensor index = Tensor.randint(g, 0, 512, 768, 8);
        switch (name) {
            case "transpose_contiguous": return () -> x.t().contiguous();
            case "permute_contiguous": return () -> heads.permute(0, 2, 1, 3).contiguous();
            case "cat_dim0": return () -> Tensor.cat(0, x, y);
            case "flip_dim1": return () -> x.flip(1);
            case "clone": return x::clone;
            case "to_float64": return () -> x.to(DType.FLOAT64);
            case "gt": return () -> x.gt(y);
            case "where": return () -> Tensor.where(mask, x, y);
            case "clamp": return () -> x.clamp(-1.0, 1.0);
            case "softmax_dim0": return () -> x.softmax(0);
            case "logsumexp_dim1": return () -> x.logsumexp(1, false);
            case "logsumexp_dim0": return () -> x.logsumexp(0, false);
            case "sum_dim0": return () -> x.sum(0, false);
            case "argmax_dim1": return () -> x.argmax(1, false);
            case "prod_dim1": return () -> x.prod(1, false);
            case "nonzero": return mask::nonzero;
            case "masked_select": return () -> x.maskedSelect(mask);
            case "log1p": return positive::log1p;
            case "softplus": return x::softplus;
            case "floor": return x::floor;
            case "isnan": return x::isnan;
            case "pow3": return () -> x.pow(3.0);
            case "pow0_5": return () -> positive.pow(0.5);
            case "pow2": return () -> x.pow(2.0);
            case "sign": return x::sign;
            case "amin": return x::amin;
            case "masked_fill": return () -> x.maskedFill(mask, 0.0);
            case "expand_contiguous": return () -> Tensor.scalar(1.0, DType.FLOAT32).expand(768, 512).contiguous();
            case "gather": return () -> x.gather(1, index);
            case "sin": return x::sin;
            case "cos": return x::cos;
            case "expm1": return x::expm1;
            case "atan2": return () -> x.atan2(y);
            case "round": return x::round;
            case "leaky_relu": return () -> x.leakyRelu(0.01);
            case "cumsum_dim1": return () -> x.cumsum(1);
            case "sort_dim1": return () -> x.sort(1, false).values();
            case "topk10": return () -> x.topk(10, 1, true).values();
            case "softmax_backward": {
                Tensor out = x.softmax(1);
                return () -> Tensor.softmaxBackward(y, out, 1);
            }
            case "sigmoid_backward": {
                Tensor out = x.sigmoid();
                return () -> Tensor.sigmoidBackward(y, out);
            }
            default: throw new IllegalArgumentException("no single op named '" + name + "'");
        }
    }
}
