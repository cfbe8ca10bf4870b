package dev.jgrad.tensor;

/**
 * Elementwise ops. Primitives: {@link #unary}, {@link #binary}, {@link #clamp}, {@link #where(ArrayOps, ArrayOps)},
 * {@link #maskedFill} and {@link #to}; every named function, scalar form and reversed form below is
 * written once on top of them. Binary ops broadcast as NumPy and PyTorch do; a Java number beside a
 * value is a 0-d constant of a type that keeps the value's type ({@link #newScalar}).
 *
 * @param <T> the implementing type itself
 */
public interface PointwiseMethods<T extends ArrayOps<T>> extends ArrayCore<T> {
    /** {@code op(this)} elementwise. */
    T unary(UnaryOp op);

    /** {@code op(this, other)} elementwise, broadcasting both. */
    T binary(BinaryOp op, T other);

    /** {@code torch.clamp(x, min, max)}; pass NaN for a bound that is absent. The gradient passes where min &lt;= x &lt;= max. */
    T clamp(double min, double max);

    /** {@code torch.where(cond, this, other)}: this where the bool {@code cond} is true, {@code other} elsewhere; all three broadcast. */
    T where(T cond, T other);

    /** {@code x.masked_fill(mask, value)}: {@code value} where the bool mask (broadcast to this shape) is true. */
    T maskedFill(Tensor mask, double value);

    /** This value in another element type; itself where the type already matches. */
    T to(DType dtype);

    // ---------------------------------------------------------------- binary

    /** {@code x + other}, broadcast. */
    default T add(T other) {
        return binary(BinaryOp.ADD, other);
    }

    /** {@code this + alpha * other}, as {@code torch.add(input, other, alpha=alpha)}. */
    default T add(T other, double alpha) {
        return alpha == 1.0 ? add(other) : add(other.mul(alpha));
    }

    /** {@code x + s}. */
    default T add(double s) {
        return add(newScalar(s));
    }

    /** {@code x - other}, broadcast. */
    default T sub(T other) {
        return binary(BinaryOp.SUB, other);
    }

    /** {@code x - s}. */
    default T sub(double s) {
        return sub(newScalar(s));
    }

    /** {@code s - this}. */
    default T rsub(double s) {
        return newScalar(s).sub(self());
    }

    /** {@code x * other}, broadcast. */
    default T mul(T other) {
        return binary(BinaryOp.MUL, other);
    }

    /** {@code x * s}. */
    default T mul(double s) {
        return mul(newScalar(s));
    }

    /** {@code x / other}, broadcast (true division: integers give floats). */
    default T div(T other) {
        return binary(BinaryOp.DIV, other);
    }

    /** {@code x / s}. */
    default T div(double s) {
        return div(newScalar(s));
    }

    /** {@code s / this}. */
    default T rdiv(double s) {
        return newScalar(s).div(self());
    }

    /** {@code x} to the power {@code exponent}, broadcast. */
    default T pow(T exponent) {
        return binary(BinaryOp.POW, exponent);
    }

    /** {@code x} to the power {@code exponent}. */
    default T pow(double exponent) {
        return pow(newScalar(exponent));
    }

    /** {@code base ** this}. */
    default T rpow(double base) {
        return newScalar(base).pow(self());
    }

    /** The larger of x and other, broadcast (NaN where either is, as {@code torch.maximum}). */
    default T maximum(T other) {
        return binary(BinaryOp.MAXIMUM, other);
    }

    /** The smaller of x and other, broadcast (NaN where either is, as {@code torch.minimum}). */
    default T minimum(T other) {
        return binary(BinaryOp.MINIMUM, other);
    }

    // ---------------------------------------------------------------- comparisons and logic: bool results, no gradient

    /** {@code x == other}, broadcast, a bool tensor. */
    default T eq(T other) {
        return binary(BinaryOp.EQ, other);
    }

    /** {@code x == s}, a bool tensor. */
    default T eq(double s) {
        return eq(newScalar(s));
    }

    /** {@code x != other}, broadcast, a bool tensor. */
    default T ne(T other) {
        return binary(BinaryOp.NE, other);
    }

