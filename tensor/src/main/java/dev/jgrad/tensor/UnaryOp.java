package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.MathFns;
import java.util.function.DoubleUnaryOperator;

/**
 * The elementwise functions of one tensor, each declared once: its name, the types it takes, its scalar
 * definition (what the generic kernels compute; the float32 kernels have faster loops for the common
 * ones) and its derivative, PyTorch's {@code derivatives.yaml} in Java: {@code EXP: grad * result}.
 *
 * <p>A derivative maps the gradient of the output {@code g}, the input {@code x} and the output
 * {@code y} to the gradient of the input; it only sees the tensors it declares in {@link Saves}. Autograd
 * records these ops generically, so adding a function here (and its method in {@link PointwiseMethods})
 * is all a new differentiable unary op takes.
 */
public enum UnaryOp {
    NEG("neg", Domain.ANY, x -> -x, Saves.NOTHING, (g, x, y) -> g.neg()),
    ABS("abs", Domain.ANY, Math::abs, Saves.INPUT, (g, x, y) -> g.mul(x.sign())),
    SIGN("sign", Domain.ANY, Math::signum, Saves.NOTHING, (g, x, y) -> Tensor.zerosLike(g)),
    EXP("exp", Domain.FLOAT, Math::exp, Saves.OUTPUT, (g, x, y) -> g.mul(y)),
    LOG("log", Domain.FLOAT, Math::log, Saves.INPUT, (g, x, y) -> g.div(x)),
    LOG1P("log1p", Domain.FLOAT, Math::log1p, Saves.INPUT, (g, x, y) -> g.div(x.add(1.0))),
    SQRT("sqrt", Domain.FLOAT, Math::sqrt, Saves.OUTPUT, (g, x, y) -> g.div(y.mul(2.0))),
    RSQRT("rsqrt", Domain.FLOAT, x -> 1.0 / Math.sqrt(x), Saves.OUTPUT, (g, x, y) -> g.mul(y.pow(3.0)).mul(-0.5)),
    SIN("sin", Domain.FLOAT, Math::sin, Saves.INPUT, (g, x, y) -> g.mul(x.cos())),
    COS("cos", Domain.FLOAT, Math::cos, Saves.INPUT, (g, x, y) -> g.mul(x.sin().neg())),
    TANH("tanh", Domain.FLOAT, Math::tanh, Saves.OUTPUT, (g, x, y) -> g.mul(y.square().rsub(1.0))),
    SIGMOID("sigmoid", Domain.FLOAT, MathFns::sigmoid, Saves.OUTPUT, (g, x, y) -> g.mul(y.mul(y.rsub(1.0)))),
    /** NaN stays NaN; the gradient is 0 where the output is 0, as PyTorch's {@code threshold_backward}. */
    RELU("relu", Domain.ANY, x -> x > 0 ? x : (Double.isNaN(x) ? x : 0.0), Saves.OUTPUT,
            (g, x, y) -> Elementwise.reluBackward(g, y)),
    SILU("silu", Domain.FLOAT, x -> x * MathFns.sigmoid(x), Saves.INPUT, (g, x, y) -> {
        Tensor s = x.sigmoid();
        return g.mul(s.mul(x.mul(s.rsub(1.0)).add(1.0)));
    }),
    /** The exact GELU, {@code x * Phi(x)}: its derivative is {@code Phi(x) + x * phi(x)}. */
    GELU("gelu", Domain.FLOAT, MathFns::gelu, Saves.INPUT, (g, x, y) -> {
        Tensor cdf = x.mul(MathFns.INV_SQRT_2).erf().add(1.0).mul(0.5);
        Tensor pdf = x.square().mul(-0.5).exp().mul(MathFns.INV_SQRT_2PI);
        return g.mul(cdf.add(x.mul(pdf)));
    }),
    /** GELU with PyTorch's tanh approximation ({@code approximate="tanh"}). */
    GELU_TANH("gelu", Domain.FLOAT, MathFns::geluTanh, Saves.INPUT, (g, x, y) -> {
        Tensor x2 = x.square();
        Tensor t = x.add(x2.mul(x).mul(MathFns.GELU_KAPPA)).mul(MathFns.SQRT_2_OVER_PI).tanh();
        Tensor left = t.add(1.0).mul(0.5);
        Tensor right = x.mul(0.5).mul(t.square().rsub(1.0)).mul(x2.mul(3 * MathFns.GELU_KAPPA).add(1.0))
                .mul(MathFns.SQRT_2_OVER_PI);
        return g.mul(left.add(right));
    }),
    SQUARE("square", Domain.ANY, x -> x * x, Saves.INPUT, (g, x, y) -> g.mul(x.mul(2.0))),
    RECIPROCAL("reciprocal", Domain.FLOAT, x -> 1.0 / x, Saves.OUTPUT, (g, x, y) -> g.mul(y.square()).neg()),
    ERF("erf", Domain.FLOAT, MathFns::erf, Saves.INPUT,
            (g, x, y) -> g.mul(x.square().neg().exp().mul(MathFns.TWO_OVER_SQRT_PI))),
    /** {@code F.softplus} with beta 1 and threshold 20: {@code log(1 + e^x)}, and x itself above 20. */
    SOFTPLUS("softplus", Domain.FLOAT, x -> x > 20 ? x : Math.log1p(Math.exp(x)), Saves.INPUT,
            (g, x, y) -> Tensor.where(x.gt(20.0), g, g.mul(x.sigmoid()))),
    FLOOR("floor", Domain.ANY, Math::floor, Saves.NOTHING, (g, x, y) -> Tensor.zerosLike(g)),
    LOGICAL_NOT("logical_not", Domain.PREDICATE, x -> x == 0.0 ? 1.0 : 0.0, Saves.NOTHING, null),
    ISNAN("isnan", Domain.PREDICATE, x -> Double.isNaN(x) ? 1.0 : 0.0, Saves.NOTHING, null);

