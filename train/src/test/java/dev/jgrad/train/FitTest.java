package dev.jgrad.train;

import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.Linear;
import dev.jgrad.nn.Losses;
import dev.jgrad.nn.Sequential;
import dev.jgrad.nn.Tanh;
import dev.jgrad.nn.data.DataLoader;
import dev.jgrad.nn.data.TensorDataset;
import dev.jgrad.nn.io.Json;
import dev.jgrad.nn.io.Safetensors;
import dev.jgrad.nn.optim.Adam;
import dev.jgrad.nn.optim.LrScheduler;
import dev.jgrad.nn.optim.ReduceLrOnPlateau;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The loop as a library: the files a run leaves, resume to the same bits, and the checkpoints it refuses to resume from. */
class FitTest {
    @TempDir
    Path tmp;

    private static final PrintStream QUIET = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @AfterEach
    void forgetStops() {
        Interrupt.reset();
    }

    /** A small regression's model and optimizer, and its run over a loader (periods are epochs of 7 batches). */
    private record Regression(Fit fit, Adam opt) {
    }

    /** The regression at Adam's rate {@code lr} over {@code epochs}, with its held-out loss. */
    private static Regression regressionFit(double lr, int epochs) {
        Generator gen = new Generator(3);
        Tensor x = Tensor.randn(gen, 104, 3);
        Tensor y = x.matmul(Tensor.of(new float[] {1.5f, -2f, 0.5f}, 3, 1)).tanh();
        Sequential net = new Sequential(new Linear(3, 9, true, gen), new Tanh(), new Linear(9, 1, true, gen));
        Adam opt = new Adam(net.parameters(), lr);
        Fit fit = Fit.of(net, opt, new DataLoader(new TensorDataset(x, y), 16, true, 5, false))
                .loss(b -> Losses.mseLoss(net.forward(Variable.of(b.get(0))), Variable.of(b.get(1))))
                .heldOut(() -> Losses.mseLoss(net.forward(Variable.of(x)), Variable.of(y)).item())
                .epochs(epochs)
                .name("reg")
                .progress(QUIET, false);
        return new Regression(fit, opt);
    }

    /** The regression with a cosine schedule per epoch, stopped after {@code stopAfter} steps if > 0. */
    private Fit.Result regression(Path dir, Path resume, int epochs, long stopAfter) {
        Regression r = regressionFit(0.01, epochs);
        r.fit().epochSchedule(LrScheduler.cosine(r.opt(), epochs, 1e-3)).logEvery(3);
        return run(r.fit(), dir, resume, stopAfter, QUIET);
    }

    /** The regression with a ReduceLROnPlateau that cuts the rate whenever the held-out loss gains less than 30%. */
    private Fit.Result plateauRegression(Path dir, Path resume, int epochs, long stopAfter, double[] lr) {
        Regression r = regressionFit(0.05, epochs);
        r.fit().plateauSchedule(new ReduceLrOnPlateau(r.opt(), 0.5, 0, 0.3, 0, 0));
        Fit.Result result = run(r.fit(), dir, resume, stopAfter, QUIET);
        lr[0] = r.opt().lr();
        return result;
    }

    /** The regression stopped early: no later held-out loss beats the first by 10, so it ends after epoch 1 + 2. */
    private Fit.Result earlyStoppedRegression(Path dir, Path resume, int epochs, long stopAfter, PrintStream out) {
        Regression r = regressionFit(0.01, epochs);
        r.fit().earlyStop(2, 10.0);
        return run(r.fit(), dir, resume, stopAfter, out);
    }

    /** Stopped after its second and fourth epochs' first steps and resumed: the rates and weights of the run that never stopped. */
    @Test
    void aPlateauScheduleResumesToTheSameRatesAndBits() throws IOException {
        Path whole = tmp.resolve("whole");
        double[] wholeLr = new double[1];
        plateauRegression(whole, null, 6, 0, wholeLr);
        assertTrue(wholeLr[0] < 0.05, "the schedule cut the rate: " + wholeLr[0]);
        for (long stop : new long[] {8, 22}) {
            Path split = tmp.resolve("split" + stop);
            double[] lr = new double[1];
            plateauRegression(split, null, 6, stop, lr);
            plateauRegression(null, split, 6, 0, lr);
            assertEquals(wholeLr[0], lr[0], "stop at " + stop);
            assertSameWeights(whole, split);
        }
        Sequential net = new Sequential(new Linear(3, 1, true, new Generator(1)));
        Adam opt = new Adam(net.parameters(), 0.1);
        Fit blind = Fit.of(net, opt, new DataLoader(new TensorDataset(Tensor.zeros(4, 3), Tensor.zeros(4, 1)), 2, false, 0, false))
                .loss(b -> Losses.mseLoss(net.forward(Variable.of(b.get(0))), Variable.of(b.get(1))))
                .plateauSchedule(new ReduceLrOnPlateau(opt)).out(tmp.resolve("blind")).progress(QUIET, false);
        assertTrue(assertThrows(IllegalStateException.class, () -> blind.run(QUIET)).getMessage().contains("heldOut"));
    }

