package dev.jgrad.autograd;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.TensorIndexException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** cumsum: values, types and gradients as PyTorch 2.13 gives them (the expected numbers are its output). */
class CumsumTest {
    @Test
    void float32SumsRunInDoubleAsPyTorchsDo() {
        // torch.tensor([1e8, 1, 1, 1, 1, 1]).cumsum(0): a float32 accumulator would stay at 1e8.
        Tensor y = Tensor.of(1e8f, 1f, 1f, 1f, 1f, 1f).cumsum(0);
        assertArrayEquals(new float[] {1e8f, 1e8f, 1e8f, 1e8f, 1e8f, 100000008f}, y.toFloatArray());
        assertEquals(DType.FLOAT32, y.dtype());
    }

    @Test
    void float32IsFloat64sSumRoundedOnceAlongEveryDimAndSplit() {
        // Shapes whose lines run four at a time with some left over, whose blocks are split among threads, and whose
        // inner positions are (a leading dim of 1): each output is its double sum rounded once, whichever loop ran.
        dev.jgrad.tensor.Generator g = new dev.jgrad.tensor.Generator(4);
        for (int[] shape : new int[][] {{7, 300}, {3, 5, 1000}, {1, 4099, 6}, {6, 50, 40}, {9000}, {2, 3, 4}}) {
            Tensor x = Tensor.randn(g, shape).mul(1000.0).add(Tensor.randn(g, shape));
            for (int d = 0; d < shape.length; d++) {
                float[] want = x.to(DType.FLOAT64).cumsum(d).to(DType.FLOAT32).toFloatArray();
                assertArrayEquals(want, x.cumsum(d).toFloatArray(), java.util.Arrays.toString(shape) + " along " + d);
            }
        }
    }

    @Test
    void alongEachDimOfABatchAndOfAStridedView() {
        Tensor x = Tensor.arange(0, 24, 1, DType.FLOAT64).reshape(2, 3, 4);
        Tensor byMiddle = x.cumsum(1);
        assertArrayEquals(new double[] {0, 1, 2, 3, 4, 6, 8, 10, 12, 15, 18, 21}, java.util.Arrays.copyOf(byMiddle.toDoubleArray(), 12));
        assertArrayEquals(new double[] {0, 1, 3, 6}, java.util.Arrays.copyOf(x.cumsum(-1).toDoubleArray(), 4));
        assertArrayEquals(new double[] {12, 14, 16, 18}, java.util.Arrays.copyOfRange(x.cumsum(0).toDoubleArray(), 12, 16));
        // A transposed (non-contiguous) input sums along its own dim.
        Tensor t = x.select(0, 0).t();                                            // (4, 3): columns of the first matrix
        assertArrayEquals(new double[] {0, 4, 12, 1, 6, 15, 2, 8, 18, 3, 10, 21}, t.cumsum(1).toDoubleArray());
    }

    @Test
    void boolAndInt64GiveInt64() {
        Tensor b = Tensor.of(new double[] {1, 0, 1, 1, 1, 0}, 2, 3).ne(0.0);
        Tensor y = b.cumsum(1);
        assertEquals(DType.INT64, y.dtype());
        assertArrayEquals(new long[] {1, 1, 2, 1, 2, 2}, y.toLongArray());
        assertArrayEquals(new long[] {5, 12, 20}, Tensor.of(new double[] {5, 7, 8}, 3).to(DType.INT64).cumsum(0).toLongArray());
    }

    @Test
    void zeroDimsAndEmptyInputsAndBadDims() {
        assertEquals(3.0, Tensor.scalar(3.0).cumsum(0).item());
        assertEquals(3.0, Tensor.scalar(3.0).cumsum(-1).item());
        assertArrayEquals(new int[] {0, 3}, Tensor.zeros(0, 3).cumsum(0).shape());
        assertArrayEquals(new int[] {2, 0}, Tensor.zeros(2, 0).cumsum(0).shape());
        TensorIndexException e = assertThrows(TensorIndexException.class, () -> Tensor.ones(2, 3).cumsum(2));
        assertTrue(e.getMessage().contains("[-2, 1]") && e.getMessage().contains("2"), e.getMessage());
    }

    @Test
    void gradientIsTheReversedRunningSumOfTheOutputsGradient() {
        // x = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); (x.cumsum(1) * (torch.arange(24.).reshape(2, 3, 4) % 5)).sum().backward()
        Variable x = Variable.of(Tensor.arange(0, 24, 1, DType.FLOAT32).reshape(2, 3, 4), true);
        float[] weights = new float[24];
        for (int i = 0; i < 24; i++) {
            weights[i] = i % 5;
        }
        Tensor w = Tensor.of(weights, 2, 3, 4);
        x.cumsum(1).mul(Variable.of(w)).sum().backward();
        assertArrayEquals(new float[] {7, 5, 3, 6, 7, 4, 1, 3, 3, 4, 0, 1, 3, 6, 9, 7, 1, 3, 5, 7, 0, 1, 2, 3}, x.grad().toFloatArray());
        Variable s = Variable.of(Tensor.scalar(2.0), true);
        s.cumsum(0).mul(3.0).backward();
        assertEquals(3.0, s.grad().item());
    }
}
