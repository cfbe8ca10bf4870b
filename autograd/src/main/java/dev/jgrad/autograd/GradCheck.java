package dev.jgrad.autograd;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;

import java.util.function.Function;

/**
 * Checks analytic gradients against central differences in float64, as {@code torch.autograd.gradcheck}.
 *
 * <p>The function's output is contracted with a fixed random tensor {@code u} of its shape, so one
 * backward gives the vector-Jacobian product {@code u^T J} for every input element, and two forward
 * passes per element give its numerical counterpart {@code (L(x + eps) - L(x - eps)) / 2 eps}.
 * The worst element is reported with its input, index and both values.
 * <pre>{@code
 * GradCheck.Result r = GradCheck.check(v -> v[0].mul(v[1]).sum(), a, b);
 * assertTrue(r.passed(), r.toString());
 * }</pre>
 */
public final class GradCheck {
    /** The step of the central differences. */
    public static final double EPS = 1e-6;
    /** The absolute tolerance of a comparison (PyTorch's gradcheck default). */
    public static final double ATOL = 1e-5;
    /** The relative tolerance of a comparison. */
    public static final double RTOL = 1e-3;

    private GradCheck() {
    }

    /** The outcome, with the element whose analytic and numerical gradients disagree most. */
    public record Result(boolean passed, int input, int[] index, double analytic, double numeric, double excess) {
        @Override
        public String toString() {
            if (input < 0) {
                return "gradcheck passed (no differentiable elements)";
            }
            return (passed ? "gradcheck passed" : "gradcheck FAILED") + "; worst element: input " + input + " at index "
                    + Shape.str(index) + ": analytic " + analytic + " vs numerical " + numeric
                    + (passed ? "" : " (off by " + Math.abs(analytic - numeric) + ", allowed " + (ATOL + RTOL * Math.abs(numeric)) + ")");
        }
    }

    /** Checks {@code fn} at {@code inputs} (converted to float64); every input is differentiated. */
    public static Result check(Function<Variable[], Variable> fn, Tensor... inputs) {
        return check(fn, new Generator(1234), inputs);
    }

    /** Compares the gradients backward gives of {@code fn} at {@code inputs} (float64) with central differences, projecting the output on a random direction from {@code gen}. */
    public static Result check(Function<Variable[], Variable> fn, Generator gen, Tensor... inputs) {
        return check(fn, gen, ATOL, RTOL, inputs);
    }

    /**
     * Checks {@code fn} at {@code inputs} with the tolerances given: an element passes where
     * {@code |analytic - numeric| <= atol + rtol * |numeric|}.
     */
    public static Result check(Function<Variable[], Variable> fn, Generator gen, double atol, double rtol, Tensor... inputs) {
        Tensor[] data = new Tensor[inputs.length];
        Variable[] vars = new Variable[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            data[i] = inputs[i].to(DType.FLOAT64).clone();
            vars[i] = Variable.of(data[i], true);
        }
        Variable out = fn.apply(vars);
        Tensor u = Tensor.randn(gen, out.shape()).to(DType.FLOAT64);
        Variable loss = out.mul(Variable.of(u)).sum();
        if (loss.requiresGrad()) {
            // (A function that is constant in its inputs, as the derivative of floor, has zero gradients.)
            loss.backward();
        }
        Tensor[] analytic = new Tensor[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            analytic[i] = vars[i].grad() == null ? Tensor.zerosLike(data[i]) : vars[i].grad();
        }
        int worstInput = -1;
        int[] worstIndex = new int[0];
        double worstA = 0;
        double worstN = 0;
        double worstExcess = Double.NEGATIVE_INFINITY;
        try (NoGrad g = NoGrad.enter()) {
            for (int i = 0; i < inputs.length; i++) {
                int[] shape = data[i].shape();
                int n = data[i].numel();
                for (int flat = 0; flat < n; flat++) {
                    int[] idx = Shape.unravel(flat, shape);
                    double orig = data[i].getDouble(idx);
                    data[i].set(orig + EPS, idx);
                    double plus = contract(fn, vars, u);
                    data[i].set(orig - EPS, idx);
                    double minus = contract(fn, vars, u);
                    data[i].set(orig, idx);
                    double numeric = (plus - minus) / (2 * EPS);
                    double a = analytic[i].getDouble(idx);
                    double excess = Math.abs(a - numeric) - (atol + rtol * Math.abs(numeric));
                    if (Double.isNaN(excess)) {
                        excess = Double.isNaN(a) && Double.isNaN(numeric) ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
                    }
                    if (excess > worstExcess) {
                        worstExcess = excess;
                        worstInput = i;
                        worstIndex = idx;
                        worstA = a;
                        worstN = numeric;
                    }
                }
            }
        }
        return new Result(worstExcess <= 0, worstInput, worstIndex, worstA, worstN, worstExcess);
    }

    /**
     * Checks the second derivatives of {@code fn} at {@code inputs}, as {@code torch.autograd.gradgradcheck}:
     * the gradients of {@code fn} (taken with {@code createGraph}, for a random upstream gradient {@code v} that
     * is itself an input) are a function of the inputs and {@code v}, whose own gradients are checked against
     * central differences in float64 by {@link #check}. An input the gradients do not depend on gets zeros.
     */
    public static Result gradgradcheck(Function<Variable[], Variable> fn, Generator gen, double atol, double rtol, Tensor... inputs) {
        Variable[] probe = new Variable[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            probe[i] = Variable.of(inputs[i].to(DType.FLOAT64), true);
        }
        int[] outShape = fn.apply(probe).shape();
        Tensor[] all = java.util.Arrays.copyOf(inputs, inputs.length + 1);
        all[inputs.length] = Tensor.randn(gen, outShape).to(DType.FLOAT64);
        int n = inputs.length;
        Function<Variable[], Variable> gradients = vars -> {
            try (EnableGrad e = EnableGrad.enter()) {
                Variable[] xs = java.util.Arrays.copyOf(vars, n);
                Variable out = fn.apply(xs);
                java.util.List<Variable> parts = new java.util.ArrayList<>();
                if (!out.requiresGrad()) {
                    return Variable.of(Tensor.zeros(DType.FLOAT64, 0));
                }
                java.util.List<Variable> gs = Autograd.grad(java.util.List.of(out), java.util.List.of(xs),
                        java.util.List.of(vars[n]), true, true, true);
                for (int i = 0; i < n; i++) {
                    Variable g = gs.get(i) != null ? gs.get(i) : Variable.of(Tensor.zerosLike(xs[i].data()));
                    parts.add(g.reshape(-1));
                }
                return Variable.cat(parts, 0);
            }
        };
        return check(gradients, gen, atol, rtol, all);
    }

    /** Compares the second derivatives of {@code fn} (the gradient of its gradient, through createGraph) with central differences of its gradient. */
    public static Result gradgradcheck(Function<Variable[], Variable> fn, Tensor... inputs) {
        return gradgradcheck(fn, new Generator(1234), ATOL, RTOL, inputs);
    }

    private static double contract(Function<Variable[], Variable> fn, Variable[] vars, Tensor u) {
        return fn.apply(vars).data().mul(u).sum().item();
    }
}
