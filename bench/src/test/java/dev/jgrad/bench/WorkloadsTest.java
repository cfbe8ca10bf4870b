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

    @Test
    void convStepGivesEveryParameterAFiniteGradient() {
        Workloads.ConvStep w = new Workloads.ConvStep(8);
        assertTrue(Double.isFinite(w.step()));
        int[][] shapes = {{32, 1, 3, 3}, {32}, {64, 32, 3, 3}, {64}};
        for (int i = 0; i < shapes.length; i++) {
            Tensor grad = w.model.parameters().get(i).grad();
            assertArrayEquals(shapes[i], grad.shape());
            assertTrue(grad.allFinite() && grad.abs().sum().item() > 0, "parameter " + i);
        }
        assertArrayEquals(new int[] {64, 64, 11, 11}, w.model.forward(w.x).shape());
    }

    @Test
    void lstmStepGivesEveryParameterAFiniteGradient() {
        Workloads.LstmStep w = new Workloads.LstmStep(9);
        assertTrue(Double.isFinite(w.step()));
        assertArrayEquals(new int[] {32, 32, 128}, w.lstm.forward(w.x).output().shape());
        for (var p : w.lstm.parameters()) {
            assertTrue(p.grad().allFinite() && p.grad().abs().sum().item() > 0);
        }
        assertArrayEquals(new int[] {512, 64}, w.lstm.parameters().get(0).shape());
    }
}
