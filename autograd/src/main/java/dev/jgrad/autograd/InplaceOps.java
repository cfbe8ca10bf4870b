package dev.jgrad.autograd;

import dev.jgrad.tensor.BinaryOp;
import dev.jgrad.tensor.Tensor;

/**
 * In-place ops with PyTorch's rules. On a leaf that requires grad they fail (unless grad mode is off,
 * which is how an optimizer updates parameters). On other values they modify the data and are recorded:
 * the value's history now ends in the in-place op, whose inputs are the value as it was and the other
 * operand. Ops that saved the old value for their backward see the version bump and refuse at backward.
 */
final class InplaceOps {
    private InplaceOps() {
    }

    static void check(Variable v, String op) {
        if (!GradMode.isEnabled()) {
            return;
        }
        if (v.isLeaf() && v.requiresGrad()) {
            throw new AutogradException("a leaf Variable that requires grad is being used in an in-place operation. ("
                    + op + " on a variable of shape " + java.util.Arrays.toString(v.shape())
                    + "; update parameters inside try (var g = NoGrad.enter()) {...}, or use the out-of-place op)");
        }
        if (v.base != null && v.base.requiresGrad()) {
            if (v.base.isLeaf()) {
                throw new AutogradException("a view of a leaf Variable that requires grad is being used in an in-place operation. ("
                        + op + "; clone() the view or use the out-of-place op)");
            }
            throw new AutogradException(op + ": in-place modification of a view of a value that requires grad is not supported"
                    + " by jgrad (PyTorch rewrites the base's history here); clone() the view first or use the out-of-place op");
        }
    }

    /**
     * {@code self = fn(self, other)} in place, recorded with fn's declared derivatives: a derivative that
     * reads self reads its value from before the write (a copy is saved), one that reads the output reads
     * self after it.
     */
    static Variable binary(BinaryOp fn, Variable self, Variable other) {
        String name = fn.pyName() + "_";
        check(self, name);
        Op op = Op.of(name, self.data, self, other);
        if (!fn.differentiable() && op.recording()) {
            throw new AutogradException(name + " has a bool result and cannot be recorded in place on a value that requires grad;"
                    + " use the out-of-place op");
        }
        int reads = fn.differentiable() ? PointwiseOps.reads(fn, op) : 0;
        // Self as it was: a copy of its values, with the history it had.
        op.save(PointwiseOps.has(reads, Derivatives.A) ? (self.gradFn != null ? new Variable(self.data.clone(), self.gradFn) : new Variable(self.data.clone())) : null)
                .save(PointwiseOps.has(reads, Derivatives.B) ? other : null);
        self.data.inplace(fn, other.data);
        if (PointwiseOps.has(reads, Derivatives.Y)) {
            op.saveOutput();
        }
        return op.rebase(self, fn.differentiable() ? PointwiseOps.binaryRule(fn, reads) : null);
    }

    static Variable maskedFill(Variable self, Tensor mask, double value) {
        check(self, "masked_fill_");
        Op op = Op.of("masked_fill_", self.data, self).save(mask);
        if (!Double.isFinite(value)) {
            op.allowNonFinite();
        }
        self.data.maskedFilli(mask, value);
        return op.rebase(self, (g, n) -> new Variable[] {g.maskedFill(n.savedTensor(0), 0.0)});
    }

    static Variable copy(Variable self, Variable src) {
        check(self, "copy_");
        Op op = Op.of("copy_", self.data, self, src);
        self.data.copyFrom(src.data);
        return op.rebase(self, (g, n) -> new Variable[] {n.needs(0) ? g.constant(Tensor.zerosLike(g.data)) : null, g});
    }

    static Variable fill(Variable self, double value) {
        check(self, "fill_");
        Op op = Op.of("fill_", self.data, self).allowNonFinite();
        self.data.fill(value);
        return op.rebase(self, (g, n) -> new Variable[] {g.constant(Tensor.zerosLike(g.data))});
    }
}
