package dev.jgrad.tensor;

import java.util.function.DoubleBinaryOperator;

/**
 * The elementwise functions of two broadcast tensors, each declared once: name, kind and scalar definition
 * for the generic kernels. The derivatives of the arithmetic ones are autograd's ({@code Derivatives}).
 */
public enum BinaryOp {
    /** {@code a + b}. */
    ADD("add", Kind.ARITHMETIC, Double::sum),
    /** {@code a - b}. */
    SUB("sub", Kind.ARITHMETIC, (a, b) -> a - b),
    /** {@code a * b}. */
    MUL("mul", Kind.ARITHMETIC, (a, b) -> a * b),
    /** {@code a / b}, true division. */
    DIV("div", Kind.ARITHMETIC, (a, b) -> a / b),
    /** {@code a} to the power {@code b}. */
    POW("pow", Kind.ARITHMETIC, Math::pow),
    /** The larger of the two (NaN if either is NaN, as {@code torch.maximum}). */
    MAXIMUM("maximum", Kind.ARITHMETIC, Math::max),
    /** The smaller of the two (NaN if either is NaN, as {@code torch.minimum}). */
    MINIMUM("minimum", Kind.ARITHMETIC, Math::min),
    /** The angle of the point (b, a) from the x axis, in (-pi, pi]: {@code torch.atan2(a, b)}. */
    ATAN2("atan2", Kind.ARITHMETIC, Math::atan2),
    /** {@code a == b}. */
    EQ("eq", Kind.COMPARISON, (a, b) -> a == b ? 1 : 0),
    /** {@code a != b}. */
    NE("ne", Kind.COMPARISON, (a, b) -> a != b ? 1 : 0),
    /** {@code a < b}. */
    LT("lt", Kind.COMPARISON, (a, b) -> a < b ? 1 : 0),
    /** {@code a <= b}. */
    LE("le", Kind.COMPARISON, (a, b) -> a <= b ? 1 : 0),
    /** {@code a > b}. */
    GT("gt", Kind.COMPARISON, (a, b) -> a > b ? 1 : 0),
    /** {@code a >= b}. */
    GE("ge", Kind.COMPARISON, (a, b) -> a >= b ? 1 : 0),
    /** Both non-zero. */
    LOGICAL_AND("logical_and", Kind.LOGICAL, (a, b) -> a != 0 && b != 0 ? 1 : 0),
    /** Either non-zero. */
    LOGICAL_OR("logical_or", Kind.LOGICAL, (a, b) -> a != 0 || b != 0 ? 1 : 0),
    /** Exactly one non-zero. */
    LOGICAL_XOR("logical_xor", Kind.LOGICAL, (a, b) -> (a != 0) != (b != 0) ? 1 : 0);

    enum Kind { ARITHMETIC, COMPARISON, LOGICAL }

    final String pyName;
    final Kind kind;
    private final DoubleBinaryOperator fn;

    BinaryOp(String pyName, Kind kind, DoubleBinaryOperator fn) {
        this.pyName = pyName;
        this.kind = kind;
        this.fn = fn;
    }

    /** The op's value at {@code (a, b)} in double (comparisons and logical ops give 1 or 0). */
    public double apply(double a, double b) {
        return fn.applyAsDouble(a, b);
    }

    /** The name PyTorch gives the op. */
    public String pyName() {
        return pyName;
    }

    /** False for comparisons and logical ops, whose bool results no gradient flows through. */
    public boolean differentiable() {
        return kind == Kind.ARITHMETIC;
    }

    /** The type the kernel computes in, given the promoted type of the operands. */
    DType computeType(DType promoted) {
        switch (kind) {
            case LOGICAL:
                return DType.BOOL;
            case COMPARISON:
                return promoted == DType.BOOL ? DType.INT64 : promoted;
            default:
                if (promoted == DType.BOOL) {
                    return this == DIV || this == POW || this == ATAN2 ? DType.FLOAT32 : DType.INT64;
                }
                return (this == DIV || this == ATAN2) && promoted == DType.INT64 ? DType.FLOAT32 : promoted;
        }
    }

    /** The type of the result, given the compute type. */
    DType resultType(DType compute) {
        return kind == Kind.ARITHMETIC ? compute : DType.BOOL;
    }
}