    /** Ends after its third epoch of ten, says so, and a run stopped inside it and resumed ends with the same weights. */
    @Test
    void aRunStopsEarlyWhenTheHeldOutLossStopsImproving() throws IOException {
        Path whole = tmp.resolve("whole");
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        Fit.Result r = earlyStoppedRegression(whole, null, 10, 0, new PrintStream(said, true, StandardCharsets.UTF_8));
        assertEquals(21, r.steps());
        assertTrue(said.toString(StandardCharsets.UTF_8).contains("stopped early after epoch 3: the held-out loss has not improved"
                + " for 2 epochs (best "), said.toString(StandardCharsets.UTF_8));
        Map<?, ?> summary = (Map<?, ?>) Json.parse(Files.readString(whole.resolve("summary.json")));
        assertEquals(3L, ((Number) summary.get("stopped_early_after")).longValue());
        Path split = tmp.resolve("split");
        assertTrue(earlyStoppedRegression(split, null, 10, 10, QUIET).interrupted());
        assertEquals(21, earlyStoppedRegression(null, split, 10, 0, QUIET).steps());
        assertSameWeights(whole, split);
        assertEquals(21, earlyStoppedRegression(null, whole, 12, 0, QUIET).steps(), "a run that stopped early stays stopped");
        Sequential net = new Sequential(new Linear(3, 1, true, new Generator(1)));
        Fit fit = Fit.of(net, new Adam(net.parameters(), 0.1), new DataLoader(new TensorDataset(Tensor.zeros(4, 3)), 2, false, 0, false));
        assertThrows(IllegalArgumentException.class, () -> fit.earlyStop(0, 0));
        assertThrows(IllegalArgumentException.class, () -> fit.earlyStop(3, -1));
    }

    /** Runs {@code fit} into {@code dir} (or resumes {@code resume}), stopped after {@code stopAfter} steps if that is > 0. */
    private static Fit.Result run(Fit fit, Path dir, Path resume, long stopAfter, PrintStream out) {
        if (dir != null) {
            fit.out(dir);
        }
        if (resume != null) {
            fit.resume(resume);
        }
        if (stopAfter > 0) {
            Interrupt.stopAfterSteps(stopAfter);
        }
        try {
            return fit.run(out);
        } finally {
            Interrupt.reset();
        }
    }

    private static void assertSameWeights(Path a, Path b) throws IOException {
        Map<String, Tensor> x = Safetensors.load(a.resolve("model.safetensors")).tensors();
        Map<String, Tensor> y = Safetensors.load(b.resolve("model.safetensors")).tensors();
        assertEquals(x.keySet(), y.keySet());
        for (String k : x.keySet()) {
            assertArrayEquals(x.get(k).toFloatArray(), y.get(k).toFloatArray(), k);
        }
    }

    @Test
    void aRunLeavesItsOptionsCurvesCheckpointAndSummary() throws IOException {
        Path dir = tmp.resolve("run");
        Fit.Result r = regression(dir, null, 4, 0);
        for (String f : List.of("config.json", "metrics.csv", "loss.png", "summary.json", "model.safetensors", "optimizer.safetensors")) {
            assertTrue(Files.size(dir.resolve(f)) > 0, f);
        }
        assertEquals(28, r.steps());
        assertEquals("Metrics[" + r.metrics().rows().size() + " rows: " + String.join(", ", r.metrics().curves()) + "]",
                r.metrics().toString(), "a printed Result shows its curves");
        assertTrue(r.metrics().curves().size() >= 2, r.metrics().curves().toString());
        assertEquals(RunConfig.of("reg", Map.of("seed", 0L, "epochs", 4L)), RunConfig.read(dir).orElseThrow());
        Map<String, String> meta = Safetensors.load(dir.resolve("model.safetensors")).metadata();
        assertEquals("28", meta.get(RunPosition.STEP));
        assertEquals("4", meta.get(RunPosition.PERIODS));
    }

