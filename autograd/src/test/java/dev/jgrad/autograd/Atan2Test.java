package dev.jgrad.autograd;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** atan2 and atan: values, types and gradients as PyTorch 2.13 gives them (the expected numbers are its output). */
class Atan2Test {
    @Test
    void eachQuadrantAndBothAxes() {
        // torch.atan2(y, x) for the points below
        Tensor y = Tensor.of(1f, 1f, -1f, -1f, 0f, 0f, 0f, 2f, -0f);
        Tensor x = Tensor.of(1f, -1f, -1f, 1f, 1f, -1f, 0f, 0f, -1f);
        assertArrayEquals(new float[] {0.7853981852531433f, 2.356194496154785f, -2.356194496154785f, -0.7853981852531433f, 0f,
                3.1415927410125732f, 0f, 1.5707963705062866f, -3.1415927410125732f}, y.atan2(x).toFloatArray());
    }

    @Test
    void integersGiveFloat32AndOperandsBroadcast() {
        Tensor t = Tensor.of(new long[] {1, 2}, 2).atan2(Tensor.of(new long[] {3, -4}, 2));
        assertEquals(DType.FLOAT32, t.dtype());
        assertArrayEquals(new float[] {0.32175055f, 2.6779451f}, t.toFloatArray(), 1e-6f);
        Tensor grid = Tensor.of(new double[] {1, -1, 2}, 3, 1).atan2(Tensor.of(new double[] {1, 2}, 1, 2));
        assertArrayEquals(new int[] {3, 2}, grid.shape());
        assertEquals(Math.atan2(2, 1), grid.toDoubleArray()[4], 0);
    }

    @Test
    void gradientsAndTheOriginsZero() {
        // a, b = [0.5, -2.], [-1.5, 0.25] (float64); torch.atan2(a, b).sum().backward()
        Variable a = Variable.of(Tensor.of(new double[] {0.5, -2.0, 0}, 3), true);
        Variable b = Variable.of(Tensor.of(new double[] {-1.5, 0.25, 0}, 3), true);
        a.atan2(b).sum().backward();
        assertArrayEquals(new double[] {-0.6000000000000001, 0.06153846153846154, 0}, a.grad().toDoubleArray(), 1e-15);
        assertArrayEquals(new double[] {-0.2, 0.49230769230769234, 0}, b.grad().toDoubleArray(), 1e-15);
    }

    @Test
    void atanAndItsGradient() {
        assertArrayEquals(new float[] {0.46364760398864746f, -1.249045729637146f}, Tensor.of(0.5f, -3f).atan().toFloatArray());
        Variable x = Variable.of(Tensor.of(new double[] {0.5, -3}, 2), true);
        x.atan().sum().backward();
        assertArrayEquals(new double[] {0.8, 0.1}, x.grad().toDoubleArray(), 1e-15);
    }
}
