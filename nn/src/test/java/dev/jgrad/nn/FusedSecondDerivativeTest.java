package dev.jgrad.nn;

import dev.jgrad.autograd.Autograd;
import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The fused float32 layers keep their fast first-order backward; under createGraph their backward is differentiated
 * through their definitions. Each is held to its float64 composite (which never takes the fused path) on a
 * second-order quantity: the gradient, with respect to every input, of the squared norm of the input gradients
 * (a gradient penalty, as WGAN-GP's). Every axis has a size of its own.
 */
class FusedSecondDerivativeTest {
    private static final Generator GEN = new Generator(11);

    private static Tensor randn(int... shape) {
        return Tensor.randn(GEN, shape);
    }

    /** d/dinputs of sum_i |d(sum(op * r))/dinput_i|^2, in {@code dtype}. */
    private static List<Tensor> penaltyGradients(Function<Variable[], Variable> op, Tensor[] inputs, Tensor r, DType dtype) {
        Variable[] vars = new Variable[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            vars[i] = Variable.of(inputs[i].to(dtype), true);
        }
        Variable out = op.apply(vars);
        List<Variable> gs = Autograd.grad(List.of(out.mul(Variable.of(r.to(dtype))).sum()), List.of(vars), null, true, true, true);
        Variable penalty = null;
        for (Variable g : gs) {
            if (g != null) {
                penalty = penalty == null ? g.square().sum() : penalty.add(g.square().sum());
            }
        }
        List<Variable> second = Autograd.grad(List.of(penalty), List.of(vars), null, false, false, true);
        List<Tensor> result = new ArrayList<>();
        for (int i = 0; i < vars.length; i++) {
            result.add(second.get(i) == null ? Tensor.zeros(DType.FLOAT64, inputs[i].shape()) : second.get(i).data().to(DType.FLOAT64));
        }
        return result;
    }

    private static void fusedMatchesComposite(String name, Function<Variable[], Variable> op, Tensor... inputs) {
        Variable[] probe = Arrays.stream(inputs).map(Variable::of).toArray(Variable[]::new);
        Tensor r = randn(op.apply(probe).shape());
        List<Tensor> fused = penaltyGradients(op, inputs, r, DType.FLOAT32);
        List<Tensor> composite = penaltyGradients(op, inputs, r, DType.FLOAT64);
        for (int i = 0; i < inputs.length; i++) {
            double[] f = fused.get(i).toDoubleArray();
            double[] c = composite.get(i).toDoubleArray();
            assertArrayEquals(composite.get(i).shape(), fused.get(i).shape());
            double scale = 0;
            for (double v : c) {
                scale = Math.max(scale, Math.abs(v));
            }
            for (int k = 0; k < f.length; k++) {
                assertEquals(c[k], f[k], 1e-3 * scale + 1e-4, name + ": input " + i + ", element " + k);
            }
        }
    }

    @Test
    void conv2d() {
        fusedMatchesComposite("conv2d", v -> Convolution.conv2d(v[0], v[1], v[2], new int[] {1, 2}, new int[] {1, 0},
                new int[] {1, 1}, 1).tanh(), randn(2, 3, 7, 6), randn(4, 3, 3, 2), randn(4));
    }

    @Test
    void maxPool2d() {
        fusedMatchesComposite("max_pool2d", v -> Pooling.maxPool2d(v[0].mul(v[0]), new int[] {2, 2}, null, new int[] {0, 0},
                new int[] {1, 1}, false), randn(2, 3, 6, 8));
        fusedMatchesComposite("max_pool2d 3x2", v -> Pooling.maxPool2d(v[0].mul(v[0]), new int[] {3, 2}, new int[] {2, 1},
                new int[] {1, 0}, new int[] {1, 1}, false), randn(2, 3, 7, 5));
    }

    @Test
    void causalAttention() {
        fusedMatchesComposite("attention", v -> Attention.scaledDotProduct(v[0], v[1], v[2], null, true, Double.NaN),
                randn(2, 5, 4), randn(2, 5, 4), randn(2, 5, 3));
    }

    @Test
    void lstm() {
        fusedMatchesComposite("lstm", v -> Recurrent.lstm(v[0], v[1], v[2], v[3], v[4], v[5], v[6]).output(),
                randn(2, 4, 3), randn(2, 5), randn(2, 5), randn(20, 3).mul(0.5), randn(20, 5).mul(0.5), randn(20), randn(20));
    }

    @Test
    void bceWithLogits() {
        Tensor target = Tensor.rand(GEN, 3, 4);
        fusedMatchesComposite("bce_with_logits", v -> Losses.bceWithLogits(v[0], Variable.of(target.to(v[0].dtype())),
                Reduction.NONE), randn(3, 4));
    }

    @Test
    void layerNorm() {
        fusedMatchesComposite("layer_norm", v -> Functional.layerNorm(v[0], new int[] {6}, v[1], v[2], 1e-5).tanh(),
                randn(3, 4, 6), randn(6), randn(6));
        fusedMatchesComposite("layer_norm without bias", v -> Functional.layerNorm(v[0], new int[] {6}, v[1], null, 1e-5).tanh(),
                randn(5, 6), randn(6));
    }
}