    /** Stopped inside its third epoch and resumed from the folder: the weights and curves of the run that never stopped. */
    @Test
    void aStoppedRunResumesToTheSameBits() throws IOException {
        Path whole = tmp.resolve("whole");
        regression(whole, null, 4, 0);
        for (long stop : new long[] {3, 7, 14, 17}) {
            Path split = tmp.resolve("split" + stop);
            Fit.Result stopped = regression(split, null, 4, stop);
            assertTrue(stopped.interrupted());
            assertEquals(stop, stopped.steps());
            Fit.Result resumed = regression(null, split, 4, 0);
            assertEquals(28, resumed.steps());
            assertSameWeights(whole, split);
            assertEquals(Files.readString(whole.resolve("metrics.csv")), Files.readString(split.resolve("metrics.csv")), "stop at " + stop);
        }
    }

    /** A finished run resumed with more epochs goes on from its end, as a longer run would have (the schedule aside). */
    @Test
    void aFinishedRunExtendsWithMoreEpochs() throws IOException {
        Path dir = tmp.resolve("run");
        regression(dir, null, 2, 0);
        Fit.Result more = regression(null, dir, 3, 0);
        assertEquals(21, more.steps());
        assertEquals(3, Files.readAllLines(dir.resolve("metrics.csv")).stream().filter(l -> l.contains(",train,train,")).count());
    }

    /**
     * summary.json's seconds are the whole run's, over its sessions: a resumed run adds its own to those the folder's
     * summary had; a summary that is missing, unreadable or odd counts as none.
     */
    @Test
    void aResumedRunsSecondsIncludeItsEarlierSessions() throws IOException {
        Path dir = tmp.resolve("run");
        regression(dir, null, 4, 10);
        Path summary = dir.resolve("summary.json");
        Files.writeString(summary, Files.readString(summary).replaceFirst("\"seconds\": [0-9.eE+-]+", "\"seconds\": 1000.5"));
        assertEquals(1000.5, FitRun.secondsSoFar(dir));
        regression(null, dir, 4, 0);
        double seconds = ((Number) ((Map<?, ?>) Json.parse(Files.readString(summary))).get("seconds")).doubleValue();
        assertTrue(seconds > 1000.5 && seconds < 1100, "seconds " + seconds);
        for (String odd : List.of("{\"seconds\": -3}", "{\"seconds\": \"12\"}", "[1, 2]", "{\"seconds\": 1e999}", "not json")) {
            Files.writeString(summary, odd);
            assertEquals(0.0, FitRun.secondsSoFar(dir), odd);
        }
        Files.delete(summary);
        assertEquals(0.0, FitRun.secondsSoFar(dir));
    }

