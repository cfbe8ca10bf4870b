package dev.jgrad.autograd;

import dev.jgrad.tensor.Tensor;

/**
 * A differentiable op defined outside this module, as {@code torch.autograd.Function}: the caller computes
 * the output from the inputs' data and gives the backward rule. Used by nn for fused ops (a numerically
 * stable loss, a fused normalisation) and open to users.
 * <pre>{@code
 * Tensor out = x.data().sigmoid();
 * return CustomFunction.apply("sigmoid", out, new Variable[] {x}, new Tensor[] {out},
 *         (g, saved, needs) -> new Tensor[] {g.mul(saved[0].mul(saved[0].rsub(1)))});
 * }</pre>
 * Saved tensors are version-checked and freed after backward, like those of built-in ops.
 */
public final class CustomFunction {
    /** The backward rule: gradients for the inputs (null where {@code needs[i]} is false), in the output's shape or the input's. */
    @FunctionalInterface
    public interface Backward {
        Tensor[] apply(Tensor grad, Tensor[] saved, boolean[] needs);
    }

    private CustomFunction() {
    }

    public static Variable apply(String name, Tensor output, Variable[] inputs, Tensor[] saved, Backward rule) {
        Op op = Op.of(name, output, inputs);
        if (!op.recording()) {
            return op.backward((g, n) -> null);
        }
        for (Tensor t : saved) {
            op.save(t);
        }
        int count = saved.length;
        return op.backward((g, n) -> {
            Tensor[] s = new Tensor[count];
            for (int i = 0; i < count; i++) {
                s[i] = n.saved(i);
            }
            boolean[] needs = new boolean[inputs.length];
            for (int i = 0; i < needs.length; i++) {
                needs[i] = n.needs(i);
            }
            Tensor[] grads = rule.apply(g, s, needs);
            if (grads.length != inputs.length) {
                throw new AutogradException("the backward of '" + name + "' returned " + grads.length + " gradients for "
                        + inputs.length + " inputs");
            }
            return grads;
        });
    }
}
