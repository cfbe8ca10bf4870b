package dev.jgrad.autograd;

import dev.jgrad.tensor.BinaryOp;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.UnaryOp;

/**
 * Differentiable elementwise ops. Unary and binary functions are recorded generically: their derivatives
 * are declared beside their definitions in {@link UnaryOp} and {@link BinaryOp}, so this class only
 * saves what a derivative reads and calls it at backward. The ops with parameters (clamp, where, masked
 * fill, a cast) have their rules here. Rules return gradients in the output's shape; the engine sums
 * them to each input's shape.
 */
final class PointwiseOps {
    private PointwiseOps() {
    }

    static Variable unary(UnaryOp fn, Variable x) {
        Tensor y = x.data.unary(fn);
        if (!fn.differentiable()) {
            return new Variable(y);
        }
        Op op = Op.of(fn.pyName(), y, x);
        UnaryOp.Saves saves = fn.saves();
        if (saves == UnaryOp.Saves.INPUT) {
            op.save(x.data);
        } else if (saves == UnaryOp.Saves.OUTPUT) {
            op.saveOutput();
        }
        return op.backward((g, n) -> new Tensor[] {fn.derivative(g,
                saves == UnaryOp.Saves.INPUT ? n.saved(0) : null,
                saves == UnaryOp.Saves.OUTPUT ? n.saved(0) : null)});
    }

    static Variable binary(BinaryOp fn, Variable a, Variable b) {
        Tensor y = a.data.binary(fn, b.data);
        if (!fn.differentiable()) {
            return new Variable(y);
        }
        Op op = Op.of(fn.pyName(), y, a, b);
        int reads = reads(fn, op);
        op.save(has(reads, BinaryOp.Grad.A) ? a.data : null).save(has(reads, BinaryOp.Grad.B) ? b.data : null);
        if (has(reads, BinaryOp.Grad.Y)) {
            op.saveOutput();
        }
        return op.backward(binaryRule(fn, reads));
    }

    /** What the derivatives of the operands that need a gradient read, as a {@link BinaryOp.Grad} bit set. */
    static int reads(BinaryOp fn, Op op) {
        return (op.needs(0) ? fn.grad(0).reads() : 0) | (op.needs(1) ? fn.grad(1).reads() : 0);
    }

    static boolean has(int reads, int bit) {
        return (reads & bit) != 0;
    }

    /** The backward of a binary op whose a, b and (where read) output were saved in slots 0, 1 and 2. */
    static BackwardFn binaryRule(BinaryOp fn, int reads) {
        return (g, n) -> {
            Tensor a = n.saved(0);
            Tensor b = n.saved(1);
            Tensor y = has(reads, BinaryOp.Grad.Y) ? n.saved(2) : null;
            return new Tensor[] {
                n.needs(0) ? fn.grad(0).fn().of(g, a, b, y) : null,
                n.needs(1) ? fn.grad(1).fn().of(g, a, b, y) : null};
        };
    }

    static Variable clamp(Variable x, double min, double max) {
        Tensor y = x.data.clamp(min, max);
        return Op.of("clamp", y, x).save(x.data).backward((g, n) -> {
            Tensor v = n.saved(0);
            Tensor pass = null;
            if (!Double.isNaN(min)) {
                pass = v.ge(min);
            }
            if (!Double.isNaN(max)) {
                Tensor le = v.le(max);
                pass = pass == null ? le : pass.logicalAnd(le);
            }
            return new Tensor[] {pass == null ? g : Tensor.where(pass, g, 0.0)};
        });
    }

    /**
     * {@code where(cond, a, b)}. A non-finite output needs a non-finite branch, so anomaly mode's forward
     * check (which looks at the inputs first) never reports it: no scan of the branches is needed here.
     */
    static Variable where(Tensor cond, Variable a, Variable b) {
        Tensor y = Tensor.where(cond, a.data, b.data);
        return Op.of("where", y, a, b).save(cond).backward((g, n) -> {
            Tensor c = n.saved(0);
            return new Tensor[] {
                n.needs(0) ? Tensor.where(c, g, 0.0) : null,
                n.needs(1) ? Tensor.where(c, 0.0, g) : null};
        });
    }

    static Variable maskedFill(Variable x, Tensor mask, double value) {
        Tensor y = x.data.maskedFill(mask, value);
        Op op = Op.of("masked_fill", y, x).save(mask);
        if (!Double.isFinite(value)) {
            op.allowNonFinite();
        }
        return op.backward((g, n) -> new Tensor[] {g.maskedFill(n.saved(0), 0.0)});
    }

    /** A cast passes the gradient on (the engine casts it back to the input's type); to a non-floating type it stops. */
    static Variable to(Variable x, DType dtype) {
        if (dtype == x.dtype()) {
            return x;
        }
        Tensor y = x.data.to(dtype);
        if (!dtype.isFloating()) {
            return new Variable(y);
        }
        return Op.of("to", y, x).backward((g, n) -> new Tensor[] {g});
    }
}
