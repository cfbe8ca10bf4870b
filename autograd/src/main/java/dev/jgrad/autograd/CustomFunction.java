package dev.jgrad.autograd;

import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A differentiable op defined outside this module, as {@code torch.autograd.Function}: the caller computes
 * the output from the inputs' data and gives the backward rule. Used by nn for fused ops (a numerically
 * stable loss, a fused convolution) and open to users.
 * <pre>{@code
 * Tensor out = x.data().sigmoid();
 * return CustomFunction.apply("sigmoid", out, new Variable[] {x}, new Tensor[] {out},
 *         (g, saved, needs) -> new Tensor[] {g.mul(saved[0].mul(saved[0].rsub(1)))},
 *         in -> in[0].sigmoid());
 * }</pre>
 * Saved tensors are version-checked and freed after backward, like those of built-in ops.
 *
 * <p>The rule works on tensors, so its result has no history. A backward with {@code createGraph} needs
 * one: there the op's {@code definition}, the same function written with differentiable ops, is run on
 * the inputs and differentiated instead (PyTorch's double backward of a fused op does the same with its
 * composite). Without a definition such a backward fails with an error that names the op: never a
 * silently detached second derivative.
 */
public final class CustomFunction {
    /** The backward rule: gradients for the inputs (null where {@code needs[i]} is false), in the output's shape or the input's. */
    @FunctionalInterface
    public interface Backward {
        /** The gradients of the inputs from the output's gradient and what the forward saved; null where {@code needs} says no. */
        Tensor[] apply(Tensor grad, Tensor[] saved, boolean[] needs);
    }

    private CustomFunction() {
    }

    /** An op whose backward cannot be differentiated again. */
    public static Variable apply(String name, Tensor output, Variable[] inputs, Tensor[] saved, Backward rule) {
        return apply(name, output, inputs, saved, rule, null);
    }

    /**
     * An op with a fast first-order {@code rule} and its {@code definition} in differentiable ops (the same
     * output from the same inputs), which a backward with {@code createGraph} differentiates.
     */
    public static Variable apply(String name, Tensor output, Variable[] inputs, Tensor[] saved, Backward rule,
                                 Function<Variable[], Variable> definition) {
        return apply(name, java.util.Map.of(), output, inputs, saved, rule, definition);
    }

    /**
     * As {@link #apply(String, Tensor, Variable[], Tensor[], Backward, Function)}, with the op's settings
     * ({@code attributes}: its kernel, stride, epsilon, a mask as a variable...), which a {@link Trace} records
     * for exporters. A trace whose exporter does not map {@code name} records the definition's ops as well.
     */
    public static Variable apply(String name, java.util.Map<String, Object> attributes, Tensor output, Variable[] inputs,
                                 Tensor[] saved, Backward rule, Function<Variable[], Variable> definition) {
        if (Trace.on()) {
            traced(name, attributes, output, inputs, definition);
        }
        Op op = Op.of(name, output, inputs);
        if (!op.recording()) {
            return op.backward(null);
        }
        for (Tensor t : saved) {
            op.save(t);
        }
        int count = saved.length;
        if (definition != null) {
            for (Variable v : inputs) {
                op.save(v);
            }
        }
        return op.backward((g, n) -> {
            boolean[] needs = new boolean[inputs.length];
            for (int i = 0; i < needs.length; i++) {
                needs[i] = n.needs(i);
            }
            if (GradMode.isEnabled()) {
                return differentiable(name, g, n, count, needs, definition);
            }
            Tensor[] s = new Tensor[count];
            for (int i = 0; i < count; i++) {
                s[i] = n.savedTensor(i);
            }
            Tensor[] grads = rule.apply(g.data, s, needs);
            if (grads.length != inputs.length) {
                throw new AutogradException("the backward of '" + name + "' returned " + grads.length + " gradients for "
                        + inputs.length + " inputs");
            }
            Variable[] out = new Variable[grads.length];
            for (int i = 0; i < grads.length; i++) {
                out[i] = grads[i] == null ? null : new Variable(grads[i]);
            }
            return out;
        });
    }

    /**
     * Records the op in the open trace: its definition first, when the trace's exporter does not map it (the
     * definition's value stands for the output: an alias), then the op itself with its attributes.
     */
    private static void traced(String name, java.util.Map<String, Object> attributes, Tensor output, Variable[] inputs,
                               Function<Variable[], Variable> definition) {
        if (definition != null && !Trace.mapped(name)) {
            try (NoGrad g = NoGrad.enter()) {
                Variable composite = definition.apply(inputs);
                Trace.record(new Variable(output), "alias", composite);
            }
        }
        Trace.custom(name, output, inputs, attributes);
    }

    /**
     * The gradients as a recorded pass needs them: the definition run on stand-ins for the inputs (each an
     * alias with a node of its own, so that each gradient is the partial derivative even where one input was
     * computed from another) and differentiated with createGraph.
     */
    private static Variable[] differentiable(String name, Variable g, Node n, int count, boolean[] needs,
                                             Function<Variable[], Variable> definition) {
        if (definition == null) {
            throw new AutogradException("the backward of '" + name + "' is a fused kernel and cannot be differentiated again"
                    + " (createGraph): '" + name + "' has no definition in differentiable ops; give CustomFunction.apply one");
        }
        Variable[] standIns = new Variable[needs.length];
        List<Variable> wanted = new ArrayList<>();
        for (int i = 0; i < needs.length; i++) {
            Variable in = n.saved(count + i);
            standIns[i] = needs[i] ? Op.of("alias", in.data, in).backward((gg, m) -> new Variable[] {gg}) : in.detach();
            if (needs[i]) {
                wanted.add(standIns[i]);
            }
        }
        Variable out = definition.apply(standIns);
        if (!out.requiresGrad()) {
            return new Variable[needs.length];
        }
        Variable[] grads = Engine.grad(new Variable[] {out}, new Variable[] {g}, wanted.toArray(new Variable[0]), true, true, true);
        Variable[] result = new Variable[needs.length];
        for (int i = 0, k = 0; i < needs.length; i++) {
            if (needs[i]) {
                result[i] = grads[k++];
            }
        }
        return result;
    }
}