    /** Rewrites one metadata value of the model file in place, keeping the file's length. */
    private static void editMetadata(Path model, String key, Consumer<StringBuilder> edit) throws IOException {
        byte[] b = Files.readAllBytes(model);
        String header = new String(b, 8, (int) java.nio.ByteBuffer.wrap(b, 0, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(),
                StandardCharsets.ISO_8859_1);
        int at = header.indexOf("\"" + key + "\":\"");
        assertTrue(at >= 0, key + " in " + header);
        StringBuilder sb = new StringBuilder(header);
        StringBuilder value = new StringBuilder();
        int from = at + key.length() + 4;
        int to = header.indexOf('"', from);
        value.append(header, from, to);
        edit.accept(value);
        assertEquals(to - from, value.length(), "an edit of the same length");
        sb.replace(from, to, value.toString());
        System.arraycopy(sb.toString().getBytes(StandardCharsets.ISO_8859_1), 0, b, 8, sb.length());
        Files.write(model, b);
    }

    private RunException resumeFails(Path dir) throws IOException {
        byte[] metricsBefore = Files.readAllBytes(dir.resolve("metrics.csv"));
        RunException e = assertThrows(RunException.class, () -> regression(null, dir, 4, 0));
        assertArrayEquals(metricsBefore, Files.readAllBytes(dir.resolve("metrics.csv")), "the refused resume left the curves alone");
        return e;
    }

    /** One changed digit in the position must never read as "start over": it is refused, naming the key. */
    @Test
    void aCheckpointWhosePositionWasEditedIsRefused() throws IOException {
        for (String key : List.of(RunPosition.PERIODS, RunPosition.STEP, RunPosition.PERIOD_STEPS)) {
            Path dir = tmp.resolve("edited-" + key);
            regression(dir, null, 4, 17);
            editMetadata(dir.resolve("model.safetensors"), key, v -> v.setCharAt(0, v.charAt(0) == '1' ? '2' : '1'));
            RunException e = resumeFails(dir);
            assertTrue(e.getMessage().contains(key) || e.getMessage().contains("checkpoint id"), e.getMessage());
        }
        Path garbled = tmp.resolve("garbled");
        regression(garbled, null, 4, 17);
        editMetadata(garbled.resolve("model.safetensors"), RunPosition.PERIODS, v -> v.setCharAt(0, 'x'));
        assertTrue(resumeFails(garbled).getMessage().contains(RunPosition.PERIODS + " = 'x'"));
    }

    @Test
    void aChangedCheckpointIdOrItsKeyIsRefused() throws IOException {
        Path dir = tmp.resolve("id");
        regression(dir, null, 4, 17);
        editMetadata(dir.resolve("model.safetensors"), Checkpoints.CHECKPOINT_ID, v -> v.setCharAt(0, v.charAt(0) == 'a' ? 'b' : 'a'));
        assertTrue(resumeFails(dir).getMessage().contains("not written together"));

        Path key = tmp.resolve("key");
        regression(key, null, 4, 17);
        byte[] b = Files.readAllBytes(key.resolve("model.safetensors"));
        String s = new String(b, StandardCharsets.ISO_8859_1).replace(Checkpoints.CHECKPOINT_ID, "jgrad.checkpoint_ix");
        Files.write(key.resolve("model.safetensors"), s.getBytes(StandardCharsets.ISO_8859_1));
        assertTrue(resumeFails(key).getMessage().contains("carries no " + Checkpoints.CHECKPOINT_ID));
    }

    /** Weights changed after the checkpoint was written no longer give its id. */
    @Test
    void editedWeightsAreRefused() throws IOException {
        Path dir = tmp.resolve("weights");
        regression(dir, null, 4, 17);
        byte[] b = Files.readAllBytes(dir.resolve("model.safetensors"));
        b[b.length - 1] ^= 1;
        Files.write(dir.resolve("model.safetensors"), b);
        assertTrue(resumeFails(dir).getMessage().contains("do not give the checkpoint id"));
    }

    /** Curves that lack rows the checkpoint covers belong to another moment of the run. */
    @Test
    void curvesThatDisagreeWithTheCheckpointAreRefused() throws IOException {
        Path dir = tmp.resolve("curves");
        regression(dir, null, 4, 17);
        List<String> rows = Files.readAllLines(dir.resolve("metrics.csv"));
        rows.removeIf(r -> r.contains(",2,train,train,"));
        Files.write(dir.resolve("metrics.csv"), rows);
        assertTrue(resumeFails(dir).getMessage().contains("not of one moment"));
    }

    /** A loss that turns NaN stops the run before the update, and the folder keeps its last good checkpoint. */
    @Test
    void aNanLossStopsTheRunAndKeepsTheLastCheckpoint() throws IOException {
        Path dir = tmp.resolve("nan");
        regression(dir, null, 2, 0);
        byte[] model = Files.readAllBytes(dir.resolve("model.safetensors"));
        Sequential net = new Sequential(new Linear(2, 1));
        Adam opt = new Adam(net.parameters(), 0.1);
        Tensor x = Tensor.ones(8, 2);
        RunException e = assertThrows(RunException.class, () -> Fit.of(net, opt, new DataLoader(new TensorDataset(x), 4, false, 0, false))
                .loss(b -> net.forward(Variable.of(b.get(0))).log().sub(Double.POSITIVE_INFINITY).mean())
                .name("reg").out(dir).overwrite().progress(QUIET, false).run(QUIET));
        assertTrue(e.getMessage().contains("loss is NaN") || e.getMessage().contains("loss is -Infinity"), e.getMessage());
        assertArrayEquals(model, Files.readAllBytes(dir.resolve("model.safetensors")));
    }

    /** Drawn batches in periods of 5 steps, keeping only the best evaluation: resumed from it, the same run to the end. */
    @Test
    void drawnBatchesAndTheBestCheckpointResumeToTheSameBits() throws IOException {
        Path whole = tmp.resolve("whole");
        Path split = tmp.resolve("split");
        Fit.Result a = drawn(whole, null, 0);
        drawn(split, null, 12);
        Fit.Result b = drawn(null, split, 0);
        assertEquals(a.steps(), b.steps());
        assertEquals(Files.readString(whole.resolve("metrics.csv")), Files.readString(split.resolve("metrics.csv")));
        assertSameWeights(whole, split);
        String summary = Files.readString(whole.resolve("summary.json"));
        assertTrue(summary.contains("\"checkpoint\""), summary);
    }

    private Fit.Result drawn(Path dir, Path resume, long stopAfter) {
        Generator init = new Generator(1);
        Sequential net = new Sequential(new Linear(2, 6, true, init), new Tanh(), new Linear(6, 1, true, init));
        Adam opt = new Adam(net.parameters(), 0.02);
        Generator eval = new Generator(9);
        Tensor w = Tensor.of(new float[] {0.5f, -1f}, 2, 1);
        Fit fit = Fit.of(net, opt, Batches.drawn(new Generator(4), g -> {
            Tensor x = Tensor.randn(g, 12, 2);
            return List.of(x, x.matmul(w).sin());
        }))
                .loss(b -> Losses.mseLoss(net.forward(Variable.of(b.get(0))), Variable.of(b.get(1))))
                .evaluate(() -> {
                    Tensor x = Tensor.randn(eval, 30, 2);
                    return Evaluation.of(Losses.mseLoss(net.forward(Variable.of(x)), Variable.of(x.matmul(w).sin())).item());
                })
                .state("eval", eval)
                .steps(23)
                .evaluateEvery(5)
                .evaluateAtStart()
                .saveBest()
                .clipGradNorm(1.0)
                .schedule(LrScheduler.warmupCosineNanoGpt(opt, 3, 23, 1e-3))
                .name("drawn")
                .progress(QUIET, false);
        return run(fit, dir, resume, stopAfter, QUIET);
    }

    @Test
    void progressIsOnePlainLinePerPeriodWhenNotATerminal() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Progress p = new Progress("demo", "epoch", 2, 3, 6, new PrintStream(err, true, StandardCharsets.UTF_8), false, System::nanoTime);
        p.startPeriod(1, 0, 3, 0);
        p.step(1.0);
        p.step(0.5);
        p.endPeriod("train 0.7500  val 0.2500", 2);
        String s = err.toString(StandardCharsets.UTF_8);
        assertEquals("demo epoch 1/2  train 0.7500  val 0.2500  (step 2, ", s.substring(0, s.indexOf("(step 2, ") + 9));
        assertTrue(!s.contains("\r"));
    }