    /** {@code x != s}, a bool tensor. */
    default T ne(double s) {
        return ne(newScalar(s));
    }

    /** {@code x < other}, broadcast, a bool tensor. */
    default T lt(T other) {
        return binary(BinaryOp.LT, other);
    }

    /** {@code x < s}, a bool tensor. */
    default T lt(double s) {
        return lt(newScalar(s));
    }

    /** {@code x <= other}, broadcast, a bool tensor. */
    default T le(T other) {
        return binary(BinaryOp.LE, other);
    }

    /** {@code x <= s}, a bool tensor. */
    default T le(double s) {
        return le(newScalar(s));
    }

    /** {@code x > other}, broadcast, a bool tensor. */
    default T gt(T other) {
        return binary(BinaryOp.GT, other);
    }

    /** {@code x > s}, a bool tensor. */
    default T gt(double s) {
        return gt(newScalar(s));
    }

    /** {@code x >= other}, broadcast, a bool tensor. */
    default T ge(T other) {
        return binary(BinaryOp.GE, other);
    }

    /** {@code x >= s}, a bool tensor. */
    default T ge(double s) {
        return ge(newScalar(s));
    }

    /** Where both are non-zero, broadcast, a bool tensor. */
    default T logicalAnd(T other) {
        return binary(BinaryOp.LOGICAL_AND, other);
    }

    /** Where either is non-zero, broadcast, a bool tensor. */
    default T logicalOr(T other) {
        return binary(BinaryOp.LOGICAL_OR, other);
    }

    /** Where exactly one is non-zero, broadcast, a bool tensor. */
    default T logicalXor(T other) {
        return binary(BinaryOp.LOGICAL_XOR, other);
    }

    /** Where x is zero, a bool tensor. */
    default T logicalNot() {
        return unary(UnaryOp.LOGICAL_NOT);
    }

    /** Where x is NaN, a bool tensor. */
    default T isnan() {
        return unary(UnaryOp.ISNAN);
    }

    /** Whether every element is finite (no NaN, no infinity). */
    default boolean allFinite() {
        return Elementwise.allFinite(data());
    }

    // ---------------------------------------------------------------- unary

    /** {@code -x}. */
    default T neg() {
        return unary(UnaryOp.NEG);
    }

    /** {@code |x|}. */
    default T abs() {
        return unary(UnaryOp.ABS);
    }

    /** The sign of x: -1, 0 or 1. */
    default T sign() {
        return unary(UnaryOp.SIGN);
    }

    /** {@code e^x}. */
    default T exp() {
        return unary(UnaryOp.EXP);
    }

    /** The natural logarithm. */
    default T log() {
        return unary(UnaryOp.LOG);
    }

    /** {@code log(1 + x)}, accurate near 0. */
    default T log1p() {
        return unary(UnaryOp.LOG1P);
    }

    /** {@code sqrt(x)}. */
    default T sqrt() {
        return unary(UnaryOp.SQRT);
    }

    /** {@code 1 / sqrt(x)}. */
    default T rsqrt() {
        return unary(UnaryOp.RSQRT);
    }

    /** {@code sin(x)}. */
    default T sin() {
        return unary(UnaryOp.SIN);
    }

    /** {@code cos(x)}. */
    default T cos() {
        return unary(UnaryOp.COS);
    }

    /** {@code tanh(x)}. */
    default T tanh() {
        return unary(UnaryOp.TANH);
    }

    /** {@code 1 / (1 + e^-x)}. */
    default T sigmoid() {
        return unary(UnaryOp.SIGMOID);
    }

    /** {@code max(x, 0)}. */
    default T relu() {
        return unary(UnaryOp.RELU);
    }

    /** {@code x * sigmoid(x)} (swish). */
    default T silu() {
        return unary(UnaryOp.SILU);
    }

    /** The exact GELU, {@code x * Phi(x)}. */
    default T gelu() {
        return unary(UnaryOp.GELU);
    }

    /** GELU, exact or with PyTorch's tanh approximation ({@code approximate="tanh"}). */
    default T gelu(boolean tanhApproximation) {
        return unary(tanhApproximation ? UnaryOp.GELU_TANH : UnaryOp.GELU);
    }

