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

    default T add(T other) {
        return binary(BinaryOp.ADD, other);
    }

    /** {@code this + alpha * other}, as {@code torch.add(input, other, alpha=alpha)}. */
    default T add(T other, double alpha) {
        return alpha == 1.0 ? add(other) : add(other.mul(alpha));
    }

    default T add(double s) {
        return add(newScalar(s));
    }

    default T sub(T other) {
        return binary(BinaryOp.SUB, other);
    }

    default T sub(double s) {
        return sub(newScalar(s));
    }

    /** {@code s - this}. */
    default T rsub(double s) {
        return newScalar(s).sub(self());
    }

    default T mul(T other) {
        return binary(BinaryOp.MUL, other);
    }

    default T mul(double s) {
        return mul(newScalar(s));
    }

    default T div(T other) {
        return binary(BinaryOp.DIV, other);
    }

    default T div(double s) {
        return div(newScalar(s));
    }

    /** {@code s / this}. */
    default T rdiv(double s) {
        return newScalar(s).div(self());
    }

    default T pow(T exponent) {
        return binary(BinaryOp.POW, exponent);
    }

    default T pow(double exponent) {
        return pow(newScalar(exponent));
    }

    /** {@code base ** this}. */
    default T rpow(double base) {
        return newScalar(base).pow(self());
    }

    default T maximum(T other) {
        return binary(BinaryOp.MAXIMUM, other);
    }

    default T minimum(T other) {
        return binary(BinaryOp.MINIMUM, other);
    }

    // ---------------------------------------------------------------- comparisons and logic: bool results, no gradient

    default T eq(T other) {
        return binary(BinaryOp.EQ, other);
    }

    default T eq(double s) {
        return eq(newScalar(s));
    }

    default T ne(T other) {
        return binary(BinaryOp.NE, other);
    }

    default T ne(double s) {
        return ne(newScalar(s));
    }

    default T lt(T other) {
        return binary(BinaryOp.LT, other);
    }

    default T lt(double s) {
        return lt(newScalar(s));
    }

    default T le(T other) {
        return binary(BinaryOp.LE, other);
    }

    default T le(double s) {
        return le(newScalar(s));
    }

    default T gt(T other) {
        return binary(BinaryOp.GT, other);
    }

    default T gt(double s) {
        return gt(newScalar(s));
    }

    default T ge(T other) {
        return binary(BinaryOp.GE, other);
    }

    default T ge(double s) {
        return ge(newScalar(s));
    }

    default T logicalAnd(T other) {
        return binary(BinaryOp.LOGICAL_AND, other);
    }

    default T logicalOr(T other) {
        return binary(BinaryOp.LOGICAL_OR, other);
    }

    default T logicalXor(T other) {
        return binary(BinaryOp.LOGICAL_XOR, other);
    }

    default T logicalNot() {
        return unary(UnaryOp.LOGICAL_NOT);
    }

    default T isnan() {
        return unary(UnaryOp.ISNAN);
    }

    /** Whether every element is finite (no NaN, no infinity). */
    default boolean allFinite() {
        return Elementwise.allFinite(data());
    }

    // ---------------------------------------------------------------- unary

    default T neg() {
        return unary(UnaryOp.NEG);
    }

    default T abs() {
        return unary(UnaryOp.ABS);
    }

    default T sign() {
        return unary(UnaryOp.SIGN);
    }

    default T exp() {
        return unary(UnaryOp.EXP);
    }

    default T log() {
        return unary(UnaryOp.LOG);
    }

    default T log1p() {
        return unary(UnaryOp.LOG1P);
    }

    default T sqrt() {
        return unary(UnaryOp.SQRT);
    }

    default T rsqrt() {
        return unary(UnaryOp.RSQRT);
    }

    default T sin() {
        return unary(UnaryOp.SIN);
    }

    default T cos() {
        return unary(UnaryOp.COS);
    }

    default T tanh() {
        return unary(UnaryOp.TANH);
    }

    default T sigmoid() {
        return unary(UnaryOp.SIGMOID);
    }

    default T relu() {
        return unary(UnaryOp.RELU);
    }

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

    default T square() {
        return unary(UnaryOp.SQUARE);
    }

    default T reciprocal() {
        return unary(UnaryOp.RECIPROCAL);
    }

    default T erf() {
        return unary(UnaryOp.ERF);
    }

    /** {@code F.softplus(x)}: {@code log(1 + e^x)}, a smooth ReLU; x itself above 20, as PyTorch. */
    default T softplus() {
        return unary(UnaryOp.SOFTPLUS);
    }

    default T floor() {
        return unary(UnaryOp.FLOOR);
    }

    default T clampMin(double min) {
        return clamp(min, Double.NaN);
    }

    default T clampMax(double max) {
        return clamp(Double.NaN, max);
    }

    /** {@code torch.where(cond, this, other)} with a number for the other branch. */
    default T where(T cond, double other) {
        return where(cond, newScalar(other));
    }
}
