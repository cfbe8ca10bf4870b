package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.io.CheckpointException;
import dev.jgrad.nn.optim.Adam;
import dev.jgrad.nn.optim.AdamW;
import dev.jgrad.nn.optim.ClipGrad;
import dev.jgrad.nn.optim.LrScheduler;
import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.nn.optim.ParamGroup;
import dev.jgrad.nn.optim.SGD;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.internal.fused.AdamStep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OptimizerTest {
    @TempDir
    Path tmp;

    private static Sequential model(long seed) {
        Generator g = new Generator(seed);
        return new Sequential(new Linear(3, 8, true, g), new Tanh(), new Linear(8, 1, true, g));
    }

    private static final Tensor X = Tensor.randn(new Generator(42), 16, 3);
    private static final Tensor Y = Tensor.randn(new Generator(43), 16, 1);

    private static void trainSteps(Sequential m, Optimizer opt, int steps) {
        for (int i = 0; i < steps; i++) {
            opt.zeroGrad();
            Losses.mseLoss(m.forward(Variable.of(X)), Variable.of(Y)).backward();
            opt.step();
        }
    }

    /** Save after 5 steps, load into a fresh model and optimizer, 5 more: the same numbers as 10 uninterrupted steps. */
    @Test
    void adamCheckpointResumesToTheSameNumbers() throws Exception {
        Sequential straight = model(1);
        Optimizer o1 = new Adam(straight.parameters(), 0.01);
        trainSteps(straight, o1, 10);

        Sequential first = model(1);
        Optimizer o2 = new Adam(first.parameters(), 0.01);
        trainSteps(first, o2, 5);
        Checkpoint.save(first, tmp.resolve("model.safetensors"));
        Checkpoint.saveOptimizer(o2, tmp.resolve("optimizer.safetensors"));

        Sequential resumed = model(99);
        Optimizer o3 = new Adam(resumed.parameters(), 0.5);
        Checkpoint.load(resumed, tmp.resolve("model.safetensors"));
        Checkpoint.loadOptimizer(o3, tmp.resolve("optimizer.safetensors"));
        assertEquals(0.01, o3.lr());
        trainSteps(resumed, o3, 5);
        for (int i = 0; i < straight.parameters().size(); i++) {
            assertArrayEquals(straight.parameters().get(i).data().toFloatArray(), resumed.parameters().get(i).data().toFloatArray(),
                    "parameter " + i);
        }
    }

    @Test
    void optimizerStateOfTheWrongKindIsRefusedWhole() throws Exception {
        Sequential m = model(1);
        Optimizer adam = new Adam(m.parameters(), 0.01);
        trainSteps(m, adam, 2);
        Checkpoint.saveOptimizer(adam, tmp.resolve("opt.safetensors"));
        Optimizer sgd = new SGD(m.parameters(), 0.1, 0.9, 0, false, 0);
        CheckpointException e = assertThrows(CheckpointException.class, () -> Checkpoint.loadOptimizer(sgd, tmp.resolve("opt.safetensors")));
        assertTrue(e.getMessage().contains("the state is for optimizer Adam, this is SGD"), e.getMessage());
    }

    @Test
    void trainingReducesTheLoss() {
        Sequential m = model(2);
        Optimizer opt = new SGD(m.parameters(), 0.1, 0.9, 0, true, 1e-4);
        double before = Losses.mseLoss(m.forward(Variable.of(X)), Variable.of(Y)).item();
        trainSteps(m, opt, 100);
        double after = Losses.mseLoss(m.forward(Variable.of(X)), Variable.of(Y)).item();
        assertTrue(after < 0.5 * before, before + " -> " + after);
    }

    @Test
    void clipGradNormScalesToTheLimitAndReportsTheNorm() {
        Parameter a = new Parameter(Tensor.zeros(2));
        Parameter b = new Parameter(Tensor.zeros(1));
        a.setGrad(Tensor.of(3f, 0f));
        b.setGrad(Tensor.of(4f));
        double norm = ClipGrad.clipGradNorm(List.of(a, b), 1.0);
        assertEquals(5.0, norm, 1e-9);
        assertArrayEquals(new float[] {0.6f, 0f}, a.grad().toFloatArray(), 1e-5f);
        assertArrayEquals(new float[] {0.8f}, b.grad().toFloatArray(), 1e-5f);
    }

    /**
     * Gradients outside the one-pass path (float64, or two that share an array) are measured and scaled one by one, to
     * the same figures: the norm of (3, 0, 4) is 5, clipped to 1.
     */
    @Test
    void clipGradNormScalesFloat64AndSharedGradientsOneByOne() {
        Parameter a = new Parameter(Tensor.zeros(2).to(dev.jgrad.tensor.DType.FLOAT64));
        Parameter b = new Parameter(Tensor.zeros(1).to(dev.jgrad.tensor.DType.FLOAT64));
        a.setGrad(Tensor.of(3f, 0f).to(dev.jgrad.tensor.DType.FLOAT64));
        b.setGrad(Tensor.of(4f).to(dev.jgrad.tensor.DType.FLOAT64));
        assertEquals(5.0, ClipGrad.gradNorm(List.of(a, b)), 1e-12);
        assertEquals(5.0, ClipGrad.clipGradNorm(List.of(a, b), 1.0), 1e-12);
        double coef = 1.0 / (5.0 + 1e-6);   // PyTorch's max_norm / (total + 1e-6)
        assertArrayEquals(new double[] {3 * coef, 0}, a.grad().toDoubleArray(), 1e-15);
        assertArrayEquals(new double[] {4 * coef}, b.grad().toDoubleArray(), 1e-15);

        Tensor shared = Tensor.of(3f, 4f);
        Parameter c = new Parameter(Tensor.zeros(1));
        Parameter d = new Parameter(Tensor.zeros(1));
        c.setGrad(shared.narrow(0, 0, 1));
        d.setGrad(shared.narrow(0, 1, 1));
        assertEquals(5.0, ClipGrad.clipGradNorm(List.of(c, d), 2.5), 1e-6);
        assertArrayEquals(new float[] {1.5f, 2f}, shared.toFloatArray(), 1e-5f);
        assertEquals(2.5, ClipGrad.clipGradNorm(List.of(c, d), 10.0), 1e-5, "under the limit: measured, left alone");
        assertArrayEquals(new float[] {1.5f, 2f}, shared.toFloatArray(), 1e-5f);
    }

    /**
     * AdamW updates its float32 parameters in one pass over all of them; each parameter gets what PyTorch's per-parameter
     * loop gives it (its group's decay, then Adam's step with its own bias correction), bit for bit, over three steps.
     * A clipped gradient is scaled as {@code muli} scales it.
     */
    @Test
    void adamWUpdatesAllParametersInOnePassAsOneByOneBitForBit() {
        Generator gen = new Generator(9);
        Parameter w = new Parameter(Tensor.randn(gen, 40, 30));
        Parameter b = new Parameter(Tensor.randn(gen, 30));
        Tensor[] want = {w.data().clone(), b.data().clone()};
        Tensor[] m = {Tensor.zeros(40, 30), Tensor.zeros(30)};
        Tensor[] v = {Tensor.zeros(40, 30), Tensor.zeros(30)};
        Tensor gw = Tensor.randn(gen, 40, 30);
        Tensor gb = Tensor.randn(gen, 30);
        AdamW opt = new AdamW(ParamGroup.decayMatrices(List.of(w, b), 0.1), 1e-2, 0.9, 0.99, 1e-8);
        for (int t = 1; t <= 3; t++) {
            w.setGrad(gw.mul(t));
            b.setGrad(gb.mul(-t));
            double norm = ClipGrad.clipGradNorm(opt.params(), 5.0);
            double coef = 5.0 / (norm + 1e-6);
            opt.step();
            Tensor[] g = {gw.mul(t), gb.mul(-t)};
            for (int i = 0; i < 2; i++) {
                if (coef < 1) {
                    g[i].muli(coef);
                }
                if (i == 0) {
                    // Only the matrix is in the decayed group.
                    want[i].muli(1 - 1e-2 * 0.1);
                }
                AdamStep.adam(want[i], g[i], m[i], v[i], 0.9, 0.99, 0, 1e-2 / (1 - Math.pow(0.9, t)),
                        Math.sqrt(1 - Math.pow(0.99, t)), 1e-8);
            }
            assertTrue(coef < 1, "the gradients were clipped");
            assertArrayEquals(want[0].toFloatArray(), w.data().toFloatArray(), "weight, step " + t);
            assertArrayEquals(want[1].toFloatArray(), b.data().toFloatArray(), "bias, step " + t);
        }
        opt.zeroGrad();
        assertEquals(0.0, w.grad().abs().sum().item());
        assertEquals(0.0, b.grad().abs().sum().item());
    }

    /**
     * Two parameters over overlapping parts of one tensor are updated one after the other, as before the one pass:
     * in one job the threads' shares of the two would meet in the overlap in no fixed order.
     */
    @Test
    void parametersSharingMemoryAreUpdatedOneAfterTheOther() {
        Tensor base = Tensor.randn(new Generator(11), 50_000);
        Parameter a = new Parameter(base);
        Parameter b = new Parameter(base.narrow(0, 10_000, 40_000));
        Tensor ga = Tensor.randn(new Generator(12), 50_000);
        Tensor gb = Tensor.randn(new Generator(13), 40_000);
        Tensor want = base.clone();
        double stepSize = 1e-3 / (1 - 0.9);
        double bc2Sqrt = Math.sqrt(1 - 0.999);
        AdamStep.adam(want, ga, Tensor.zeros(50_000), Tensor.zeros(50_000), 0.9, 0.999, 0, stepSize, bc2Sqrt, 1e-8);
        AdamStep.adam(want.narrow(0, 10_000, 40_000), gb, Tensor.zeros(40_000), Tensor.zeros(40_000), 0.9, 0.999, 0, stepSize, bc2Sqrt, 1e-8);
        a.setGrad(ga);
        b.setGrad(gb);
        new Adam(List.of(a, b), 1e-3).step();
        assertArrayEquals(want.toFloatArray(), base.toFloatArray());
    }

    @Test
    void schedules() {
        Optimizer opt = new SGD(model(1).parameters(), 1.0);
        LrScheduler step = LrScheduler.step(opt, 2, 0.5);
        double[] seen = new double[5];
        for (int i = 0; i < 5; i++) {
            seen[i] = opt.lr();
            step.step();
        }
        assertArrayEquals(new double[] {1, 1, 0.5, 0.5, 0.25}, seen, 1e-12);
        Optimizer o2 = new SGD(model(1).parameters(), 1.0);
        LrScheduler cos = LrScheduler.cosine(o2, 10, 0.0);
        for (int i = 0; i < 5; i++) {
            cos.step();
        }
        assertEquals(0.5, o2.lr(), 1e-12);
        Optimizer o3 = new SGD(model(1).parameters(), 1.0);
        LrScheduler warm = LrScheduler.linearWarmup(o3, 4, 0.2);
        assertEquals(0.2, o3.lr(), 1e-12);
        warm.step();
        warm.step();
        assertEquals(0.6, o3.lr(), 1e-12);
        warm.step();
        warm.step();
        warm.step();
        assertEquals(1.0, o3.lr(), 1e-12);
    }

    /** The rates PyTorch 2.13's schedulers give over their first steps (SGD at lr 0.1, printed before each step). */
    @Test
    void schedulesGiveTheRatesPyTorchGives() {
        assertArrayEquals(new double[] {0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.025, 0.025},
                rates(o -> LrScheduler.step(o, 3, 0.5), 0.1, 8), 1e-15);
        // CosineAnnealingLR(T_max=5, eta_min=0.01) up to T_max; after it PyTorch climbs again, this one stays at eta_min
        assertArrayEquals(new double[] {0.1, 0.091405764747, 0.068905764747, 0.041094235253, 0.018594235253, 0.01, 0.01, 0.01},
                rates(o -> LrScheduler.cosine(o, 5, 0.01), 0.1, 8), 1e-12);
        assertArrayEquals(new double[] {0.025, 0.04375, 0.0625, 0.08125, 0.1, 0.1, 0.1},
                rates(o -> LrScheduler.linearWarmup(o, 4, 0.25), 0.1, 7), 1e-15);
        assertArrayEquals(new double[] {0.1, 0.05, 0.025, 0.0125, 0.00625}, rates(o -> LrScheduler.exponential(o, 0.5), 0.1, 5), 0);
        // MultiStepLR([2, 5, 5], 0.1): a milestone given twice multiplies twice; the order given does not matter
        double[] multi = {0.1, 0.1, 0.01, 0.01, 0.01, 0.0001, 0.0001, 0.0001};
        assertArrayEquals(multi, rates(o -> LrScheduler.multiStep(o, new int[] {2, 5, 5}, 0.1), 0.1, 8), 1e-17);
        assertArrayEquals(new double[] {0.1, 0.1, 0.01, 0.01, 0.01, 0.001, 0.001, 0.001},
                rates(o -> LrScheduler.multiStep(o, new int[] {5, 2}, 0.1), 0.1, 8), 1e-17);
    }

    /** Warm-up to the base rate at step warmup - 1, then half a cosine to eta_min at the total, then eta_min. */
    @Test
    void warmupCosineRisesThenFollowsTheCosineDown() {
        double[] r = rates(o -> LrScheduler.warmupCosine(o, 4, 10, 0.01), 0.1, 12);
        assertArrayEquals(new double[] {0.025, 0.05, 0.075, 0.1}, Arrays.copyOf(r, 4), 1e-15);
        for (int t = 4; t < 12; t++) {
            double progress = Math.min(1.0, (t - 4) / 6.0);
            assertEquals(0.01 + 0.09 * (1 + Math.cos(Math.PI * progress)) / 2, r[t], 1e-15, "step " + t);
        }
        assertEquals(0.01, r[10], 1e-15);
        assertEquals(0.01, r[11], 1e-15);
    }

    /** nanoGPT's get_lr in its own arithmetic, to the bit: what the twin run (bench's GptTwin) relies on. */
    @Test
    void nanoGptsScheduleIsItsArithmeticToTheBit() {
        double lr = 1e-3;
        double minLr = 1e-4;
        double[] r = rates(o -> LrScheduler.warmupCosineNanoGpt(o, 100, 2000, minLr), lr, 2003);
        for (int it = 0; it < 2003; it++) {
            double want;
            if (it < 100) {
                want = lr * (it + 1) / (100 + 1);
            } else if (it > 2000) {
                want = minLr;
            } else {
                double coeff = 0.5 * (1.0 + Math.cos(Math.PI * ((it - 100) / (double) (2000 - 100))));
                want = minLr + coeff * (lr - minLr);
            }
            assertEquals(Double.doubleToLongBits(want), Double.doubleToLongBits(r[it]), "iteration " + it);
        }
    }

    /** A base rate of 0 stays 0 in every schedule (PyTorch's do the same), never 0 * (0 / 0) = NaN. */
    @Test
    void aBaseRateOfZeroStaysZero() {
        List<Function<Optimizer, LrScheduler>> schedules = List.of(
                o -> LrScheduler.step(o, 2, 0.5), o -> LrScheduler.cosine(o, 5, 0.0), o -> LrScheduler.linearWarmup(o, 3, 0.5),
                o -> LrScheduler.warmupCosine(o, 2, 6, 0.0), o -> LrScheduler.warmupCosineNanoGpt(o, 2, 6, 0.0));
        for (var s : schedules) {
            for (double r : rates(s, 0.0, 9)) {
                assertEquals(0.0, r);
            }
        }
    }

    /** Sizes PyTorch divides by are refused with the name PyTorch gives them. */
    @Test
    void schedulesRefuseSizesTheyCannotDivideBy() {
        Optimizer opt = new SGD(model(1).parameters(), 0.1);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LrScheduler.cosine(opt, 0, 0.0)).getMessage().contains("T_max"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LrScheduler.step(opt, 0, 0.5)).getMessage().contains("step_size"));
        assertThrows(IllegalArgumentException.class, () -> LrScheduler.exponential(opt, 0));
        assertThrows(IllegalArgumentException.class, () -> LrScheduler.multiStep(opt, new int[] {3, -1}, 0.1));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LrScheduler.linearWarmup(opt, 3, 0.0)).getMessage()
                .contains("start_factor"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LrScheduler.warmupCosine(opt, 5, 4, 0.0)).getMessage()
                .contains("warm-up steps (5)"));
        assertEquals(0.1, opt.lr(), "a refused schedule leaves the rate alone");
    }

    /** The rate before each of {@code n} steps of the schedule {@code make} builds over an SGD at {@code lr}. */
    private static double[] rates(Function<Optimizer, LrScheduler> make, double lr, int n) {
        Optimizer opt = new SGD(model(1).parameters(), lr);
        LrScheduler s = make.apply(opt);
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = opt.lr();
            s.step();
        }
        return out;
    }

    @Test
    void corruptAndTruncatedCheckpointsAreClearErrorsAndLeaveTheModelAlone() throws Exception {
        Sequential m = model(3);
        Path good = tmp.resolve("good.safetensors");
        Checkpoint.save(m, good);
        byte[] bytes = Files.readAllBytes(good);
        Sequential target = model(4);
        float[] before = target.parameters().get(0).data().toFloatArray();

        Path truncated = tmp.resolve("truncated.safetensors");
        Files.write(truncated, Arrays.copyOf(bytes, bytes.length - 10));
        CheckpointException t = assertThrows(CheckpointException.class, () -> Checkpoint.load(target, truncated));
        assertTrue(t.getMessage().contains("truncated.safetensors"), t.getMessage());

        Path garbage = tmp.resolve("garbage.safetensors");
        Files.writeString(garbage, "this is not a checkpoint");
        assertThrows(CheckpointException.class, () -> Checkpoint.load(target, garbage));

        Path tiny = tmp.resolve("tiny.safetensors");
        Files.write(tiny, new byte[] {1, 2, 3});
        assertThrows(CheckpointException.class, () -> Checkpoint.load(target, tiny));

        CheckpointException missing = assertThrows(CheckpointException.class, () -> Checkpoint.load(target, tmp.resolve("nope.safetensors")));
        assertTrue(missing.getMessage().startsWith("checkpoint not found"), missing.getMessage());

        Path other = tmp.resolve("other.safetensors");
        Checkpoint.save(new Sequential(new Linear(3, 5)), other);
        CheckpointException fit = assertThrows(CheckpointException.class, () -> Checkpoint.load(target, other));
        assertTrue(fit.getMessage().contains("does not fit the model"), fit.getMessage());

        assertArrayEquals(before, target.parameters().get(0).data().toFloatArray(), "no half-loaded model");
    }

    @Test
    void savingReplacesTheOldFileWholeAndLeavesNoTemporaryFiles() throws Exception {
        Path file = tmp.resolve("m.safetensors");
        Checkpoint.save(model(5), file);
        byte[] first = Files.readAllBytes(file);
        Checkpoint.save(model(6), file);
        assertTrue(!Arrays.equals(first, Files.readAllBytes(file)));
        try (var s = Files.list(tmp)) {
            assertEquals(List.of("m.safetensors"), s.map(p -> p.getFileName().toString()).toList());
        }
    }
}
