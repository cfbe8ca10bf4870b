package dev.jgrad.autograd;

import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

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
 *
 * <p>The helpers of {@code torch.autograd.functional} take a function of tensors and the point at which to
 * differentiate it, and return tensors: {@link #vjp}, {@link #jvp}, {@link #hvp}, {@link #jacobian},
 * {@link #hessian}.
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

    /** A function's value at the point, and one of its derivatives there (one tensor per input, or one in all). */
    public record Derivative(Tensor value, List<Tensor> derivatives) {
    }

    /**
     * The vector-Jacobian product {@code v^T J} of {@code fn} at {@code inputs}: one backward pass, as
     * {@code torch.autograd.functional.vjp}. {@code v} has the output's shape (null for a one-element output).
     */
    public static Derivative vjp(Function<Variable[], Variable> fn, Tensor[] inputs, Tensor v) {
        Variable[] xs = leaves(inputs);
        Variable out = fn.apply(xs);
        checkShape("vjp", "v", v, out);
        List<Variable> g = grad(List.of(out), List.of(xs), java.util.Collections.singletonList(v == null ? null : Variable.of(v)),
                false, false, true);
        return new Derivative(out.data(), values(g, xs));
    }

    /**
     * The Jacobian-vector product {@code J v} of {@code fn} at {@code inputs} ({@code v}: one tensor per input, of its
     * shape), as {@code torch.autograd.functional.jvp}, by the double-backward trick: the vjp with a dummy {@code u} is
     * linear in {@code u}, and its vjp with {@code v} is {@code J v}.
     */
    public static Derivative jvp(Function<Variable[], Variable> fn, Tensor[] inputs, Tensor[] v) {
        Variable[] xs = leaves(inputs);
        checkTangents("jvp", inputs, v);
        Variable out = fn.apply(xs);
        Variable u = Variable.of(Tensor.zerosLike(out.data()), true);
        List<Variable> g = grad(List.of(out), List.of(xs), List.of(u), true, true, true);
        Connected c = connected(g, v);
        if (c.grads().isEmpty()) {
            return new Derivative(out.data(), List.of(Tensor.zerosLike(out.data())));
        }
        Variable jv = grad(c.grads(), List.of(u), c.tangents(), false, false, true).get(0);
        return new Derivative(out.data(), List.of(jv == null ? Tensor.zerosLike(out.data()) : jv.data()));
    }

    /**
     * The Hessian-vector product {@code H v} of a one-element {@code fn} at {@code inputs} ({@code v}: one tensor per
     * input), as {@code torch.autograd.functional.vhp}/{@code hvp} (the Hessian is symmetric): the gradient taken
     * with createGraph, then its vjp with {@code v}. Two backward passes; the Hessian itself is never formed.
     */
    public static Derivative hvp(Function<Variable[], Variable> fn, Tensor[] inputs, Tensor[] v) {
        Variable[] xs = leaves(inputs);
        checkTangents("hvp", inputs, v);
        Variable out = fn.apply(xs);
        checkShape("hvp", "the output", null, out);
        List<Variable> g = grad(List.of(out), List.of(xs), null, true, true, true);
        Connected c = connected(g, v);
        if (c.grads().isEmpty()) {
            return new Derivative(out.data(), values(Arrays.asList(new Variable[xs.length]), xs));
        }
        return new Derivative(out.data(), values(grad(c.grads(), List.of(xs), c.tangents(), false, false, true), xs));
    }

    /**
     * The Jacobian of {@code fn} at {@code input}: shape {@code out.shape + input.shape}, one backward pass per output
     * element (the graph is kept between them), as {@code torch.autograd.functional.jacobian}.
     */
    public static Tensor jacobian(Function<Variable, Variable> fn, Tensor input) {
        Variable x = Variable.of(input, true);
        Variable out = fn.apply(x);
        return jacobianOf(out, x, input.shape());
    }

    /**
     * The Hessian of a one-element {@code fn} at {@code input}: shape {@code input.shape + input.shape}, the Jacobian of
     * its gradient (taken with createGraph), as {@code torch.autograd.functional.hessian}.
     */
    public static Tensor hessian(Function<Variable, Variable> fn, Tensor input) {
        Variable x = Variable.of(input, true);
        Variable out = fn.apply(x);
        checkShape("hessian", "the output", null, out);
        if (!out.requiresGrad()) {
            return Tensor.zeros(input.dtype(), concat(input.shape(), input.shape()));
        }
        Variable g = grad(List.of(out), List.of(x), null, true, true, true).get(0);
        return jacobianOf(g == null ? Variable.of(Tensor.zerosLike(input)) : g, x, input.shape());
    }

    private static Tensor jacobianOf(Variable out, Variable x, int[] inShape) {
        int m = out.numel();
        int n = x.numel();
        Tensor jac = Tensor.zeros(x.dtype(), m, n);
        if (out.requiresGrad()) {
            for (int i = 0; i < m; i++) {
                Tensor e = Tensor.zeros(out.dtype(), m);
                e.set(1.0, i);
                Variable row = grad(List.of(out), List.of(x), List.of(Variable.of(e.reshape(out.shape()))), false, true, true).get(0);
                if (row != null) {
                    jac.select(0, i).copyFrom(row.data().reshape(n).to(x.dtype()));
                }
            }
        }
        return jac.reshape(concat(out.shape(), inShape));
    }

    /** The first-order gradients that depend on the inputs (the others are constants), each beside its input's tangent. */
    private record Connected(List<Variable> grads, List<Variable> tangents) {
    }

    /** The entries of {@code g} that are part of a graph, and the tangents {@code v} of their inputs in their dtypes. */
    private static Connected connected(List<Variable> g, Tensor[] v) {
        List<Variable> grads = new ArrayList<>();
        List<Variable> tangents = new ArrayList<>();
        for (int i = 0; i < g.size(); i++) {
            if (g.get(i) != null && g.get(i).requiresGrad()) {
                grads.add(g.get(i));
                tangents.add(Variable.of(v[i].to(g.get(i).dtype())));
            }
        }
        return new Connected(grads, tangents);
    }

    private static Variable[] leaves(Tensor[] inputs) {
        Variable[] xs = new Variable[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            xs[i] = Variable.of(inputs[i], true);
        }
        return xs;
    }

    /** The gradients as tensors, zeros for an input the output does not depend on. */
    private static List<Tensor> values(List<Variable> g, Variable[] xs) {
        List<Tensor> r = new ArrayList<>(xs.length);
        for (int i = 0; i < xs.length; i++) {
            r.add(g.get(i) == null ? Tensor.zerosLike(xs[i].data()) : g.get(i).data());
        }
        return r;
    }

    private static void checkShape(String op, String what, Tensor v, Variable out) {
        if (v == null ? out.numel() != 1 : !Arrays.equals(v.shape(), out.shape())) {
            throw new dev.jgrad.tensor.ShapeException(op + ": " + (v == null
                    ? what + " must have one element, got shape " + Shape.str(out.shape())
                    : "v has shape " + Shape.str(v.shape()) + " but the output has shape " + Shape.str(out.shape())));
        }
    }

    private static void checkTangents(String op, Tensor[] inputs, Tensor[] v) {
        if (v.length != inputs.length) {
            throw new IllegalArgumentException(op + ": " + v.length + " tangents for " + inputs.length + " inputs; give one per input");
        }
        for (int i = 0; i < v.length; i++) {
            if (!Arrays.equals(v[i].shape(), inputs[i].shape())) {
                throw new dev.jgrad.tensor.ShapeException(op + ": v[" + i + "] has shape " + Shape.str(v[i].shape()) + " but input "
                        + i + " has shape " + Shape.str(inputs[i].shape()));
            }
        }
    }

    private static int[] concat(int[] a, int[] b) {
        int[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
