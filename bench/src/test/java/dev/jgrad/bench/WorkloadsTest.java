package dev.jgrad.bench;

import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmarked workloads do what their names say, so a benchmark never times code that does not work. */
class WorkloadsTest {
    @Test
    void mlpTrainStepLowersTheLoss() {
        Workloads.MlpStep w = new Workloads.MlpStep(5);
        double first = w.step();
        double last = first;
        for (int i = 0; i < 30; i++) {
            last = w.step();
        }
        assertTrue(Double.isFinite(first) && last < 0.9 * first, "W5 loss " + first + " -> " + last);
    }

    @Test
    void tinyTrainStepLowersTheLoss() {
        Workloads.TinyStep w = new Workloads.TinyStep(7);
        double first = w.step();
        double last = first;
        for (int i = 0; i < 200; i++) {
            last = w.step();
        }
        assertTrue(Double.isFinite(first) && last < first, "W7 loss " + first + " -> " + last);
    }

    @Test
    void mhaStepReachesTheInputWithFiniteGradients() {
        Workloads.MhaStep w = new Workloads.MhaStep(6);
        assertTrue(Double.isFinite(w.step()));
        Tensor grad = w.x.grad();
        assertArrayEquals(new int[] {8, 64, 128}, grad.shape());
        assertTrue(grad.allFinite());
        double norm = 0;
        for (double v : grad.toDoubleArray()) {
            norm += v * v;
        }
        assertTrue(norm > 0, "the attention output does not depend on its input");
    }
}