    /** The types an op takes and gives. */
    enum Domain {
        /** Any input type; the result has the input's type (bool computes as int64). */
        ANY,
        /** Integer and bool inputs become float32 first, as in PyTorch ({@code exp} of an int tensor is float). */
        FLOAT,
        /** A bool result whatever the input. */
        PREDICATE
    }

    /** The tensors a derivative reads; backward keeps only these alive. */
    public enum Saves { NOTHING, INPUT, OUTPUT }

    /** The gradient of the input from the gradient of the output {@code g}, the input {@code x} and the output {@code y}. */
    @FunctionalInterface
    public interface Derivative {
        Tensor of(Tensor g, Tensor x, Tensor y);
    }

    final String pyName;
    final Domain domain;
    private final DoubleUnaryOperator fn;
    private final Saves saves;
    private final Derivative derivative;

    UnaryOp(String pyName, Domain domain, DoubleUnaryOperator fn, Saves saves, Derivative derivative) {
        this.pyName = pyName;
        this.domain = domain;
        this.fn = fn;
        this.saves = saves;
        this.derivative = derivative;
    }

    public double apply(double x) {
        return fn.applyAsDouble(x);
    }

    /** The name PyTorch gives the op, as errors and anomaly reports show it. */
    public String pyName() {
        return pyName;
    }

    /** False for ops with bool results, which no gradient flows through. */
    public boolean differentiable() {
        return derivative != null;
    }

    /** What the derivative reads besides the incoming gradient. */
    public Saves saves() {
        return saves;
    }

    /** The input's gradient; {@code x} or {@code y} may be null where {@link #saves()} does not name it. */
    public Tensor derivative(Tensor g, Tensor x, Tensor y) {
        if (derivative == null) {
            throw new UnsupportedOperationException(pyName + " has a bool result and no derivative");
        }
        return derivative.of(g, x, y);
    }
}
