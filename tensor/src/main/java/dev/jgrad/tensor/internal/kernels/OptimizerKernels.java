package dev.jgrad.tensor.internal.kernels;

/**
 * Optimizer updates over arrays: Adam's step in one pass. The float32 update runs the Vector API kernel where it is in
 * use; the plain loops here are its reference and its tail, and the float64 update.
 */
public final class OptimizerKernels {
    /**
     * Adam's moments below this magnitude become 0. A moment whose gradient stopped (a dead ReLU unit)
     * decays geometrically into subnormal floats, where each multiply costs the CPU some hundred times
     * more; the update such a moment would make is below 1e-21 of the learning rate.
     */
    public static final float FLUSH = 1e-30f;

    private OptimizerKernels() {
    }

    /** One Adam step over {@code n} contiguous float32 elements of each array (see {@code AdamStep} for the formula). */
    public static void adam(float[] p, int po, float[] g, int go, float[] m, int mo, float[] v, int vo, int n,
                            float b1, float b2, float l2, float stepSize, float bc2Sqrt, float eps) {
        if (Simd.ENABLED && n >= 16) {
            VectorElementwise.adam(p, po, g, go, m, mo, v, vo, n, b1, b2, l2, stepSize, bc2Sqrt, eps);
        } else {
            adamPlain(p, po, g, go, m, mo, v, vo, 0, n, b1, b2, l2, stepSize, bc2Sqrt, eps);
        }
    }

    /**
     * The float32 reference of {@link #adam} over elements {@code [from, to)}: every operation in float, so the tail of
     * the vector kernel computes what its body does.
     */
    public static void adamPlain(float[] p, int po, float[] g, int go, float[] m, int mo, float[] v, int vo, int from, int to,
                          float b1, float b2, float l2, float stepSize, float bc2Sqrt, float eps) {
        float c1 = 1 - b1;
        float c2 = 1 - b2;
        for (int i = from; i < to; i++) {
            float pi = p[po + i];
            float gi = g[go + i] + pi * l2;
            float mi = m[mo + i] * b1 + gi * c1;
            float vi = v[vo + i] * b2 + gi * gi * c2;
            mi = Math.abs(mi) < FLUSH ? 0 : mi;
            vi = vi < FLUSH ? 0 : vi;
            m[mo + i] = mi;
            v[vo + i] = vi;
            float denom = (float) Math.sqrt(vi) / bc2Sqrt + eps;
            p[po + i] = pi - stepSize * mi / denom;
        }
    }

    /** One Adam step over {@code n} contiguous float64 elements of each array. */
    public static void adam(double[] p, int po, double[] g, int go, double[] m, int mo, double[] v, int vo, int n,
                            double b1, double b2, double l2, double stepSize, double bc2Sqrt, double eps) {
        double c1 = 1 - b1;
        double c2 = 1 - b2;
        for (int i = 0; i < n; i++) {
            double pi = p[po + i];
            double gi = g[go + i] + pi * l2;
            double mi = m[mo + i] * b1 + gi * c1;
            double vi = v[vo + i] * b2 + gi * gi * c2;
            mi = Math.abs(mi) < FLUSH ? 0 : mi;
            vi = vi < FLUSH ? 0 : vi;
            m[mo + i] = mi;
            v[vo + i] = vi;
            double denom = Math.sqrt(vi) / bc2Sqrt + eps;
            p[po + i] = pi - stepSize * mi / denom;
        }
    }
}
