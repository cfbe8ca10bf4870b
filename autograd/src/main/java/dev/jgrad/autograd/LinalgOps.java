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
        op.save(op.needs(1) ? a.data : null).save(op.needs(0) ? b.data : null);
        boolean aVec = a.dim() == 1;
        boolean bVec = b.dim() == 1;
        int[] aShape = a.data.shape();
        int[] bShape = b.data.shape();
        return op.backward((g, n) -> {
            Tensor g2 = g;
            if (aVec) {
                g2 = g2.unsqueeze(bVec ? 0 : -2);
            }
            if (bVec) {
                g2 = g2.unsqueeze(-1);
            }
            Tensor ga = null;
            Tensor gb = null;
            if (n.needs(0)) {
                Tensor bv = n.saved(1);
                Tensor b2 = bVec ? bv.unsqueeze(1) : bv;
                int[] target = aVec ? new int[] {1, aShape[0]} : aShape;
                ga = summedOver(g2, b2.mT(), target).reshape(aShape);
            }
            if (n.needs(1)) {
                Tensor av = n.saved(0);
                Tensor a2 = aVec ? av.unsqueeze(0) : av;
                int[] target = bVec ? new int[] {bShape[0], 1} : bShape;
                gb = summedOver(a2.mT(), g2, target).reshape(bShape);
            }
            return new Tensor[] {ga, gb};
        });
    }

    /**
     * {@code (x @ y).sumTo(target)}: a 2-d target (an operand the product broadcast along every batch dim,
     * as a convolution's weight) is summed as the products are made, without their stack.
     */
    private static Tensor summedOver(Tensor x, Tensor y, int[] target) {
        if (target.length == 2 && (x.dim() > 2 || y.dim() > 2)) {
            return x.matmulSummed(y);
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
        op.save(op.needs(1) ? x.data : null).save(op.needs(0) ? w.data : null);
        int[] xShape = x.data.shape();
        int in = w.data.size(1);
        int out = w.data.size(0);
        return op.backward((g, n) -> {
            Tensor g2 = g.reshape(-1, out);
            Tensor gx = n.needs(0) ? g2.matmul(n.saved(1)).reshape(xShape) : null;
            Tensor gw = n.needs(1) ? g2.t().matmul(n.saved(0).reshape(-1, in)) : null;
            Tensor gb = inputs.length == 3 && n.needs(2) ? g2.sum(0, false) : null;
            return inputs.length == 3 ? new Tensor[] {gx, gw, gb} : new Tensor[] {gx, gw};
        });
    }
}
