package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** norm, repeat and oneHot against the values PyTorch 2.13 gives for the same calls (printed in float64). */
class NormRepeatOneHotTest {
    /** Rows with zeros in them, a row of zeros, and a tie for the largest |x|. */
    private static final Tensor X = Tensor.of(new double[] {0, -1.5, 2, 0, 0, 0, 0, 0, 3, -3, 1, 0.5}, 3, 4);

    @Test
    void normsAlongADimAreTorchLinalgVectorNorms() {
        assertArrayEquals(new double[] {2.5, 0, 4.387482193696061}, X.norm(2, 1, false).toDoubleArray(), 1e-15);
        assertArrayEquals(new double[] {3.5, 0, 7.5}, X.norm(1, 1, false).toDoubleArray(), 1e-15);
        assertArrayEquals(new double[] {2, 0, 3}, X.norm(Double.POSITIVE_INFINITY, 1, false).toDoubleArray());
        assertArrayEquals(new double[] {0, 0, 0.5}, X.norm(Double.NEGATIVE_INFINITY, 1, false).toDoubleArray());
        assertArrayEquals(new double[] {2, 0, 4}, X.norm(0, 1, false).toDoubleArray());
        assertArrayEquals(new double[] {2.7921251882400147, 0, 5.167214655212568}, X.norm(1.5, 1, false).toDoubleArray(), 1e-14);
        assertArrayEquals(new double[] {2.2489707226377074, 0, 3.805831305510122}, X.norm(3, 1, false).toDoubleArray(), 1e-14);
        assertArrayEquals(new double[] {6.964101615137755, 0, 26.741396278214964}, X.norm(0.5, 1, false).toDoubleArray(), 1e-13);
        assertEquals(5.049752469181039, X.norm().item(), 1e-15);
        assertEquals(0.6666666666666666, Tensor.of(new double[] {1, 2}, 2).norm(-1).item(), 1e-15);
        assertEquals(0.0, Tensor.of(new double[] {1, 0}, 2).norm(-1).item(), "a zero element makes a negative order's norm 0");
    }

    @Test
    void keepdimAndSeveralDimsKeepTheirShapes() {
        Tensor t = Tensor.arange(24).to(DType.FLOAT32).reshape(2, 3, 4);
        assertArrayEquals(new int[] {2, 1, 4}, t.norm(2, 1, true).shape());
        assertArrayEquals(new int[] {3}, t.norm(2, new int[] {0, 2}, false).shape());
        assertEquals(DType.FLOAT32, t.norm().dtype());
        Tensor byHand = t.square().sum(new int[] {0, 2}, false).sqrt();
        assertArrayEquals(byHand.toFloatArray(), t.norm(2, new int[] {0, 2}, false).toFloatArray(), 1e-5f);
        assertArrayEquals(new double[] {0, 0, 0}, Tensor.zeros(DType.FLOAT64, 0, 3).norm(2, 0, false).toDoubleArray());
    }

    @Test
    void normRefusesIntegersAndNaNOrders() {
        assertEquals("norm: expected a floating-point tensor, got int64",
                assertThrows(DTypeException.class, () -> Tensor.arange(3).norm()).getMessage());
        assertThrows(IllegalArgumentException.class, () -> X.norm(Double.NaN));
    }

    @Test
    void repeatTilesAsTorchRepeat() {
        Tensor m = Tensor.of(new float[] {1, 2, 3, 4}, 2, 2);
        Tensor r = m.repeat(2, 1, 3);
        assertArrayEquals(new int[] {2, 2, 6}, r.shape());
        float[] row = {1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4};
        float[] want = new float[24];
        System.arraycopy(row, 0, want, 0, 12);
        System.arraycopy(row, 0, want, 12, 12);
        assertArrayEquals(want, r.toFloatArray());
        assertArrayEquals(new float[] {1, 2, 3, 4, 1, 2, 3, 4}, m.repeat(2, 1).toFloatArray());
        assertArrayEquals(new int[] {0, 4}, Tensor.of(1f, 2f).repeat(0, 2).shape());
        Tensor strided = Tensor.arange(6).reshape(2, 3).t();
        assertArrayEquals(new long[] {0, 3, 0, 3, 1, 4, 1, 4, 2, 5, 2, 5}, strided.repeat(1, 2).toLongArray());
        r.fill(0);
        assertArrayEquals(new float[] {1, 2, 3, 4}, m.toFloatArray(), "a repeat is a copy");
        Tensor once = m.repeat(1, 1);
        once.fill(0);
        assertArrayEquals(new float[] {1, 2, 3, 4}, m.toFloatArray(), "a repeat of counts 1 is a copy too");
        assertArrayEquals(new float[] {5}, Tensor.scalar(5f).repeat().toFloatArray());
        assertArrayEquals(new int[] {2, 3}, Tensor.scalar(5f).repeat(2, 3).shape());
    }

    @Test
    void repeatRefusesFewerCountsThanDimsAndNegativeCounts() {
        Tensor m = Tensor.zeros(1, 2);
        assertTrue(assertThrows(ShapeException.class, () -> m.repeat(2)).getMessage().startsWith("repeat: 1 repeat count(s) for a tensor of 2 dims"));
        assertTrue(assertThrows(ShapeException.class, () -> m.repeat(-1, 2)).getMessage().contains("dim 0 is -1"));
    }

    @Test
    void oneHotIsFOneHot() {
        assertArrayEquals(new long[] {1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0}, Tensor.of(new long[] {0, 2, 1}, 3).oneHot(4).toLongArray());
        Tensor inferred = Tensor.of(new long[] {0, 2}, 1, 2).oneHot(-1);
        assertArrayEquals(new int[] {1, 2, 3}, inferred.shape());
        assertEquals(DType.INT64, inferred.dtype());
        assertArrayEquals(new int[] {0, 3}, Tensor.zeros(DType.INT64, 0).oneHot(3).shape());
    }

    @Test
    void oneHotNamesTheClassOutOfRange() {
        assertEquals("oneHot: class 4 is out of range for 4 classes (0 to 3)",
                assertThrows(TensorIndexException.class, () -> Tensor.of(new long[] {0, 4}, 2).oneHot(4)).getMessage());
        assertTrue(assertThrows(TensorIndexException.class, () -> Tensor.of(new long[] {-1}, 1).oneHot(3)).getMessage().contains("negative"));
        assertEquals("oneHot: takes int64 classes, got float32",
                assertThrows(DTypeException.class, () -> Tensor.of(0f).oneHot(3)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(DType.INT64, 0).oneHot(-1));
    }
}
