package dev.jgrad.examples.train;

import dev.jgrad.examples.cli.Main;
import dev.jgrad.nn.io.Json;
import dev.jgrad.train.Interrupt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each example in a short configuration: its outcome, the files it leaves, and what bad input gets. */
class ExamplesIT {
    @TempDir
    Path tmp;

    private static final PrintStream QUIET = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @SuppressWarnings("unchecked")
    private static Map<String, Object> summary(Path dir) throws IOException {
        return (Map<String, Object>) Json.parse(Files.readString(dir.resolve("summary.json")));
    }

    private static void assertRunFiles(Path dir, String example, List<String> series) throws IOException {
        List<String> csv = Files.readAllLines(dir.resolve("metrics.csv"));
        assertEquals("step,epoch,series,split,loss", csv.get(0));
        assertTrue(csv.size() > 2);
        byte[] png = Files.readAllBytes(dir.resolve("loss.png"));
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, java.util.Arrays.copyOf(png, 4), "loss.png is a PNG");
        BufferedImage img = ImageIO.read(dir.resolve("loss.png").toFile());
        assertTrue(img.getWidth() >= 600 && img.getHeight() >= 400);
        Map<String, Object> s = summary(dir);
        assertEquals(example, s.get("example"));
        assertTrue(s.get("seed") instanceof Long);
        assertTrue(((Number) s.get("seconds")).doubleValue() > 0);
        @SuppressWarnings("unchecked")
        Map<String, Object> ser = (Map<String, Object>) s.get("series");
        assertEquals(series, List.copyOf(ser.keySet()));
        assertTrue(Files.size(dir.resolve("model.safetensors")) > 100);
        assertTrue(Files.size(dir.resolve("optimizer.safetensors")) > 100);
    }

    @SuppressWarnings("unchecked")
    private static double stat(Map<String, Object> summary, String series, String key) {
        return ((Number) ((Map<String, Object>) ((Map<String, Object>) summary.get("series")).get(series)).get(key)).doubleValue();
    }

    @Test
    void regressionShowsTheBugBesideTheFix() throws IOException {
        Path dir = tmp.resolve("reg");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        RegressionExample.Outcome r = RegressionExample.run(TrainOptions.of(dir, 30, 0), new PrintStream(printed, true, StandardCharsets.UTF_8));
        assertTrue(r.buggyR2() < 0.2, "buggy R² " + r.buggyR2());
        assertTrue(r.fixedR2() > 0.9, "fixed R² " + r.fixedR2());
        assertRunFiles(dir, "regression", List.of("buggy", "fixed"));
        assertEquals(r.fixedR2(), stat(summary(dir), "fixed", "r2"), 1e-12);
        String out = printed.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("-> [64, 64]") && out.contains("mse_loss: input shape [64, 1] and target shape [64] differ")
                && out.contains("strict broadcasting: sub stretches both operands to [64, 64]"), out);
    }

    @Test
    void theSameSeedGivesTheSameNumbers() throws IOException {
        RegressionExample.run(TrainOptions.of(tmp.resolve("a"), 3, 7), QUIET);
        RegressionExample.run(TrainOptions.of(tmp.resolve("b"), 3, 7), QUIET);
        assertEquals(Files.readString(tmp.resolve("a/metrics.csv")), Files.readString(tmp.resolve("b/metrics.csv")));
        assertArrayEquals(Files.readAllBytes(tmp.resolve("a/model.safetensors")), Files.readAllBytes(tmp.resolve("b/model.safetensors")));
    }

    /**
     * The regression trains its buggy and fixed models side by side: a run stopped in its first or its second epoch and
     * resumed from its folder alone ends with both models' weights and the curves of a run that never stopped, bit for bit.
     */
    @Test
    void anInterruptedAndResumedRegressionEqualsAnUninterruptedOneInBothSeries() throws IOException {
        // 32 steps an epoch.
        for (long stopAt : new long[] {20, 50}) {
            ResumeAlone.assertSameAsUninterrupted(tmp, stopAt, "regression", "--epochs", "3", "--seed", "5");
        }
    }

    @Test
    void attentionLearnsToLookBack() throws IOException {
        Path dir = tmp.resolve("att");
        AttentionExample.Outcome r = AttentionExample.run(TrainOptions.of(dir, 3, 0), QUIET);
        assertTrue(r.accuracy() >= 0.95, "accuracy " + r.accuracy());
        assertRunFiles(dir, "attention", List.of("train"));
        assertEquals(r.accuracy(), stat(summary(dir), "train", "accuracy"), 1e-12);
    }

    @Test
    void mlpSeparatesTheSpiralsAndDrawsTheBoundary() throws IOException {
        Path dir = tmp.resolve("mlp");
        SpiralsExample.Outcome r = SpiralsExample.run(TrainOptions.of(dir, 120, 0), QUIET);
        assertTrue(r.accuracy() >= 0.95, "accuracy " + r.accuracy());
        assertRunFiles(dir, "mlp", List.of("train"));
        assertTrue(ImageIO.read(dir.resolve("boundary.png").toFile()).getWidth() > 500);
    }

    @Test
    void resumeContinuesFromACheckpoint() throws IOException {
        Path first = tmp.resolve("first");
        SpiralsExample.run(TrainOptions.of(first, 40, 0), QUIET);
        TrainOptions o = TrainOptions.of(tmp.resolve("second"), 0, 0);
        o.resume = first.resolve("model.safetensors");
        SpiralsExample.Outcome resumed = SpiralsExample.run(o, QUIET);
        assertEquals(stat(summary(first), "train", "accuracy"), resumed.accuracy(), 1e-12, "zero more epochs reproduce the saved model");
    }

    @Test
    void badInputExitsTwoWithoutTouchingGoodFiles() throws IOException {
        assertEquals(2, Main.run("train", "no-such-example"));
        assertEquals(2, Main.run("train"));
        assertEquals(2, Main.run("train", "regression", "--epochs", "-1", "--out", tmp.resolve("x").toString()));
        assertEquals(2, Main.run("train", "regression", "--epochs", "many"));
        assertEquals(2, Main.run("train", "mlp", "--lr", "0"));
        Path file = tmp.resolve("a-file");
        Files.writeString(file, "keep me");
        assertEquals(2, Main.run("train", "mlp", "--epochs", "1", "--out", file.toString()));
        assertEquals("keep me", Files.readString(file));
        assertEquals(2, Main.run("train", "mlp", "--epochs", "1", "--out", tmp.resolve("r1").toString(),
                "--resume", tmp.resolve("missing.safetensors").toString()));
        Path corrupt = tmp.resolve("corrupt.safetensors");
        Files.write(corrupt, new byte[] {8, 0, 0, 0, 0, 0, 0, 0, '{', '}'});
        assertEquals(2, Main.run("train", "mlp", "--epochs", "1", "--out", tmp.resolve("r2").toString(), "--resume", corrupt.toString()));
        Path wrongModel = tmp.resolve("reg");
        RegressionExample.run(TrainOptions.of(wrongModel, 1, 0), QUIET);
        assertEquals(2, Main.run("train", "mlp", "--epochs", "1", "--out", tmp.resolve("r3").toString(),
                "--resume", wrongModel.resolve("model.safetensors").toString()));
    }

    @Test
    void plotRedrawsAChartAndRefusesAFileWithoutTheColumns() throws IOException {
        Path dir = tmp.resolve("reg");
        RegressionExample.run(TrainOptions.of(dir, 2, 0), QUIET);
        Path png = tmp.resolve("again.png");
        assertEquals(0, Main.run("plot", dir.resolve("metrics.csv").toString(), "--out", png.toString()));
        assertTrue(ImageIO.read(png.toFile()).getWidth() > 0);
        Path bad = tmp.resolve("bad.csv");
        Files.writeString(bad, "step,loss\n1,0.5\n");
        assertEquals(2, Main.run("plot", bad.toString()));
        assertEquals(2, Main.run("plot", tmp.resolve("nope.csv").toString()));
    }

    /** Ctrl-C stops a run at the end of a step: what was trained is written, one line says how to resume, exit 130. */
    @Test
    void ctrlCStopsAtTheEndOfAStepSavesWhatWasTrainedAndExits130() throws Exception {
        Path dir = tmp.resolve("interrupted");
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "train", "mlp", "--epochs", "100000", "--out", dir.toString()));
        Path stdout = tmp.resolve("stdout.txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(stdout.toFile()).start();
        java.io.BufferedReader err = new java.io.BufferedReader(new java.io.InputStreamReader(p.getErrorStream(), java.nio.charset.StandardCharsets.UTF_8));
        StringBuilder said = new StringBuilder();
        for (String line; (line = err.readLine()) != null; ) {
            said.append(line).append('\n');
            if (line.contains("epoch 3/")) {
                new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
                break;
            }
        }
        for (String line; (line = err.readLine()) != null; ) {
            said.append(line).append('\n');
        }
        assertEquals(130, p.waitFor(), said.toString());
        assertTrue(said.toString().contains("jgrad: interrupted at epoch ") && said.toString().contains("resume with: ./jgrad train mlp --resume "
                + dir), said.toString());
        String printed = Files.readString(stdout);
        assertTrue(printed.contains("Stopped at epoch ") && printed.contains("(interrupted): wrote the run so far") && !printed.contains("Wrote "),
                "stdout says the run stopped, not that it finished:\n" + printed);
        List<String> csv = Files.readAllLines(dir.resolve("metrics.csv"));
        assertTrue(csv.size() >= 1 + 2 * 3, "the finished epochs are in metrics.csv: " + csv);
        assertTrue(Files.size(dir.resolve("model.safetensors")) > 100 && Files.exists(dir.resolve("loss.png")));
        assertEquals(0, Main.run("train", "mlp", "--epochs", "0", "--resume", dir.resolve("model.safetensors").toString(),
                "--out", tmp.resolve("evaluated").toString()), "the saved model loads");
    }

    /** kill -9 in the middle of a run leaves the metrics and the checkpoint of a recent epoch, a pair that resumes. */
    @Test
    void aKilledRunLeavesARecentEpochsCheckpointThatResumes() throws Exception {
        Path dir = tmp.resolve("killed");
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "train", "mlp", "--epochs", "100000", "--out", dir.toString()));
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!Files.exists(dir.resolve("optimizer.safetensors")) && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        Thread.sleep(300);
        p.destroyForcibly().waitFor();
        assertTrue(Files.size(dir.resolve("model.safetensors")) > 100, "a checkpoint was written during the run");
        assertTrue(Files.readAllLines(dir.resolve("metrics.csv")).size() > 3, "and the metrics so far");
        assertEquals(0, Main.run("train", "mlp", "--epochs", "1", "--resume", dir.resolve("model.safetensors").toString(),
                "--out", tmp.resolve("resumed").toString()), "the model and optimizer resume together");
    }

    /**
     * A run stopped in the middle of an epoch and resumed from its folder ends where the same run without a stop ends:
     * the same weights, bit for bit, and the same curves (the spirals MLP).
     */
    @Test
    void aStoppedAndResumedRunEqualsAnUninterruptedOneBitForBit() throws IOException {
        ResumeAlone.assertSameAsUninterrupted(tmp, 40, "mlp", "--epochs", "6", "--seed", "4");
    }

    /** The attention example resumed alone: the same weights and curves (its options, batch and lr included, come from config.json). */
    @Test
    void attentionResumesAloneToTheSameNumbers() throws IOException {
        ResumeAlone.assertSameAsUninterrupted(tmp, 130, "attention", "--epochs", "2", "--seed", "3", "--batch-size", "48", "--lr", "0.002");
    }

    /**
     * A run resumed with a smaller --log-every than it was stopped with goes on logging its step losses: the window it
     * carried (5 steps of 7 at the stop) is closed at the next step, then every 3 steps.
     */
    @Test
    void aResumedRunWithASmallerLogEveryKeepsLoggingItsStepLosses() throws IOException {
        Path dir = tmp.resolve("log-every");
        try {
            Interrupt.stopAfterSteps(40);
            assertEquals(130, Main.run("train", "mlp", "--epochs", "6", "--seed", "4", "--log-every", "7", "--out", dir.toString()));
        } finally {
            Interrupt.reset();
        }
        assertEquals(0, Main.run("train", "mlp", "--resume", dir.toString(), "--log-every", "3"));
        java.util.List<Integer> steps = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("metrics.csv"))) {
            String[] f = line.split(",");
            if (f.length == 5 && f[3].equals("train_step")) {
                steps.add(Integer.parseInt(f[0]));
            }
        }
        assertTrue(steps.contains(35) && steps.contains(41) && steps.contains(44), "step rows: " + steps);
    }

    /** --save-every N checkpoints inside an epoch too: the first checkpoint of a run appears after N steps, its position recorded. */
    @Test
    void saveEveryCheckpointsWithinAnEpoch() throws Exception {
        Path dir = tmp.resolve("every");
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "train", "mlp", "--epochs", "100000", "--save-every", "5",
                "--out", dir.toString()));
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!Files.exists(dir.resolve("optimizer.safetensors")) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        p.destroyForcibly().waitFor();
        Map<String, String> meta = dev.jgrad.nn.io.Safetensors.load(dir.resolve("model.safetensors")).metadata();
        long step = Long.parseLong(meta.get("jgrad.step"));
        assertTrue(step > 0 && step % 5 == 0, "checkpointed at step " + step);
    }
}
