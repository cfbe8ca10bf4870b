package dev.jgrad.autograd;

import dev.jgrad.tensor.Tensor;

/** Differentiable matmul (all ranks, batch broadcasting, 0-size dims) and linear. */
final class LinalgOps {
    private LinalgOps() {
    }

    /**
     * {@code grad_a = g @ b^T} and {@code grad_b = a^T @ g}, computed on the 2-d forms of 1-d operands and
     * summed over the batch dims an operand was broadcast along.
     */
    static Variable matmul(Variable a, Variable b) {
        Tensor y = a.data.matmul(b.data);
        Op op = Op.of("matmul", y, a, b);
        op.save(op.needs(1) ? a : null).save(op.needs(0) ? b : null);
        boolean aVec = a.dim() == 1;
        boolean bVec = b.dim() == 1;
        int[] aShape = a.data.shape();
        int[] bShape = b.data.shape();
        return op.backward((g, n) -> {
            Variable g2 = g;
            if (aVec) {
                g2 = g2.unsqueeze(bVec ? 0 : -2);
            }
            if (bVec) {
                g2 = g2.unsqueeze(-1);
            }
            Variable ga = null;
            Variable gb = null;
            if (n.needs(0)) {
                Variable bv = n.saved(1);
                Variable b2 = bVec ? bv.unsqueeze(1) : bv;
                int[] target = aVec ? new int[] {1, aShape[0]} : aShape;
                ga = summedOver(g2, b2.mT(), target).reshape(aShape);
            }
            if (n.needs(1)) {
                Variable av = n.saved(0);
                Variable a2 = aVec ? av.unsqueeze(0) : av;
                int[] target = bVec ? new int[] {bShape[0], 1} : bShape;
                gb = summedOver(a2.mT(), g2, target).reshape(bShape);
            }
            return new Variable[] {ga, gb};
        });
    }

    /**
     * {@code (x @ y).sumTo(target)}: a 2-d target (an operand the product broadcast along every batch dim,
     * as a convolution's weight) is summed as the products are made, without their stack (first order; a
     * recorded backward makes the products and sums them).
     */
    private static Variable summedOver(Variable x, Variable y, int[] target) {
        if (target.length == 2 && (x.dim() > 2 || y.dim() > 2) && !GradMode.isEnabled()) {
            return x.constant(x.data.matmulSummed(y.data));
        }
        return x.matmul(y).sumTo(target);
    }

    /** {@code y = x @ w^T + b} with a dedicated rule: one product per gradient, batch dims flattened. */
    static Variable linear(Variable x, Variable w, Variable b) {
        if (w.dim() != 2) {
            Variable y = matmul(x, w.t());
            return b == null ? y : y.add(b);
        }
        Tensor y = Tensor.linear(x.data, w.data, b == null ? null : b.data);
        Variable[] inputs = b == null ? new Variable[] {x, w} : new Variable[] {x, w, b};
        Op op = Op.of("linear", y, inputs);
        op.save(op.needs(1) ? x : null).save(op.needs(0) ? w : null);
        int[] xShape = x.data.shape();
        int in = w.data.size(1);
        int out = w.data.size(0);
        return op.backward((g, n) -> {
            Variable g2 = g.reshape(-1, out);
            Variable gx = n.needs(0) ? g2.matmul(n.saved(1)).reshape(xShape) : null;
            Variable gw = n.needs(1) ? g2.t().matmul(n.saved(0).reshape(-1, in)) : null;
            Variable gb = inputs.length == 3 && n.needs(2) ? g2.sum(0, false) : null;
            return inputs.length == 3 ? new Variable[] {gx, gw, gb} : new Variable[] {gx, gw};
        });
    }
}
