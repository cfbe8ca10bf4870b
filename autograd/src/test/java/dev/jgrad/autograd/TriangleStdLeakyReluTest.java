package dev.jgrad.autograd;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * tril, triu, std and leaky_relu, written once on the op surface from its primitives: their values and gradients are
 * PyTorch 2.13's (the expected numbers below are its output for the same inputs). The registry's rows check the
 * gradients against central differences.
 */
class TriangleStdLeakyReluTest {
    private static Tensor arange(int rows, int cols) {
        return Tensor.arange(0, rows * cols, 1, DType.FLOAT32).reshape(rows, cols);
    }

    @Test
    void trilAndTriuKeepTheirTriangleForEachDiagonal() {
        // torch.tril(torch.arange(12.).reshape(3, 4), -1) and torch.triu(..., 1)
        assertArrayEquals(new float[] {0, 0, 0, 0, 4, 0, 0, 0, 8, 9, 0, 0}, arange(3, 4).tril(-1).toFloatArray());
        assertArrayEquals(new float[] {0, 1, 2, 3, 0, 0, 6, 7, 0, 0, 0, 11}, arange(3, 4).triu(1).toFloatArray());
        assertArrayEquals(new float[] {0, 0, 0, 0, 4, 5, 0, 0, 8, 9, 10, 0}, arange(3, 4).tril().toFloatArray());
        assertArrayEquals(new float[] {0, 1, 2, 3, 0, 5, 6, 7, 0, 0, 10, 11}, arange(3, 4).triu().toFloatArray());
        // Diagonals past the matrix keep everything or nothing.
        assertArrayEquals(arange(3, 4).toFloatArray(), arange(3, 4).tril(3).toFloatArray());
        assertArrayEquals(new float[12], arange(3, 4).triu(4).toFloatArray());
    }

    @Test
    void trilAppliesToEachMatrixOfABatchAndKeepsTheType() {
        Tensor batch = Tensor.arange(0, 24, 1, DType.INT64).reshape(2, 3, 4);
        Tensor t = batch.tril();
        assertEquals(DType.INT64, t.dtype());
        assertArrayEquals(new int[] {2, 3, 4}, t.shape());
        assertArrayEquals(new long[] {0, 0, 0, 0, 4, 5, 0, 0, 8, 9, 10, 0, 12, 0, 0, 0, 16, 17, 0, 0, 20, 21, 22, 0},
                t.toLongArray());
        // A causal mask as attention takes it: ones on and below the diagonal.
        Tensor causal = Tensor.ones(DType.BOOL, 3, 3).tril();
        assertArrayEquals(new long[] {1, 0, 0, 1, 1, 0, 1, 1, 1}, causal.to(DType.INT64).toLongArray());
    }

    @Test
    void trilOfAVectorNamesTheShape() {
        ShapeException e = assertThrows(ShapeException.class, () -> Tensor.ones(5).tril());
        assertTrue(e.getMessage().contains("tril") && e.getMessage().contains("[5]"), e.getMessage());
        ShapeException u = assertThrows(ShapeException.class, () -> Tensor.scalar(1.0).triu(1));
        assertTrue(u.getMessage().contains("triu") && u.getMessage().contains("[]"), u.getMessage());
    }

    @Test
    void trilsGradientPassesOnlyWhereElementsWereKept() {
        Variable x = Variable.of(arange(3, 4), true);
        x.tril(-1).mul(3.0).sum().backward();
        assertArrayEquals(new float[] {0, 0, 0, 0, 3, 0, 0, 0, 3, 3, 0, 0}, x.grad().toFloatArray());
    }

    @Test
    void stdIsTheRootOfTheVarianceWithPyTorchsGradient() {
        // x = torch.tensor([[1., 2, 3], [4, 4, 4]], requires_grad=True); y = x.std(1); (y * torch.tensor([1., 2])).sum().backward()
        Variable x = Variable.of(Tensor.of(new float[] {1, 2, 3, 4, 4, 4}, 2, 3), true);
        Variable y = x.std(1, false);
        assertArrayEquals(new float[] {1, 0}, y.data().toFloatArray());
        y.mul(Variable.of(Tensor.of(1f, 2f))).sum().backward();
        // The second row has no spread: PyTorch gives it a zero gradient, not sqrt's NaN.
        assertArrayEquals(new float[] {-0.5f, 0, 0.5f, 0, 0, 0}, x.grad().toFloatArray(), 1e-7f);
    }

