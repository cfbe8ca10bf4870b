package dev.jgrad.tensor;

import java.util.function.DoubleBinaryOperator;

/**
 * The elementwise functions of two broadcast tensors, each declared once: name, kind, scalar definition
 * for the generic kernels and, for the arithmetic ones, the derivative with respect to each operand, as
 * PyTorch's {@code derivatives.yaml} writes them ({@code mul: self: grad * other, other: grad * self}).
 *
 * <p>A derivative returns the operand's gradient in the output's (broadcast) shape; autograd sums it
 * down to the operand's shape. Each declares which of {@code a}, {@code b} and the output {@code y} it
 * reads, so backward keeps only those alive and only those are checked against in-place writes.
 */
public enum BinaryOp {
    ADD("add", Kind.ARITHMETIC, Double::sum,
            grad(0, (g, a, b, y) -> g), grad(0, (g, a, b, y) -> g)),
    SUB("sub", Kind.ARITHMETIC, (a, b) -> a - b,
            grad(0, (g, a, b, y) -> g), grad(0, (g, a, b, y) -> g.neg())),
    MUL("mul", Kind.ARITHMETIC, (a, b) -> a * b,
            grad(Grad.B, (g, a, b, y) -> g.mul(b)), grad(Grad.A, (g, a, b, y) -> g.mul(a))),
    DIV("div", Kind.ARITHMETIC, (a, b) -> a / b,
            grad(Grad.B, (g, a, b, y) -> g.div(b)), grad(Grad.A | Grad.B, (g, a, b, y) -> g.neg().mul(a).div(b.square()))),
    /** PyTorch's rules: no gradient to the base where the exponent is 0, none to the exponent where the base is 0 and the exponent >= 0. */
    POW("pow", Kind.ARITHMETIC, Math::pow,
            grad(Grad.A | Grad.B, (g, a, b, y) -> Tensor.where(b.eq(0.0), 0.0, g.mul(b.mul(a.pow(b.sub(1.0)))))),
            grad(Grad.A | Grad.B | Grad.Y, (g, a, b, y) -> Tensor.where(a.eq(0.0).logicalAnd(b.ge(0.0)), 0.0, g.mul(y.mul(a.log()))))),
    /** Where the operands tie, each gets half the gradient, as in PyTorch. */
    MAXIMUM("maximum", Kind.ARITHMETIC, Math::max,
            grad(Grad.A | Grad.B, (g, a, b, y) -> halfOnTies(g, a, b).maskedFill(a.lt(b), 0.0)),
            grad(Grad.A | Grad.B, (g, a, b, y) -> halfOnTies(g, a, b).maskedFill(a.gt(b), 0.0))),
    MINIMUM("minimum", Kind.ARITHMETIC, Math::min,
            grad(Grad.A | Grad.B, (g, a, b, y) -> halfOnTies(g, a, b).maskedFill(a.gt(b), 0.0)),
            grad(Grad.A | Grad.B, (g, a, b, y) -> halfOnTies(g, a, b).maskedFill(a.lt(b), 0.0))),
    EQ("eq", Kind.COMPARISON, (a, b) -> a == b ? 1 : 0, null, null),
    NE("ne", Kind.COMPARISON, (a, b) -> a != b ? 1 : 0, null, null),
    LT("lt", Kind.COMPARISON, (a, b) -> a < b ? 1 : 0, null, null),
    LE("le", Kind.COMPARISON, (a, b) -> a <= b ? 1 : 0, null, null),
    GT("gt", Kind.COMPARISON, (a, b) -> a > b ? 1 : 0, null, null),
    GE("ge", Kind.COMPARISON, (a, b) -> a >= b ? 1 : 0, null, null),
    LOGICAL_AND("logical_and", Kind.LOGICAL, (a, b) -> a != 0 && b != 0 ? 1 : 0, null, null),
    LOGICAL_OR("logical_or", Kind.LOGICAL, (a, b) -> a != 0 || b != 0 ? 1 : 0, null, null),
    LOGICAL_XOR("logical_xor", Kind.LOGICAL, (a, b) -> (a != 0) != (b != 0) ? 1 : 0, null, null);

    enum Kind { ARITHMETIC, COMPARISON, LOGICAL }

    /** One operand's derivative: its gradient from the output's gradient {@code g}, the operands and the output. */
    @FunctionalInterface
    public interface Derivative {
        Tensor of(Tensor g, Tensor a, Tensor b, Tensor y);
    }

    /** The derivative of one operand with the tensors it reads: a bit set of {@link #A}, {@link #B} and {@link #Y}. */
    public record Grad(int reads, Derivative fn) {
        public static final int A = 1;
        public static final int B = 2;
        public static final int Y = 4;
    }

    final String pyName;
    final Kind kind;
    private final DoubleBinaryOperator fn;
    private final Grad[] grads;

    BinaryOp(String pyName, Kind kind, DoubleBinaryOperator fn, Grad da, Grad db) {
        this.pyName = pyName;
        this.kind = kind;
        this.fn = fn;
        this.grads = da == null ? null : new Grad[] {da, db};
    }

    private static Grad grad(int reads, Derivative fn) {
        return new Grad(reads, fn);
    }

    private static Tensor halfOnTies(Tensor g, Tensor a, Tensor b) {
        return Tensor.where(a.eq(b), g.mul(0.5), g);
    }

    public double apply(double a, double b) {
        return fn.applyAsDouble(a, b);
    }

    /** The name PyTorch gives the op. */
    public String pyName() {
        return pyName;
    }

    /** False for comparisons and logical ops, whose bool results no gradient flows through. */
    public boolean differentiable() {
        return grads != null;
    }

    /** The derivative with respect to operand {@code i} (0 for a, 1 for b). */
    public Grad grad(int i) {
        if (grads == null) {
            throw new UnsupportedOperationException(pyName + " has a bool result and no derivative");
        }
        return grads[i];
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
                    return this == DIV || this == POW ? DType.FLOAT32 : DType.INT64;
                }
                return this == DIV && promoted == DType.INT64 ? DType.FLOAT32 : promoted;
        }
    }

    /** The type of the result, given the compute type. */
    DType resultType(DType compute) {
        return kind == Kind.ARITHMETIC ? compute : DType.BOOL;
    }
}