    /**
     * {@code F.leaky_relu(x, negativeSlope)}: x where x &gt; 0, {@code negativeSlope * x} elsewhere (0 and NaN included);
     * the gradient is 1 or the slope by the same test.
     */
    T leakyRelu(double negativeSlope);

    /** {@code F.leaky_relu(x)}: {@link #leakyRelu(double)} with PyTorch's slope of 0.01. */
    default T leakyRelu() {
        return leakyRelu(0.01);
    }

    /** {@code x * x}. */
    default T square() {
        return unary(UnaryOp.SQUARE);
    }

    /** {@code 1 / x}. */
    default T reciprocal() {
        return unary(UnaryOp.RECIPROCAL);
    }

    /** The error function {@code erf(x)}. */
    default T erf() {
        return unary(UnaryOp.ERF);
    }

    /** {@code F.softplus(x)}: {@code log(1 + e^x)}, a smooth ReLU; x itself above 20, as PyTorch. */
    default T softplus() {
        return unary(UnaryOp.SOFTPLUS);
    }

    /**
     * {@code F.elu(x, alpha)}: x where x &gt; 0, {@code alpha (e^x - 1)} elsewhere (its gradient there {@code alpha e^x},
     * alpha at 0, as PyTorch's).
     */
    default T elu(double alpha) {
        T x = self();
        // expm1 of min(x, 0): e^x of a large x would overflow, and where's zero gradient times infinity is NaN.
        return x.where(x.gt(0.0), x.clampMax(0.0).expm1().mul(alpha));
    }

    /** {@code F.mish(x)}: {@code x tanh(softplus(x))}. */
    default T mish() {
        T x = self();
        return x.mul(x.softplus().tanh());
    }

    /** {@code floor(x)}. */
    default T floor() {
        return unary(UnaryOp.FLOOR);
    }

    /** {@code torch.atan(x)}: the arctangent, in (-pi/2, pi/2). */
    default T atan() {
        return unary(UnaryOp.ATAN);
    }

    /**
     * {@code torch.atan2(this, other)}: the angle of the point (other, this), in (-pi, pi], the quadrant taken from both
     * signs (integers become float32). The gradient is NaN at (0, 0), as PyTorch's.
     */
    default T atan2(T other) {
        return binary(BinaryOp.ATAN2, other);
    }

    /** {@code torch.round(x)}: the nearest integer, halves to the even one (0.5 to 0, 1.5 to 2); the gradient is 0. */
    default T round() {
        return unary(UnaryOp.ROUND);
    }

    /** {@code torch.expm1(x)}: {@code e^x - 1}, accurate for x near 0. */
    default T expm1() {
        return unary(UnaryOp.EXPM1);
    }

    /** {@code max(x, min)}. */
    default T clampMin(double min) {
        return clamp(min, Double.NaN);
    }

    /** {@code min(x, max)}. */
    default T clampMax(double max) {
        return clamp(Double.NaN, max);
    }

    /**
     * {@code torch.tril(x, diagonal)}: a copy with the elements above the {@code diagonal}-th diagonal of the last two
     * dims set to 0 (0 is the main diagonal, a positive one lies above it, a negative one below), for each matrix of a
     * batch. The gradient passes where the elements were kept.
     */
    default T tril(int diagonal) {
        return maskedFill(Triangle.outside("tril", shape(), diagonal, true), 0);
    }

    /** {@code torch.tril(x)}: the lower triangle, main diagonal included. */
    default T tril() {
        return tril(0);
    }

    /** {@code torch.triu(x, diagonal)}: as {@link #tril(int)}, keeping the elements on and above the diagonal. */
    default T triu(int diagonal) {
        return maskedFill(Triangle.outside("triu", shape(), diagonal, false), 0);
    }

    /** {@code torch.triu(x)}: the upper triangle, main diagonal included. */
    default T triu() {
        return triu(0);
    }

    /** {@code torch.where(cond, this, other)} with a number for the other branch. */
    default T where(T cond, double other) {
        return where(cond, newScalar(other));
    }
}