    @Test
    void stdOverAllElementsAndWithACorrection() {
        Tensor x = Tensor.of(new double[] {2, 4, 4, 4, 5, 5, 7, 9}, 8);
        assertEquals(Math.sqrt(32.0 / 7), x.std().item(), 1e-12);
        assertEquals(2.0, x.std(new int[] {0}, 0, false).item(), 1e-12);
        assertArrayEquals(new int[] {1}, x.std(0, true).shape());
        // One element and correction 1: 0 / 0, NaN as in PyTorch.
        assertTrue(Double.isNaN(Tensor.of(new double[] {3}, 1).std().item()));
    }

    @Test
    void stdsGradientAtZeroSpreadIsZeroAlsoInTheSecondOrder() {
        Variable x = Variable.of(Tensor.of(new double[] {4, 4, 4}, 3), true);
        Variable g = Autograd.grad(x.std(), x, true);
        assertArrayEquals(new double[] {0, 0, 0}, g.data().toDoubleArray());
        g.sum().backward();
        assertArrayEquals(new double[] {0, 0, 0}, x.grad().toDoubleArray());
    }

    @Test
    void leakyReluScalesTheNegativeSideAndZeroTakesTheSlope() {
        // torch.nn.functional.leaky_relu(torch.tensor([-2., 0, 3]), 0.1)
        Variable x = Variable.of(Tensor.of(new double[] {-2, 0, 3, Double.NaN}, 4), true);
        Variable y = x.leakyRelu(0.1);
        double[] v = y.data().toDoubleArray();
        assertArrayEquals(new double[] {-0.2, 0, 3}, java.util.Arrays.copyOf(v, 3), 1e-15);
        assertTrue(Double.isNaN(v[3]));
        y.sum().backward();
        // PyTorch's rule: x > 0 ? 1 : slope, so 0 and NaN take the slope.
        assertArrayEquals(new double[] {0.1, 0.1, 1, 0.1}, x.grad().toDoubleArray(), 1e-15);
        assertArrayEquals(new float[] {-0.02f, 5f}, Tensor.of(-2f, 5f).leakyRelu().toFloatArray(), 1e-9f);
    }

    @Test
    void leakyReluOfFloat32IsOnePassWithPyTorchsFloatSlope() {
        // x * 0.2f and g * 0.2f in float (PyTorch's scalar is a float for float tensors), NaN and both zeros included,
        // long enough for the vector loop and split among the threads.
        java.util.Random r = new java.util.Random(2);
        float[] v = new float[70_001];
        float[] w = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = i % 97 == 0 ? Float.NaN : i % 89 == 0 ? -0f : i % 83 == 0 ? 0f : (float) r.nextGaussian();
            w[i] = (float) r.nextGaussian();
        }
        Variable x = Variable.of(Tensor.of(v, v.length), true);
        Variable y = x.leakyRelu(0.2);
        y.mul(Variable.of(Tensor.of(w, w.length))).sum().backward();
        float[] got = y.data().toFloatArray();
        float[] grad = x.grad().toFloatArray();
        for (int i = 0; i < v.length; i++) {
            float want = v[i] > 0 ? v[i] : v[i] * 0.2f;
            assertEquals(Float.floatToIntBits(want), Float.floatToIntBits(got[i]), "leaky_relu(" + v[i] + ")");
            assertEquals(Float.floatToIntBits(v[i] > 0 ? w[i] : w[i] * 0.2f), Float.floatToIntBits(grad[i]), "gradient at " + v[i]);
        }
        // A strided view: the same values as its contiguous copy, in its own layout.
        Tensor m = Tensor.of(java.util.Arrays.copyOf(v, 70_000), 700, 100).t();
        assertArrayEquals(m.contiguous().leakyRelu(0.2).toFloatArray(), m.leakyRelu(0.2).toFloatArray());
    }
}
