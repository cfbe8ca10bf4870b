package dev.jgrad.autograd;

import dev.jgrad.tensor.BinaryOp;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.UnaryOp;

/**
 * Differentiable elementwise ops. Unary and binary functions are recorded generically: their derivatives
 * are in {@link Derivatives}, so this class only saves what a derivative reads and calls it at backward.
 * The ops with parameters (clamp, where, masked fill, a cast) have their rules here. Rules return
 * gradients in the output's shape; the engine sums them to each input's shape.
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
        if (!op.recording()) {
            return op.backward(null);
        }
        Derivatives.Saves saves = Derivatives.saves(fn);
        if (saves == Derivatives.Saves.INPUT) {
            op.save(x);
        } else if (saves == Derivatives.Saves.OUTPUT) {
            op.saveOutput();
        }
        return op.backward((g, n) -> new Variable[] {Derivatives.unary(fn, g,
                saves == Derivatives.Saves.INPUT ? n.saved(0) : null,
                saves == Derivatives.Saves.OUTPUT ? n.saved(0) : null)});
    }

    static Variable binary(BinaryOp fn, Variable a, Variable b) {
        Tensor y = a.data.binary(fn, b.data);
        if (!fn.differentiable()) {
            return new Variable(y);
        }
        Op op = Op.of(fn.pyName(), y, a, b);
        if (!op.recording()) {
            return op.backward(null);
        }
        int reads = reads(fn, op);
        op.save(has(reads, Derivatives.A) ? a : null).save(has(reads, Derivatives.B) ? b : null);
        if (has(reads, Derivatives.Y)) {
            op.saveOutput();
        }
        return op.backward(binaryRule(fn, reads));
    }

    /** What the derivatives of the operands that need a gradient read, as a bit set of {@link Derivatives#A}, B and Y. */
    static int reads(BinaryOp fn, Op op) {
        return (op.needs(0) ? Derivatives.reads(fn, 0) : 0) | (op.needs(1) ? Derivatives.reads(fn, 1) : 0);
    }

    static boolean has(int reads, int bit) {
        return (reads & bit) != 0;
    }

    /** The backward of a binary op whose a, b and (where read) output were saved in slots 0, 1 and 2. */
    static BackwardFn binaryRule(BinaryOp fn, int reads) {
        return (g, n) -> {
            Variable a = n.saved(0);
            Variable b = n.saved(1);
            Variable y = has(reads, Derivatives.Y) ? n.saved(2) : null;
            return new Variable[] {
                n.needs(0) ? Derivatives.binary(fn, 0, g, a, b, y) : null,
                n.needs(1) ? Derivatives.binary(fn, 1, g, a, b, y) : null};
        };
    }

    static Variable leakyRelu(Variable x, double slope) {
        Tensor y = x.data.leakyRelu(slope);
        return Op.of("leaky_relu", y, x).save(x.data).backward((g, n) -> new Variable[] {leakyReluBackward(g, n.saved(0), slope)});
    }

    /**
     * Leaky ReLU's backward as an op of its own (PyTorch's {@code leaky_relu_backward}), so a second derivative runs
     * it too: linear in g, by the same factors; piecewise constant in x, whose gradient is zero.
     */
    static Variable leakyReluBackward(Variable g, Variable x, double slope) {
        Tensor out = Tensor.leakyReluBackward(g.data, x.data, slope);
        return Op.of("leaky_relu_backward", out, g).save(x.data)
                .backward((gg, n) -> new Variable[] {leakyReluBackward(gg, n.saved(0), slope)});
    }

    static Variable clamp(Variable x, double min, double max) {
        Tensor y = x.data.clamp(min, max);
        return Op.of("clamp", y, x).save(x.data).backward((g, n) -> {
            Tensor v = n.savedTensor(0);
            Tensor pass = null;
            if (!Double.isNaN(min)) {
                pass = v.ge(min);
            }
            if (!Double.isNaN(max)) {
                Tensor le = v.le(max);
                pass = pass == null ? le : pass.logicalAnd(le);
            }
            return new Variable[] {pass == null ? g : g.maskedFill(pass.logicalNot(), 0.0)};
        });
    }

    /**
     * {@code where(cond, a, b)}. A non-finite output needs a non-finite branch, so anomaly mode's forward
     * check (which looks at the inputs first) never reports it: no scan of the branches is needed here.
     */
    static Variable where(Tensor cond, Variable a, Variable b) {
        Tensor y = Tensor.where(cond, a.data, b.data);
        return Op.of("where", y, a, b).save(cond).backward((g, n) -> {
            Tensor c = n.savedTensor(0);
            return new Variable[] {
                n.needs(0) ? Variable.where(g.constant(c), g, 0.0) : null,
                n.needs(1) ? Variable.where(g.constant(c), 0.0, g) : null};
        });
    }

    static Variable maskedFill(Variable x, Tensor mask, double value) {
        Tensor y = x.data.maskedFill(mask, value);
        Op op = Op.of("masked_fill", y, x).save(mask);
        if (!Double.isFinite(value)) {
            op.allowNonFinite();
        }
        return op.backward((g, n) -> new Variable[] {g.maskedFill(n.savedTensor(0), 0.0)});
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
        return Op.of("to", y, x).backward((g, n) -> new Variable[] {g});
    }
}
