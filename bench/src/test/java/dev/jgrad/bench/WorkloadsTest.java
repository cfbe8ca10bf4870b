package dev.jgrad.bench;

import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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

    @Test
    void wganGpStepGivesTheCriticAFiniteGradientThroughTheInputGradient() {
        Workloads.WganGpStep w = new Workloads.WganGpStep(10);
        double penalty = w.step();
        assertTrue(Double.isFinite(penalty) && penalty >= 0, "penalty " + penalty);
        for (int i = 0; i < 3; i++) {
            Tensor g = w.model.parameters().get(i).grad();
            assertTrue(g.allFinite() && g.abs().sum().item() > 0, "parameter " + i);
        }
        // The last bias shifts D(x) but not its input gradient: the penalty does not reach it.
        assertEquals(null, w.model.parameters().get(3).grad());
    }

    @Test
    void hvpStepMatchesTheDifferenceOfGradientsAlongV() {
        Workloads.HvpStep w = new Workloads.HvpStep(11);
        w.step();
        java.util.List<dev.jgrad.autograd.Variable> hv = w.hessianTimesV();
        double eps = 2e-3;
        java.util.List<Tensor> plus = gradientsShiftedAlongV(w, eps);
        java.util.List<Tensor> minus = gradientsShiftedAlongV(w, -eps);
        for (int i = 0; i < hv.size(); i++) {
            Tensor fd = plus.get(i).sub(minus.get(i)).div(2 * eps);
            double scale = fd.abs().amax().item();
            double off = hv.get(i).data().sub(fd).abs().amax().item();
            assertTrue(off <= 0.02 * scale + 1e-4, "parameter " + i + ": H v is off the central difference by " + off + " of " + scale);
        }
    }

    /** The loss's gradients at the parameters moved by {@code eps v} (then moved back). */
    private static java.util.List<Tensor> gradientsShiftedAlongV(Workloads.HvpStep w, double eps) {
        for (int i = 0; i < w.params.size(); i++) {
            w.params.get(i).data().addi(w.v.get(i).data().mul(eps));
        }
        for (var p : w.params) {
            p.setGrad(null);
        }
        dev.jgrad.nn.Losses.mseLoss(w.model.forward(w.x), w.y).backward();
        java.util.List<Tensor> g = new java.util.ArrayList<>();
        for (int i = 0; i < w.params.size(); i++) {
            g.add(w.params.get(i).grad().clone());
            w.params.get(i).data().subi(w.v.get(i).data().mul(eps));
        }
        return g;
    }

    @Test
    void gptTrainStepLowersTheLossOfItsBatch() {
        Workloads.GptTrainStep w = new Workloads.GptTrainStep(12);
        double first = w.step();
        double last = first;
        for (int i = 0; i < 20; i++) {
            last = w.step();
        }
        assertTrue(Math.abs(first - Math.log(65)) < 0.1, "an untrained GPT predicts uniformly: " + first);
        assertTrue(last < first - 0.5, "W12 loss " + first + " -> " + last);
    }

    @Test
    void gptGeneratesTwoHundredFiftySixTokensAfterItsPrompt() {
        Tensor out = new Workloads.GptGenerate(13).generate();
        assertArrayEquals(new int[] {1, 257}, out.shape());
        for (long t : out.toLongArray()) {
            assertTrue(t >= 0 && t < 65);
        }
    }
}
