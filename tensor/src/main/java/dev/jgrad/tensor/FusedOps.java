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

    /** Whether {@link #adam} can run on these tensors: float32, contiguous, one shape, no shared storage. */
    public static boolean adamApplies(Tensor p, Tensor g, Tensor m, Tensor v) {
        Tensor[] all = {p, g, m, v};
        for (Tensor t : all) {
            if (t.dtype() != DType.FLOAT32 || !t.isContiguous() || !java.util.Arrays.equals(t.shape, p.shape)) {
                return false;
            }
        }
        return p.storage != g.storage && p.storage != m.storage && p.storage != v.storage && m.storage != v.storage;
    }

    /**
     * One Adam step in place, PyTorch's formula: {@code g' = g + l2 * p}; {@code m = b1 m + (1-b1) g'};
     * {@code v = b2 v + (1-b2) g'^2}; {@code p -= stepSize * m / (sqrt(v) / bc2Sqrt + eps)}. Decoupled
     * decay (AdamW) is applied by the caller before ({@code p *= 1 - lr * wd}). Moments below {@link #FLUSH}
     * become 0.
     */
    public static void adam(Tensor p, Tensor g, Tensor m, Tensor v, double b1, double b2, double l2, double stepSize,
                            double bc2Sqrt, double eps) {
        if (!adamApplies(p, g, m, v)) {
            throw new IllegalArgumentException("FusedOps.adam needs contiguous float32 tensors of one shape; use the tensor ops");
        }
        int n = p.numel();
        if (Simd.ENABLED && n >= 16) {
            VectorElementwise.adam(p.storage.f, p.offset, g.storage.f, g.offset, m.storage.f, m.offset, v.storage.f, v.offset, n,
                    (float) b1, (float) b2, (float) l2, (float) stepSize, (float) bc2Sqrt, (float) eps);
        } else {
            adamPlain(p.storage.f, p.offset, g.storage.f, g.offset, m.storage.f, m.offset, v.storage.f, v.offset, 0, n,
                    (float) b1, (float) b2, (float) l2, (float) stepSize, (float) bc2Sqrt, (float) eps);
        }
        p.storage.bumpVersion();
        m.storage.bumpVersion();
        v.storage.bumpVersion();
    }

    static void adamPlain(float[] p, int po, float[] g, int go, float[] m, int mo, float[] v, int vo, int from, int to,
                          float b1, float b2, float l2, float stepSize, float bc2Sqrt, float eps) {
        for (int i = from; i < to; i++) {
            float gi = g[go + i] + l2 * p[po + i];
            float mi = b1 * m[mo + i] + (1 - b1) * gi;
            float vi = b2 * v[vo + i] + (1 - b2) * gi * gi;
            mi = Math.abs(mi) < FLUSH ? 0f : mi;
            vi = vi < FLUSH ? 0f : vi;
            m[mo + i] = mi;
            v[vo + i] = vi;
            p[po + i] -= stepSize * mi / ((float) Math.sqrt(vi) / bc2Sqrt + eps);
        }
    }
}