    @Test
    void aLogGetsALineAtLeastEveryTenSecondsWithTheTimeLeft() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long[] now = {0};
        // A resumed run: 400 of 1000 steps done; this process makes a step every 50 ms.
        Progress p = new Progress("gpt", "round", 4, 250, 1000, new PrintStream(err, true, StandardCharsets.UTF_8), false, () -> now[0]);
        p.startPeriod(2, 150, 250, 400);
        for (int i = 0; i < 200; i++) {
            now[0] += 50_000_000L;
            p.step(2.0);
        }
        String[] lines = err.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(1, lines.length, String.join("\n", lines));
        // After 10 s: step 600 of 1000, 20 steps/s, 400 steps left: 20 s.
        assertEquals("gpt round 2/4  step 600/1000  loss 2.0000  20 steps/s  ETA 20s", lines[0]);
        assertEquals("1m05s", Progress.duration(65));
        assertEquals("2h03m", Progress.duration(2 * 3600 + 3 * 60 + 10));
    }

    @Test
    void theBarShowsTheWholeRunAndItsTimeLeft() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long[] now = {0};
        Progress p = new Progress("mlp", "epoch", 2, 4, 8, new PrintStream(err, true, StandardCharsets.UTF_8), true, () -> now[0]);
        p.startPeriod(1, 0, 4, 0);
        for (int i = 0; i < 4; i++) {
            now[0] += 1_000_000_000L;
            p.step(0.5);
        }
        String s = err.toString(StandardCharsets.UTF_8);
        String last = s.substring(s.lastIndexOf('\r') + 1);
        assertTrue(last.startsWith("mlp epoch 1/2 [" + "=".repeat(24) + "] step 4/8  loss 0.5000  1.00 steps/s  ETA 4s"), last);
    }
}
