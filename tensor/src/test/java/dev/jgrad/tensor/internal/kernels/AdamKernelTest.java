package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.internal.fused.AdamStep;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The fused Adam step on float64 and strided parameters against the formula (VectorElementwiseTest checks the vector kernel against its reference). */
class AdamKernelTest {
    static final double B1 = 0.9;
    static final double B2 = 0.99;
    static final double L2 = 0.01;
    static final double STEP = 0.003;
    static final double BC2 = Math.sqrt(1 - 0.99 * 0.99);
    static final double EPS = 1e-8;

    @Test
    void float64AndStridedParametersFollowTheFormula() {
        Generator gen = new Generator(5);
        for (boolean strided : new boolean[] {false, true}) {
            Tensor base = Tensor.randn(gen, 3, 4).to(DType.FLOAT64);
            Tensor p = strided ? base.t() : base;
            double[] p0 = p.toDoubleArray();
            Tensor g = Tensor.randn(gen, p.shape()).to(DType.FLOAT64);
            Tensor m = Tensor.randn(gen, p.shape()).to(DType.FLOAT64);
            Tensor v = Tensor.rand(gen, p.shape()).to(DType.FLOAT64);
            double[] g0 = g.toDoubleArray();
            double[] m0 = m.toDoubleArray();
            double[] v0 = v.toDoubleArray();
            dev.jgrad.tensor.internal.fused.AdamStep.adam(p, g, m, v, B1, B2, L2, STEP, BC2, EPS);
            double[] got = p.toDoubleArray();
            for (int i = 0; i < p0.length; i++) {
                double gi = g0[i] + L2 * p0[i];
                double mi = B1 * m0[i] + (1 - B1) * gi;
                double vi = B2 * v0[i] + (1 - B2) * gi * gi;
                assertEquals(p0[i] - STEP * mi / (Math.sqrt(vi) / BC2 + EPS), got[i], 1e-15, "element " + i + " strided " + strided);
                assertEquals(mi, m.toDoubleArray()[i], 1e-15);
            }
        }
    }

    /** {@code x} rounded to float. */
    private static double r(double x) {
        return (float) x;
    }

    /**
     * The float32 plain loop is the formula with every operation rounded to float: the same values as computing each
     * operation in double and rounding it, which is how the reference was first written.
     */
    @Test
    void float32PlainLoopRoundsEveryOperationToFloat() {
        Generator gen = new Generator(9);
        int n = 101;
        float[] p = Tensor.randn(gen, n).toFloatArray();
        float[] g = Tensor.randn(gen, n).toFloatArray();
        float[] m = Tensor.randn(gen, n).mul(1e-3).toFloatArray();
        float[] v = Tensor.rand(gen, n).mul(1e-3).toFloatArray();
        float[] p0 = p.clone();
        float[] m0 = m.clone();
        float[] v0 = v.clone();
        m[7] = m0[7] = 1e-31f;
        float b1 = (float) B1;
        float b2 = (float) B2;
        float l2 = (float) L2;
        float step = (float) STEP;
        float bc = (float) BC2;
        float eps = (float) EPS;
        PlainKernels.Optimizer.adamRange(p, 0, g, 0, m, 0, v, 0, 0, n, b1, b2, l2, step, bc, eps);
        for (int i = 0; i < n; i++) {
            double gi = r(g[i] + r((double) p0[i] * l2));
            double mi = r(r((double) m0[i] * b1) + r(gi * r(1.0 - b1)));
            double vi = r(r((double) v0[i] * b2) + r(r(gi * gi) * r(1.0 - b2)));
            mi = Math.abs(mi) < OptimizerKernels.FLUSH ? 0 : mi;
            vi = vi < OptimizerKernels.FLUSH ? 0 : vi;
            double denom = r(r(r(Math.sqrt(vi)) / bc) + eps);
            assertEquals((float) r(p0[i] - r(r(step * mi) / denom)), p[i], 0f, "element " + i);
            assertEquals((float) mi, m[i], 0f, "first moment of element " + i);
            assertEquals((float) vi, v[i], 0f, "second moment of element " + i);
        }
    }
}
