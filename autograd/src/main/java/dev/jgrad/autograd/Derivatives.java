package dev.jgrad.autograd;

import dev.jgrad.tensor.BinaryOp;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.UnaryOp;

/**
 * The derivatives of the elementwise functions of {@link UnaryOp} and {@link BinaryOp}, PyTorch's
 * {@code derivatives.yaml} in Java ({@code exp: grad * result}). Each is written once, with variable ops:
 * a first-order backward runs it on plain values, a backward with {@code createGraph} records it, so every
 * formula here is differentiable again. Each declares what it reads, so backward keeps only that alive.
 */
final class Derivatives {
    private static final double INV_SQRT_2 = 1.0 / Math.sqrt(2.0);
    private static final double INV_SQRT_2PI = 1.0 / Math.sqrt(2.0 * Math.PI);
    private static final double TWO_OVER_SQRT_PI = 2.0 / Math.sqrt(Math.PI);
    private static final double SQRT_2_OVER_PI = Math.sqrt(2.0 / Math.PI);
    private static final double GELU_KAPPA = 0.044715;

    /** What a unary derivative reads besides the incoming gradient. */
    enum Saves { NOTHING, INPUT, OUTPUT }

    /** Which operands a binary derivative reads: a bit set. */
    static final int A = 1;
    static final int B = 2;
    static final int Y = 4;

    private Derivatives() {
    }

    static Saves saves(UnaryOp op) {
        switch (op) {
            case NEG: case SIGN: case FLOOR: case ROUND:
                return Saves.NOTHING;
            case EXP: case EXPM1: case SQRT: case RSQRT: case TANH: case SIGMOID: case RELU: case RECIPROCAL:
                return Saves.OUTPUT;
            default:
                return Saves.INPUT;
        }
    }

    /** The input's gradient from the output's gradient g, the input x and the output y (each null unless {@link #saves} names it). */
    static Variable unary(UnaryOp op, Variable g, Variable x, Variable y) {
        if (!GradMode.isEnabled() || !(g.requiresGrad() || (x != null && x.requiresGrad()) || (y != null && y.requiresGrad()))) {
            // No graph of this backward to record: the tensors' one pass for the activations, the same bits as the ops below.
            switch (op) {
                case SIGMOID: return g.constant(Tensor.sigmoidBackward(g.data, y.data));
                case TANH: return g.constant(Tensor.tanhBackward(g.data, y.data));
                case SILU: return g.constant(Tensor.siluBackward(g.data, x.data));
                default: break;
            }
        }
        switch (op) {
            case NEG: return g.neg();
            case ABS: return g.mul(x.sign());
            case SIGN: case FLOOR: case ROUND: return g.constant(Tensor.zerosLike(g.data));
            case EXP: return g.mul(y);
            case EXPM1: return g.mul(y.add(1.0));
            case LOG: return g.div(x);
            case LOG1P: return g.div(x.add(1.0));
            case ATAN: return g.div(x.square().add(1.0));
            case SQRT: return g.div(y.mul(2.0));
            case RSQRT: return g.mul(y.pow(3.0)).mul(-0.5);
            case SIN: return g.mul(x.cos());
            case COS: return g.mul(x.sin().neg());
            case TANH: return g.mul(y.square().rsub(1.0));
            case SIGMOID: return g.mul(y.mul(y.rsub(1.0)));
            case RELU: return thresholdBackward(g, y);
            case SILU: {
                Variable s = x.sigmoid();
                return g.mul(s.mul(x.mul(s.rsub(1.0)).add(1.0)));
            }
            case GELU: return geluBackward(g, x);
            case GELU_TANH: {
                Variable x2 = x.square();
                Variable t = x.add(x2.mul(x).mul(GELU_KAPPA)).mul(SQRT_2_OVER_PI).tanh();
                Variable left = t.add(1.0).mul(0.5);
                Variable right = x.mul(0.5).mul(t.square().rsub(1.0)).mul(x2.mul(3 * GELU_KAPPA).add(1.0)).mul(SQRT_2_OVER_PI);
                return g.mul(left.add(right));
            }
            case SQUARE: return g.mul(x.mul(2.0));
            case RECIPROCAL: return g.mul(y.square()).neg();
            case ERF: return g.mul(x.square().neg().exp().mul(TWO_OVER_SQRT_PI));
            case SOFTPLUS: return Variable.where(x.gt(20.0), g, g.mul(x.sigmoid()));
            default:
                throw new UnsupportedOperationException(op.pyName() + " has a bool result and no derivative");
        }
    }

