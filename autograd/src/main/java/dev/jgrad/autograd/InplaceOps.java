package dev.jgrad.autograd;

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

    static Variable add(Variable self, Variable other, double alpha) {
        String name = alpha == 1.0 ? "add_" : "sub_";
        check(self, name);
        Op op = Op.of(name, self.data, self, other);
        if (alpha == 1.0) {
            self.data.addi(other.data);
        } else {
            self.data.subi(other.data);
        }
        return op.rebase(self, (g, n) -> new Tensor[] {g, n.needs(1) ? (alpha == 1.0 ? g : g.neg()) : null});
    }

    static Variable addScalar(Variable self, double s) {
        check(self, "add_");
        Op op = Op.of("add_", self.data, self);
        self.data.addi(s);
        return op.rebase(self, (g, n) -> new Tensor[] {g});
    }

    static Variable mul(Variable self, Variable other) {
        check(self, "mul_");
        Op op = Op.of("mul_", self.data, self, other);
        op.save(op.needs(1) ? self.data.clone() : null).save(op.needs(0) ? other.data : null);
        self.data.muli(other.data);
        return op.rebase(self, (g, n) -> new Tensor[] {
            n.needs(0) ? g.mul(n.saved(1)) : null,
            n.needs(1) ? g.mul(n.saved(0)) : null});
    }

    static Variable mulScalar(Variable self, double s) {
        check(self, "mul_");
        Op op = Op.of("mul_", self.data, self);
        self.data.muli(s);
        return op.rebase(self, (g, n) -> new Tensor[] {g.mul(s)});
    }

    static Variable div(Variable self, Variable other) {
        check(self, "div_");
        Op op = Op.of("div_", self.data, self, other);
        op.save(op.needs(1) ? self.data.clone() : null).save(other.data);
        self.data.divi(other.data);
        return op.rebase(self, (g, n) -> {
            Tensor b = n.saved(1);
            return new Tensor[] {
                n.needs(0) ? g.div(b) : null,
                n.needs(1) ? g.neg().mul(n.saved(0)).div(b.square()) : null};
        });
    }

    static Variable maskedFill(Variable self, Tensor mask, double value) {
        check(self, "masked_fill_");
        Op op = Op.of("masked_fill_", self.data, self).save(mask);
        if (!Double.isFinite(value)) {
            op.allowNonFinite();
        }
        self.data.maskedFilli(mask, value);
        return op.rebase(self, (g, n) -> new Tensor[] {g.maskedFill(n.saved(0), 0.0)});
    }

    static Variable copy(Variable self, Variable src) {
        check(self, "copy_");
        Op op = Op.of("copy_", self.data, self, src);
        self.data.copyFrom(src.data);
        return op.rebase(self, (g, n) -> new Tensor[] {n.needs(0) ? Tensor.zerosLike(g) : null, g});
    }

    static Variable fill(Variable self, double value) {
        check(self, "fill_");
        Op op = Op.of("fill_", self.data, self).allowNonFinite();
        self.data.fill(value);
        return op.rebase(self, (g, n) -> new Tensor[] {Tensor.zerosLike(g)});
    }
}
