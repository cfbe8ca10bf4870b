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
import java.util.List;

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

    @Test
    void corruptAndTruncatedCheckpointsAreClearErrorsAndLeaveTheModelAlone() throws Exception {
        Sequential m = model(3);
        Path good = tmp.resolve("good.safetensors");
        Checkpoint.save(m, good);
        byte[] bytes = Files.readAllBytes(good);
        Sequential target = model(4);
        float[] before = target.parameters().get(0).data().toFloatArray();

        Path truncated = tmp.resolve("truncated.safetensors");
        Files.write(truncated, java.util.Arrays.copyOf(bytes, bytes.length - 10));
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
        assertTrue(!java.util.Arrays.equals(first, Files.readAllBytes(file)));
        try (var s = Files.list(tmp)) {
            assertEquals(List.of("m.safetensors"), s.map(p -> p.getFileName().toString()).toList());
        }
    }
}