    /**
     * ReLU's backward, {@code y > 0 ? g : 0}, as PyTorch's {@code threshold_backward}: one fused pass, and an
     * op of its own, linear in g (its gradient is itself), with no gradient to the mask it reads from y.
     */
    static Variable thresholdBackward(Variable g, Variable y) {
        Tensor out = Tensor.thresholdBackward(g.data, y.data);
        return Op.of("threshold_backward", out, g).save(y.data)
                .backward((gg, n) -> new Variable[] {thresholdBackward(gg, n.saved(0))});
    }

    /**
     * The exact GELU's backward, {@code g (Phi(x) + x phi(x))}, as one fused op; its own gradient is itself for g and
     * {@code gg g phi(x) (2 - x^2)} for x (GELU's second derivative), written with variable ops.
     */
    static Variable geluBackward(Variable g, Variable x) {
        Tensor out = Tensor.geluBackward(g.data, x.data);
        Op op = Op.of("gelu_backward", out, g, x);
        if (!op.recording()) {
            return op.backward(null);
        }
        return op.save(g).save(x).backward((gg, n) -> {
            Variable gs = n.saved(0);
            Variable xs = n.saved(1);
            Variable pdf = xs.square().mul(-0.5).exp().mul(INV_SQRT_2PI);
            return new Variable[] {
                n.needs(0) ? geluBackward(gg, xs) : null,
                n.needs(1) ? gg.mul(gs).mul(pdf).mul(xs.square().rsub(2.0)) : null};
        });
    }

    /** What the derivative of operand i (0 for a, 1 for b) reads: a bit set of {@link #A}, {@link #B}, {@link #Y}. */
    static int reads(BinaryOp op, int i) {
        switch (op) {
            case ADD: case SUB: return 0;
            case MUL: return i == 0 ? B : A;
            case DIV: return i == 0 ? B : A | B;
            case POW: return i == 0 ? A | B : A | B | Y;
            default: return A | B;
        }
    }

    /** Operand i's gradient, in the output's (broadcast) shape: autograd sums it down to the operand's shape. */
    static Variable binary(BinaryOp op, int i, Variable g, Variable a, Variable b, Variable y) {
        switch (op) {
            case ADD: return g;
            case SUB: return i == 0 ? g : g.neg();
            case MUL: return g.mul(i == 0 ? b : a);
            case DIV: return i == 0 ? g.div(b) : g.neg().mul(a).div(b.square());
            // PyTorch's rules: no gradient to the base where the exponent is 0, none to the exponent where the base is 0 and the exponent >= 0.
            case POW:
                return i == 0
                        ? Variable.where(b.eq(0.0), 0.0, g.mul(b.mul(a.pow(b.sub(1.0)))))
                        : Variable.where(a.eq(0.0).logicalAnd(b.ge(0.0)), 0.0, g.mul(y.mul(a.log())));
            // Where the operands tie, each gets half the gradient, as in PyTorch.
            case MAXIMUM: return halfOnTies(g, a, b).maskedFill(i == 0 ? a.lt(b) : a.gt(b), 0.0);
            case MINIMUM: return halfOnTies(g, a, b).maskedFill(i == 0 ? a.gt(b) : a.lt(b), 0.0);
            // d atan2(a, b) = (b da - a db) / (a^2 + b^2); at (0, 0) the reciprocal's infinity is taken as 0, as PyTorch's.
            case ATAN2: {
                Variable norm = a.square().add(b.square());
                Variable recip = norm.reciprocal().maskedFill(norm.data.eq(0.0), 0.0);
                return (i == 0 ? g.mul(b) : g.mul(a.neg())).mul(recip);
            }
            default:
                throw new UnsupportedOperationException(op.pyName() + " has a bool result and no derivative");
        }
    }

    private static Variable halfOnTies(Variable g, Variable a, Variable b) {
        return Variable.where(a.eq(b), g.mul(0.5), g);
    }
}
