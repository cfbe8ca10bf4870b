package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.MathFns;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ElementwiseTest {
    @Test
    void scalarOperandsOnEitherSide() {
        Tensor a = Tensor.of(1f, 2f, 4f);
        assertArrayEquals(new float[] {-1.5f, -0.5f, 1.5f}, a.sub(2.5).toFloatArray());
        assertArrayEquals(new float[] {1.5f, 0.5f, -1.5f}, a.rsub(2.5).toFloatArray());
        assertArrayEquals(new float[] {2f, 1f, 0.5f}, a.rdiv(2).toFloatArray());
        assertArrayEquals(new float[] {2f, 4f, 16f}, a.rpow(2).toFloatArray());
        assertEquals(DType.FLOAT32, a.mul(2.0).dtype(), "a Java double keeps float32, as a Python float does");
    }

    @Test
    void typePromotionFollowsPyTorch() {
        Tensor f32 = Tensor.of(1f, 2f);
        Tensor f64 = Tensor.of(new double[] {1, 2}, 2);
        Tensor i64 = Tensor.of(new long[] {1, 2}, 2);
        assertEquals(DType.FLOAT64, f32.add(f64).dtype());
        assertEquals(DType.FLOAT32, i64.add(f32).dtype());
        assertEquals(DType.FLOAT32, i64.div(i64).dtype(), "true division of ints is float");
        assertEquals(DType.INT64, i64.add(i64).dtype());
        assertEquals(DType.FLOAT32, f32.add(Tensor.scalar(1, DType.FLOAT64)).dtype(), "a 0-d tensor does not raise the type within a category");
        assertEquals(DType.FLOAT64, i64.add(Tensor.scalar(1, DType.FLOAT64)).dtype(), "a 0-d float tensor raises an int tensor");
        assertEquals(DType.BOOL, f32.gt(1.5).dtype());
    }

    @Test
    void unaryFunctionsAgreeWithMath() {
        double[] xs = {-3, -0.5, 0, 0.25, 2};
        Tensor x = Tensor.of(xs, xs.length);
        double[] gelu = x.gelu().toDoubleArray();
        double[] geluTanh = x.gelu(true).toDoubleArray();
        double[] silu = x.silu().toDoubleArray();
        double[] sig = x.sigmoid().toDoubleArray();
        for (int i = 0; i < xs.length; i++) {
            double v = xs[i];
            assertEquals(0.5 * v * (1 + MathFns.erf(v / Math.sqrt(2))), gelu[i], 1e-15);
            assertEquals(0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v * v * v))), geluTanh[i], 1e-15);
            assertEquals(v / (1 + Math.exp(-v)), silu[i], 1e-15);
            assertEquals(1 / (1 + Math.exp(-v)), sig[i], 1e-15);
        }
    }

    @Test
    void erfMatchesReferenceValues() {
        assertEquals(0.8427007929497149, MathFns.erf(1.0), 2e-16);
        assertEquals(0.5204998778130465, MathFns.erf(0.5), 2e-16);
        assertEquals(0.9953222650189527, MathFns.erf(2.0), 4e-16);
        assertEquals(-0.9999779095030014, MathFns.erf(-3.0), 4e-16);
        assertEquals(0.9999999845827421, MathFns.erf(4.0), 4e-16);
        assertEquals(0.0, MathFns.erf(0.0));
    }

    @Test
    void floatErfIsAccurateToFloatPrecisionEverywhere() {
        for (double x = -7; x <= 7; x += 0.001) {
            double exact = MathFns.erf(x);
            double fast = MathFns.erfFloat(x);
            assertEquals(exact, fast, 1e-7 * Math.abs(exact), "erf(" + x + ")");
            assertTrue(Math.abs(fast) <= 1, "|erf(" + x + ")| <= 1");
        }
        assertTrue(Double.isNaN(MathFns.erfFloat(Double.NaN)), "NaN stays NaN");
        assertEquals(1.0, MathFns.erfFloat(Double.POSITIVE_INFINITY));
        assertEquals(-1.0, MathFns.erfFloat(Double.NEGATIVE_INFINITY));
        for (double x = 1e-12; x < 0.5; x *= 3) {
            assertEquals(MathFns.erf(x), MathFns.erfFloat(x), 1e-7 * MathFns.erf(x), "relative accuracy near 0 at " + x);
        }
    }

    @Test
    void whereBroadcastsAllThreeAndMaskedFillTakesBoolOnly() {
        Tensor c = Tensor.of(new boolean[] {true, false, true}, 3, 1);
        Tensor a = Tensor.of(1f, 2f);
        Tensor y = Tensor.where(c, a, -1.0);
        assertArrayEquals(new int[] {3, 2}, y.shape());
        assertArrayEquals(new float[] {1, 2, -1, -1, 1, 2}, y.toFloatArray());
        assertThrows(DTypeException.class, () -> a.maskedFill(Tensor.of(1f, 0f), 0));
        assertArrayEquals(new float[] {9, 2}, a.maskedFill(Tensor.of(new boolean[] {true, false}, 2), 9).toFloatArray());
    }

    @Test
    void clampWithOneBound() {
        Tensor x = Tensor.of(-1f, 0.5f, 3f);
        assertArrayEquals(new float[] {0.25f, 0.5f, 3f}, x.clampMin(0.25).toFloatArray());
        assertArrayEquals(new float[] {-1f, 0.5f, 1f}, x.clampMax(1).toFloatArray());
    }

    @Test
    void comparisonOfZeroSizeShapes() {
        assertArrayEquals(new int[] {0, 3}, Tensor.zeros(0, 3).gt(Tensor.zeros(1, 3)).shape());
        ShapeException e = assertThrows(ShapeException.class, () -> Tensor.zeros(0, 3).ge(Tensor.zeros(2, 3)));
        assertTrue(e.getMessage().startsWith("The size of tensor a (0) must match the size of tensor b (2) at non-singleton dimension 0"));
    }

    @Test
    void stridedOperandsGiveTheSameValuesAsContiguousOnes() {
        Tensor x = Tensor.arange(0, 24, 1, DType.FLOAT32).reshape(2, 3, 4);
        Tensor t = x.transpose(0, 2);
        // Contiguous rows take the vector loop, strided ones the plain one: they may differ by an ulp.
        float[] viaRows = t.contiguous().exp().toFloatArray();
        float[] strided = t.exp().toFloatArray();
        for (int i = 0; i < strided.length; i++) {
            assertEquals(viaRows[i], strided[i], 3 * Math.ulp(viaRows[i]));
        }
        assertArrayEquals(t.contiguous().mul(t.contiguous()).toFloatArray(), t.mul(t).toFloatArray());
    }

    @Test
    @org.junit.jupiter.api.extension.ExtendWith(AllThreads.class)
    void broadcastRunsOfShortRowsMatchElementByElementWhereverTheThreadsSplitThem() {
        // 555 rows of 300, in runs of 5 along dim 2: two threads split the rows in the middle of a run.
        Generator g = new Generator(31);
        Tensor p = Tensor.randn(g, 3, 37, 1, 300);
        Tensor q = Tensor.randn(g, 300, 5, 37).permute(2, 1, 0).unsqueeze(0);
        for (int threads : new int[] {1, 2}) {
            Backend.setThreads(threads);
            float[] got = p.sub(q).toFloatArray();
            float[] pv = p.toFloatArray();
            float[] qv = q.contiguous().toFloatArray();
            int i = 0;
            for (int a = 0; a < 3; a++) {
                for (int b = 0; b < 37; b++) {
                    for (int c = 0; c < 5; c++) {
                        for (int d = 0; d < 300; d++) {
                            float want = pv[(a * 37 + b) * 300 + d] - qv[(b * 5 + c) * 300 + d];
                            assertEquals(want, got[i++], 0f, "threads " + threads + " at " + a + "," + b + "," + c + "," + d);
                        }
                    }
                }
            }
            float[] contiguous = p.sub(q.contiguous()).toFloatArray();
            assertArrayEquals(contiguous, got, "a strided operand gives the values of its contiguous copy");
        }
    }
}
