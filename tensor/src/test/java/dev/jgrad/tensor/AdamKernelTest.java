package dev.jgrad.tensor;

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
            FusedOps.adam(p, g, m, v, B1, B2, L2, STEP, BC2, EPS);
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
}
