package dev.jgrad.autograd;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** round and expm1, two elementwise ops declared once in UnaryOp: values and gradients as PyTorch 2.13 gives them. */
class RoundExpm1Test {
    @Test
    void roundTakesHalvesToTheEvenIntegerAsPyTorch() {
        // torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5, 2.4999, -2.6, 8388609., inf, nan]).round()
        float[] y = Tensor.of(0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 2.4999f, -2.6f, 8388609f, Float.POSITIVE_INFINITY, Float.NaN)
                .round().toFloatArray();
        assertArrayEquals(new float[] {0f, 2f, 2f, -0f, -2f, 2f, -3f, 8388609f, Float.POSITIVE_INFINITY, Float.NaN}, y);
        assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(y[3]), "round(-0.5) is -0, as PyTorch's");
        // Integers are their own rounding, and keep their type.
        Tensor ints = Tensor.of(new double[] {3, -4}, 2).to(DType.INT64).round();
        assertEquals(DType.INT64, ints.dtype());
        assertArrayEquals(new long[] {3, -4}, ints.toLongArray());
    }

    @Test
    void roundsGradientIsZero() {
        Variable x = Variable.of(Tensor.of(new double[] {0.2, 1.7}, 2), true);
        x.round().mul(5.0).sum().backward();
        assertArrayEquals(new double[] {0, 0}, x.grad().toDoubleArray());
    }

    @Test
    void expm1KeepsItsDigitsNearZero() {
        // torch.tensor([1e-10, -1e-7, 1., 0., -30., 10.]).expm1()
        float[] y = Tensor.of(1e-10f, -1e-7f, 1f, 0f, -30f, 10f).expm1().toFloatArray();
        assertArrayEquals(new float[] {1.000000013351432e-10f, -9.999999406318238e-08f, 1.718281865119934f, 0f, -1f, 22025.46484375f}, y);
        // exp(x) - 1 in float32 would give 0 for 1e-10.
        assertEquals(DType.FLOAT32, Tensor.of(new double[] {3, 4}, 2).to(DType.INT64).expm1().dtype());
    }

    @Test
    void expm1sGradientIsTheExponential() {
        // x = torch.tensor([0.3, -2.], dtype=torch.float64, requires_grad=True); x.expm1().sum().backward()
        Variable x = Variable.of(Tensor.of(new double[] {0.3, -2.0}, 2), true);
        x.expm1().sum().backward();
        assertArrayEquals(new double[] {1.3498588075760032, 0.1353352832366127}, x.grad().toDoubleArray(), 1e-15);
    }
}
