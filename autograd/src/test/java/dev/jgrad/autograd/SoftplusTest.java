package dev.jgrad.autograd;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** softplus, the unary op added as one UnaryOp constant and one method: its values and its gradient. */
class SoftplusTest {
    @Test
    void valuesAreThoseOfPyTorch() {
        // torch.nn.functional.softplus(torch.tensor([-30., -1., 0., 2., 19., 25.]))
        Tensor y = Tensor.of(-30f, -1f, 0f, 2f, 19f, 25f).softplus();
        assertArrayEquals(new float[] {9.3576e-14f, 0.31326169f, 0.69314718f, 2.12692801f, 19.0f, 25.0f}, y.toFloatArray(), 1e-6f);
        assertTrue(Math.abs(y.toFloatArray()[0] / 9.3576e-14 - 1) < 1e-4, "softplus(-30) = e^-30 to float precision");
    }

    @Test
    void gradientPassesGradcheckOnBothSidesOfTheThreshold() {
        RandomShapes rs = new RandomShapes(11);
        for (int t = 0; t < 12; t++) {
            int[] s = rs.shape(0, 3);
            Tensor x = rs.uniform(-6, 6, s);
            GradCheck.Result r = GradCheck.check(v -> v[0].softplus(), x);
            assertTrue(r.passed(), "softplus at " + RandomShapes.str(new int[][] {s}) + ": " + r);
        }
        Tensor big = Tensor.of(new double[] {21, 30, -25}, 3);
        assertTrue(GradCheck.check(v -> v[0].softplus(), big).passed());
    }

    @Test
    void gradientIsTheSigmoidAndExactlyOneAboveTheThreshold() {
        Variable x = Variable.of(Tensor.of(new double[] {-2, 0, 3, 25}, 4), true);
        x.softplus().sum().backward();
        double[] g = x.grad().toDoubleArray();
        assertArrayEquals(new double[] {1 / (1 + Math.exp(2)), 0.5, 1 / (1 + Math.exp(-3)), 1.0}, g, 1e-15);
        assertTrue(x.grad().dtype() == DType.FLOAT64);
    }
}
