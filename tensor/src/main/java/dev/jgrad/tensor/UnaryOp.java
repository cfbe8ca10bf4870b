package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.MathFns;
import java.util.function.DoubleUnaryOperator;

/**
 * The elementwise functions of one tensor, each declared once: its name, the types it takes and its
 * scalar definition (what the generic kernels compute; the float32 kernels have faster loops for the
 * common ones). Their derivatives are autograd's (its {@code Derivatives}, PyTorch's
 * {@code derivatives.yaml}): this module knows nothing of gradients.
 */
public enum UnaryOp {
    /** {@code -x}. */
    NEG("neg", Domain.ANY, x -> -x),
    /** {@code |x|}. */
    ABS("abs", Domain.ANY, Math::abs),
    /** The sign: -1, 0 or 1. */
    SIGN("sign", Domain.ANY, Math::signum),
    /** {@code e^x}. */
    EXP("exp", Domain.FLOAT, Math::exp),
    /** The natural logarithm. */
    LOG("log", Domain.FLOAT, Math::log),
    /** {@code log(1 + x)}. */
    LOG1P("log1p", Domain.FLOAT, Math::log1p),
    /** {@code sqrt(x)}. */
    SQRT("sqrt", Domain.FLOAT, Math::sqrt),
    /** {@code 1 / sqrt(x)}. */
    RSQRT("rsqrt", Domain.FLOAT, x -> 1.0 / Math.sqrt(x)),
    /** {@code sin(x)}. */
    SIN("sin", Domain.FLOAT, Math::sin),
    /** {@code cos(x)}. */
    COS("cos", Domain.FLOAT, Math::cos),
    /** {@code atan(x)}, in (-pi/2, pi/2). */
    ATAN("atan", Domain.FLOAT, Math::atan),
    /** {@code tanh(x)}. */
    TANH("tanh", Domain.FLOAT, MathFns::tanh),
    /** {@code 1 / (1 + e^-x)}. */
    SIGMOID("sigmoid", Domain.FLOAT, MathFns::sigmoid),
    /** NaN stays NaN; the gradient is 0 where the output is 0, as PyTorch's {@code threshold_backward}. */
    RELU("relu", Domain.ANY, x -> x > 0 ? x : (Double.isNaN(x) ? x : 0.0)),
    /** {@code x * sigmoid(x)}. */
    SILU("silu", Domain.FLOAT, x -> x * MathFns.sigmoid(x)),
    /** The exact GELU, {@code x * Phi(x)}: its derivative is {@code Phi(x) + x * phi(x)}. */
    GELU("gelu", Domain.FLOAT, MathFns::gelu),
    /** GELU with PyTorch's tanh approximation ({@code approximate="tanh"}). */
    GELU_TANH("gelu", Domain.FLOAT, MathFns::geluTanh),
    /** {@code x * x}. */
    SQUARE("square", Domain.ANY, x -> x * x),
    /** {@code 1 / x}. */
    RECIPROCAL("reciprocal", Domain.FLOAT, x -> 1.0 / x),
    /** The error function. */
    ERF("erf", Domain.FLOAT, MathFns::erf),
    /** {@code F.softplus} with beta 1 and threshold 20: {@code log(1 + e^x)}, and x itself above 20. */
    SOFTPLUS("softplus", Domain.FLOAT, x -> x > 20 ? x : Math.log1p(Math.exp(x))),
    /** {@code floor(x)}. */
    FLOOR("floor", Domain.ANY, Math::floor),
    /** {@code round(x)}: to the nearest integer, halves to the even one, as {@code torch.round}. */
    ROUND("round", Domain.ANY, Math::rint),
    /** {@code e^x - 1}, accurate near 0 where {@code exp(x) - 1} loses every digit. */
    EXPM1("expm1", Domain.FLOAT, Math::expm1),
    /** Whether x is zero. */
    LOGICAL_NOT("logical_not", Domain.PREDICATE, x -> x == 0.0 ? 1.0 : 0.0),
    /** Whether x is NaN. */
    ISNAN("isnan", Domain.PREDICATE, x -> Double.isNaN(x) ? 1.0 : 0.0);

    /** The types an op takes and gives. */
    enum Domain {
        /** Any input type; the result has the input's type (bool computes as int64). */
        ANY,
        /** Integer and bool inputs become float32 first, as in PyTorch ({@code exp} of an int tensor is float). */
        FLOAT,
        /** A bool result whatever the input. */
        PREDICATE
    }

    final String pyName;
    final Domain domain;
    private final DoubleUnaryOperator fn;

    UnaryOp(String pyName, Domain domain, DoubleUnaryOperator fn) {
        this.pyName = pyName;
        this.domain = domain;
        this.fn = fn;
    }

    /** The op's value at {@code x} in double. */
    public double apply(double x) {
        return fn.applyAsDouble(x);
    }

    /** The name PyTorch gives the op, as errors and anomaly reports show it. */
    public String pyName() {
        return pyName;
    }

    /** False for ops with bool results, which no gradient flows through. */
    public boolean differentiable() {
        return domain != Domain.PREDICATE;
    }
}
