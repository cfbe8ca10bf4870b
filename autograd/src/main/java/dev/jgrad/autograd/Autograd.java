package dev.jgrad.autograd;

import java.util.List;

/**
 * {@code torch.autograd.grad}: the gradients of outputs with respect to chosen inputs, returned rather
 * than accumulated into {@code grad} (no leaf's {@code grad} changes).
 * <pre>{@code
 * Variable u = net.forward(x);                                            // x: (N, 1), requires grad
 * Variable ux = Autograd.grad(u.sum(), x, true);                          // du/dx, with a history
 * Variable uxx = Autograd.grad(ux.sum(), x, true);                        // d2u/dx2
 * Variable loss = uxx.add(f).square().mean();
 * loss.backward();                                                        // differentiates through both
 * }</pre>
 * With {@code createGraph} the backward pass is recorded, so what it returns can be differentiated again,
 * to any order; without it the gradients are constants. {@code retainGraph} (default: {@code createGraph},
 * as in PyTorch) keeps the graph's saved values for another pass.
 */
public final class Autograd {
    private Autograd() {
    }

    /**
     * The full form: {@code gradOutputs} (null, or null entries, for one-element outputs, whose gradient is
     * one) has one entry per output, of its shape. An input the outputs do not depend on is an error unless
     * {@code allowUnused}, when its entry is null, as PyTorch's None.
     */
    public static List<Variable> grad(List<Variable> outputs, List<Variable> inputs, List<Variable> gradOutputs,
                                      boolean createGraph, boolean retainGraph, boolean allowUnused) {
        if (gradOutputs != null && gradOutputs.size() != outputs.size()) {
            throw new IllegalArgumentException("grad: " + gradOutputs.size() + " gradOutputs for " + outputs.size()
                    + " outputs; give one per output (null for a one-element output)");
        }
        Variable[] grads = gradOutputs == null ? null : gradOutputs.toArray(new Variable[0]);
        return java.util.Arrays.asList(Engine.grad(outputs.toArray(new Variable[0]), grads, inputs.toArray(new Variable[0]),
                retainGraph, createGraph, allowUnused));
    }

    /** The gradients of one output with respect to {@code inputs}; {@code retainGraph} is {@code createGraph}. */
    public static List<Variable> grad(Variable output, List<Variable> inputs, Variable gradOutput, boolean createGraph) {
        return grad(List.of(output), inputs, java.util.Collections.singletonList(gradOutput), createGraph, createGraph, false);
    }

    /** The gradient of a one-element output with respect to one input. */
    public static Variable grad(Variable output, Variable input, boolean createGraph) {
        return grad(output, List.of(input), null, createGraph).get(0);
    }

    /** The gradient of a one-element output with respect to one input, as a constant. */
    public static Variable grad(Variable output, Variable input) {
        return grad(output, input, false);
    }
}
