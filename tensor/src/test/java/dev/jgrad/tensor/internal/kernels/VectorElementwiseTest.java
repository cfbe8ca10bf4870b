package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.UnaryOp;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The vector loops against the plain ones: accuracy of exp and tanh, and every vectorised op on a long row. */
@Tag(VectorKernelsOnly.TAG)
class VectorElementwiseTest {
    private static float[] grid(float lo, float hi, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = lo + (hi - lo) * i / (n - 1);
        }
        return v;
    }

    /** Softmax (or log-softmax) of one row in double precision, the reference for the vector loops. */
    private static float[] plainSoftmax(float[] x, boolean log) {
        double m = Double.NEGATIVE_INFINITY;
        for (float f : x) {
            m = Math.max(m, f);
        }
        double z = 0;
        for (float f : x) {
            z += Math.exp(f - m);
        }
        float[] p = new float[x.length];
        for (int i = 0; i < x.length; i++) {
            p[i] = (float) (log ? x[i] - m - Math.log(z) : Math.exp(x[i] - m) / z);
        }
        return p;
    }

    /** The Vector API families themselves (the build runs these tests with the module; check() fails otherwise). */
    private static ElementwiseKernels ELEMENTWISE;
    private static SoftmaxKernels SOFTMAX;
    private static ReductionKernels REDUCTIONS;
    private static OptimizerKernels OPTIMIZER;

    @BeforeAll
    static void vectorKernelsInUse() {
        VectorKernelsRequired.check();
        ELEMENTWISE = new VectorElementwise();
        SOFTMAX = new VectorSoftmax();
        REDUCTIONS = new VectorReductions();
        OPTIMIZER = new VectorOptimizer();
    }

    @Test
    void expIsWithinTwoUlpOfMathExpAndHandlesTheEdges() {
        float[] x = grid(-100, 100, 200_003);
        float[] y = new float[x.length];
        ELEMENTWISE.unary(UnaryOp.EXP, x, 0, y, 0, x.length);
        for (int i = 0; i < x.length; i++) {
            float want = (float) Math.exp(x[i]);
            if (want < Float.MIN_NORMAL) {
                assertEquals(0f, y[i], Float.MIN_NORMAL, "exp(" + x[i] + ") flushes subnormal results to zero");
                continue;
            }
            assertEquals(want, y[i], 2 * Math.ulp(want), "exp(" + x[i] + ")");
        }
        float[] edges = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0f, -0f, 88f, -87f, 89f, -88f, 1e-30f,
            Float.NaN, 1f, -1f, 10f, -10f, 0.5f};
        float[] out = new float[edges.length];
        ELEMENTWISE.unary(UnaryOp.EXP, edges, 0, out, 0, edges.length);
        assertTrue(Float.isNaN(out[0]) && Float.isNaN(out[10]));
        assertEquals(Float.POSITIVE_INFINITY, out[1]);
        assertEquals(0f, out[2]);
        assertEquals(1f, out[3]);
        assertEquals(Float.POSITIVE_INFINITY, out[7]);
    }

    @Test
    void tanhIsAccurateNearZeroAndSaturates() {
        float[] x = grid(-20, 20, 100_001);
        float[] y = new float[x.length];
        ELEMENTWISE.unary(UnaryOp.TANH, x, 0, y, 0, x.length);
        for (int i = 0; i < x.length; i++) {
            double want = Math.tanh(x[i]);
            assertEquals(want, y[i], 3e-7 * Math.abs(want) + 1e-30, "tanh(" + x[i] + ")");
        }
        float[] tiny = {1e-6f, -3e-5f, 0f, 1e-38f, 0.19999f, 0.20001f, -0.2f, 1e-3f, 5e-2f, -0.15f, 0.1f, 0.3f, 7f, -7f, 30f, -30f};
        float[] t = new float[tiny.length];
        ELEMENTWISE.unary(UnaryOp.TANH, tiny, 0, t, 0, tiny.length);
        for (int i = 0; i < tiny.length; i++) {
            assertEquals(Math.tanh(tiny[i]), t[i], 3e-7 * Math.abs(Math.tanh(tiny[i])) + 1e-45, "tanh(" + tiny[i] + ")");
        }
    }

    @Test
    void everyVectorisedUnaryOpAgreesWithThePlainLoop() {
        float[] x = grid(-6, 6, 1001);
        for (UnaryOp op : UnaryOp.values()) {
            float[] v = new float[x.length];
            if (!op.differentiable()) {
                continue;
            }
            ELEMENTWISE.unary(op, x, 0, v, 0, x.length);
            for (int i = 0; i < x.length; i++) {
                double want = op.apply(x[i]);
                if (Double.isNaN(want)) {
                    assertTrue(Float.isNaN(v[i]), op + "(" + x[i] + ")");
                } else {
                    assertEquals(want, v[i], 4e-7 * Math.abs(want) + 1e-6, op + "(" + x[i] + ")");
                }
            }
        }
    }

    @Test
    void softmaxRowsAndSumsAgreeWithThePlainLoops() {
        float[] x = grid(-30, 25, 1027);
        float[] a = new float[x.length];
        SOFTMAX.row(x, 0, 1, a, 0, 1, x.length, false);
        assertArrayEquals(plainSoftmax(x, false), a, 1e-7f);
        double s = 0;
        for (float f : x) {
            s += f;
        }
        assertEquals(s, REDUCTIONS.sum(x, 0, 1, x.length), 1e-3);
    }

    @Test
    void softmaxExpIsWithinTwoUlpAndGivesZeroFarBelowTheMaximum() {
        float[] x = grid(-100, 0, 100_003);
        float[] y = new float[x.length];
        double sum = SOFTMAX.expShifted(x, 0, y, 0, x.length, 0f, 1.0);
        double want = 0;
        for (int i = 0; i < x.length; i++) {
            float e = (float) Math.exp(x[i]);
            want += y[i];
            if (e < Float.MIN_NORMAL) {
                assertEquals(e, y[i], Float.MIN_NORMAL, "e^" + x[i] + " is at most subnormal");
                continue;
            }
            assertEquals(e, y[i], 2 * Math.ulp(e), "e^" + x[i]);
        }
        assertEquals(want, sum, 1e-6 * want, "the returned sum is the sum of the results (added in float lanes)");
        float[] edges = {Float.NEGATIVE_INFINITY, Float.NaN, -88.5f, -200f, 0f, -0f, -87f, -1e-30f,
            Float.NEGATIVE_INFINITY, -1f, -2f, -3f, -4f, -5f, -6f, -7f, -8f};
        float[] out = new float[edges.length];
        SOFTMAX.expShifted(edges, 0, out, 0, edges.length, 0f, 1.0);
        assertEquals(0f, out[0]);
        assertTrue(Float.isNaN(out[1]));
        assertEquals(0f, out[2]);
        assertEquals(0f, out[3]);
        assertEquals(1f, out[4]);
        assertEquals(1f, out[5]);
        assertEquals(0f, out[8]);
        assertEquals((float) Math.exp(-8), out[16], Math.ulp((float) Math.exp(-8)), "the scalar tail");
    }

    @Test
    void logSoftmaxRowAndMaxAgreeWithThePlainLoops() {
        float[] x = grid(-40, 35, 1029);
        float[] a = new float[x.length];
        SOFTMAX.row(x, 0, 1, a, 0, 1, x.length, true);
        assertArrayEquals(plainSoftmax(x, true), a, 2e-5f);
        assertEquals(35f, SOFTMAX.max(x, 0, x.length));
        x[517] = Float.NaN;
        assertTrue(Float.isNaN(SOFTMAX.max(x, 0, x.length)));
    }

    @Test
    void adamKernelMatchesItsScalarReferenceBitForBit() {
        Generator gen = new Generator(3);
        int n = 37;
        float[][] a = new float[4][];
        for (int k = 0; k < 4; k++) {
            a[k] = Tensor.randn(gen, n).toFloatArray();
        }
        for (int i = 0; i < n; i++) {
            a[3][i] = Math.abs(a[3][i]);
        }
        float[][] b = new float[4][];
        for (int k = 0; k < 4; k++) {
            b[k] = a[k].clone();
        }
        OPTIMIZER.adam(a[0], 0, a[1], 0, a[2], 0, a[3], 0, n, (float) AdamKernelTest.B1, (float) AdamKernelTest.B2, (float) AdamKernelTest.L2, (float) AdamKernelTest.STEP,
                (float) AdamKernelTest.BC2, (float) AdamKernelTest.EPS);
        PlainKernels.Optimizer.adamRange(b[0], 0, b[1], 0, b[2], 0, b[3], 0, 0, n, (float) AdamKernelTest.B1, (float) AdamKernelTest.B2,
                (float) AdamKernelTest.L2, (float) AdamKernelTest.STEP, (float) AdamKernelTest.BC2, (float) AdamKernelTest.EPS);
        assertArrayEquals(b[0], a[0]);
        assertArrayEquals(b[2], a[2]);
        assertArrayEquals(b[3], a[3]);
    }

    /**
     * The LSTM cell's backward row, vector against plain: the same bits for every gradient it writes, at a width of whole
     * vectors and at one with a tail, from offsets inside larger arrays (as FusedLstm passes them).
     */
    @Test
    void lstmCellBackwardGivesThePlainLoopsBits() {
        java.util.Random r = new java.util.Random(7);
        ElementwiseKernels plain = PlainKernels.PROVIDER.elementwise();
        for (int h : new int[] {128, 37}) {
            float[] dy = new float[5 + 2 * h];
            float[] gates = new float[3 + 4 * h];
            float[] tc = new float[2 + h];
            float[] hPrev = new float[4 + h];
            float[] dh = new float[1 + h];
            float[] dc = new float[1 + h];
            for (float[] v : new float[][] {dy, tc, hPrev, dh, dc}) {
                for (int i = 0; i < v.length; i++) {
                    v[i] = (float) r.nextGaussian();
                }
            }
            for (int i = 0; i < gates.length; i++) {
                gates[i] = r.nextFloat();
            }
            float[] dcPlain = dc.clone();
            float[] dGatesPlain = new float[3 + 4 * h];
            float[] dGates = new float[3 + 4 * h];
            plain.lstmCellBackward(dy, 5, dh, dcPlain, 1, gates, 3, tc, 2, hPrev, 4, dGatesPlain, h);
            ELEMENTWISE.lstmCellBackward(dy, 5, dh, dc, 1, gates, 3, tc, 2, hPrev, 4, dGates, h);
            assertArrayEquals(dGatesPlain, dGates, 0f, "gates' gradients, h " + h);
            assertArrayEquals(dcPlain, dc, 0f, "cell's gradient, h " + h);
            assertTrue(dGates[3] != 0 && dGates[3 + 4 * h - 1] != 0, "every gate written");
        }
    }
}
