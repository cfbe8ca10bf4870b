package dev.jgrad.tensor;

/**
 * Fused elementwise updates for optimizers: one pass over the arrays instead of a chain of ops with a
 * temporary per step. Plain arithmetic on tensors, nothing of gradients: the nn optimizers call them.
 */
public final class FusedOps {
    /**
     * Adam's moments below this magnitude become 0. A moment whose gradient stopped (a dead ReLU unit)
     * decays geometrically into subnormal floats, where each multiply costs the CPU some hundred times
     * more; the update such a moment would make is below 1e-21 of the learning rate.
     */
    static final float FLUSH = 1e-30f;

    private FusedOps() {
    }

    /**
     * One Adam step in place, PyTorch's formula: {@code g' = g + l2 * p}; {@code m = b1 m + (1-b1) g'};
     * {@code v = b2 v + (1-b2) g'^2}; {@code p -= stepSize * m / (sqrt(v) / bc2Sqrt + eps)}. Decoupled
     * decay (AdamW) is applied by the caller before ({@code p *= 1 - lr * wd}). Moments below {@link #FLUSH}
     * become 0. {@code p}, {@code m} and {@code v} are floating tensors of one shape and type; contiguous
     * float32 ones (every parameter jgrad makes) take the vector kernel, others its scalar reference.
     */
    public static void adam(Tensor p, Tensor g, Tensor m, Tensor v, double b1, double b2, double l2, double stepSize,
                            double bc2Sqrt, double eps) {
        if (!p.isFloatingPoint() || !java.util.Arrays.equals(p.shape, g.shape) || !java.util.Arrays.equals(p.shape, m.shape)
                || !java.util.Arrays.equals(p.shape, v.shape) || m.dtype() != p.dtype() || v.dtype() != p.dtype()) {
            throw new IllegalArgumentException("adam: parameter, gradient and moments must be floating tensors of one shape, got "
                    + p.dtype() + " " + Shape.str(p.shape) + ", " + Shape.str(g.shape) + ", " + m.dtype() + " " + Shape.str(m.shape)
                    + ", " + v.dtype() + " " + Shape.str(v.shape));
        }
        Tensor pc = p.isContiguous() ? p : p.clone();
        Tensor mc = m.isContiguous() ? m : m.clone();
        Tensor vc = v.isContiguous() ? v : v.clone();
        Tensor gc = g.dtype() == p.dtype() && g.isContiguous() && !g.sharesStorage(p) && !g.sharesStorage(m) && !g.sharesStorage(v)
                ? g : g.to(p.dtype()).clone();
        int n = p.numel();
        if (p.dtype() == DType.FLOAT32 && Simd.ENABLED && n >= 16) {
            VectorElementwise.adam(pc.storage.f(), pc.offset, gc.storage.f(), gc.offset, mc.storage.f(), mc.offset, vc.storage.f(), vc.offset, n,
                    (float) b1, (float) b2, (float) l2, (float) stepSize, (float) bc2Sqrt, (float) eps);
        } else {
            adamPlain(pc.storage, pc.offset, gc.storage, gc.offset, mc.storage, mc.offset, vc.storage, vc.offset, 0, n,
                    b1, b2, l2, stepSize, bc2Sqrt, eps);
        }
        for (Tensor[] pair : new Tensor[][] {{p, pc}, {m, mc}, {v, vc}}) {
            if (pair[0] != pair[1]) {
                Elementwise.copy(pair[1], pair[0]);
            }
            pair[0].storage.bumpVersion();
        }
    }

    /**
     * The scalar reference of {@link #adam} over elements {@code [from, to)} of contiguous storages of one
     * floating type. For float32 every operation is rounded to float, which gives exactly float arithmetic
     * (a double result of +, -, *, / or sqrt of floats rounds to the correctly rounded float), so the
     * tail of the vector kernel computes what its body does.
     */
    static void adamPlain(Storage p, int po, Storage g, int go, Storage m, int mo, Storage v, int vo, int from, int to,
                          double b1, double b2, double l2, double stepSize, double bc2Sqrt, double eps) {
        boolean f = p.dtype == DType.FLOAT32;
        double beta1 = r(f, b1);
        double beta2 = r(f, b2);
        double decay = r(f, l2);
        double step = r(f, stepSize);
        double bc = r(f, bc2Sqrt);
        double e = r(f, eps);
        double c1 = r(f, 1 - beta1);
        double c2 = r(f, 1 - beta2);
        for (int i = from; i < to; i++) {
            double pi = p.getDouble(po + i);
            double gi = r(f, g.getDouble(go + i) + r(f, pi * decay));
            double mi = r(f, r(f, m.getDouble(mo + i) * beta1) + r(f, gi * c1));
            double vi = r(f, r(f, v.getDouble(vo + i) * beta2) + r(f, r(f, gi * gi) * c2));
            mi = Math.abs(mi) < FLUSH ? 0 : mi;
            vi = vi < FLUSH ? 0 : vi;
            m.setDouble(mo + i, mi);
            v.setDouble(vo + i, vi);
            double denom = r(f, r(f, r(f, Math.sqrt(vi)) / bc) + e);
            p.setDouble(po + i, r(f, pi - r(f, r(f, step * mi) / denom)));
        }
    }

    /** {@code x} rounded to float where {@code single}. */
    private static double r(boolean single, double x) {
        return single ? (float) x : x;
    }
}
