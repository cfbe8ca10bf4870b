package dev.jgrad.examples.train;

import dev.jgrad.examples.cli.Main;
import dev.jgrad.nn.io.Json;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The GPT trainer on a text it generates, the sampler on what it wrote, and what bad input gets. */
public class GptExampleIT {
    @TempDir
    Path tmp;

    private static final PrintStream QUIET = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    /** A text with structure to learn: lines of a small grammar, 40 000 characters. */
    private Path text() throws IOException {
        return writeText(tmp.resolve("plays.txt"));
    }

    /** The text of {@link #text()}, written to {@code p}. */
    public static Path writeText(Path p) throws IOException {
        String[] who = {"ROMEO", "JULIET", "NURSE", "FRIAR"};
        String[] verbs = {"loves", "fears", "calls", "keeps"};
        String[] what = {"the night", "the rose", "a sword", "the moon"};
        StringBuilder sb = new StringBuilder();
        java.util.Random r = new java.util.Random(3);
        while (sb.length() < 40_000) {
            sb.append(who[r.nextInt(4)]).append(":\n").append(who[r.nextInt(4)].toLowerCase()).append(' ')
                    .append(verbs[r.nextInt(4)]).append(' ').append(what[r.nextInt(4)]).append(".\n\n");
        }
        Files.writeString(p, sb);
        return p;
    }

    private static GptExample.Settings small() {
        GptExample.Settings s = new GptExample.Settings();
        s.blockSize = 32;
        s.batchSize = 8;
        s.nLayer = 2;
        s.nHead = 2;
        s.nEmbd = 32;
        s.maxIters = 150;
        s.lrDecayIters = 150;
        s.warmupIters = 10;
        s.evalInterval = 50;
        s.evalIters = 5;
        s.sampleTokens = 40;
        return s;
    }

    /** The same small GPT as {@link #small()}, as a command line. */
    private static String[] smallArgs(Path text, String... more) {
        java.util.List<String> a = new java.util.ArrayList<>(List.of("gpt", "--data", text.toString(), "--block-size", "32", "--batch-size",
                "8", "--n-layer", "2", "--n-head", "2", "--n-embd", "32", "--max-iters", "150", "--warmup-iters", "10", "--eval-interval",
                "50", "--eval-iters", "5", "--sample-tokens", "40"));
        a.addAll(List.of(more));
        return a.toArray(new String[0]);
    }

    @SuppressWarnings("unchecked")
    @Test
    void trainsOnCharactersWritesItsFilesAndTheSamplerContinuesAPrompt() throws Exception {
        Path dir = tmp.resolve("run");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        PrintStream originalErr = System.err;
        GptExample.Outcome r;
        try {
            System.setErr(new PrintStream(progress, true, StandardCharsets.UTF_8));
            r = GptExample.run(text(), small(), TrainOptions.of(dir, null, 0), new PrintStream(printed, true, StandardCharsets.UTF_8));
        } finally {
            System.setErr(originalErr);
        }
        String out = printed.toString(StandardCharsets.UTF_8);
        String lines = progress.toString(StandardCharsets.UTF_8);
        assertTrue(lines.contains("gpt round 1/3  train ") && lines.contains("gpt round 3/3  train ") && !lines.contains("epoch"),
                "a stretch of --eval-interval iterations is a round, not an epoch:\n" + lines);
        assertTrue(out.contains("before training: train 3.") && r.valLoss() < 2.4, "val loss " + r.valLoss() + ", from about 3.3 (uniform over the vocabulary)\n" + out);
        assertEquals(4, out.lines().filter(l -> l.startsWith("  sample: ")).count(), "a sample at each of the 4 evaluations:\n" + out);
        for (String f : List.of("metrics.csv", "loss.png", "summary.json", "model.safetensors", "optimizer.safetensors", "tokenizer.json")) {
            assertTrue(Files.size(dir.resolve(f)) > 0, f);
        }
        Map<String, Object> s = (Map<String, Object>) Json.parse(Files.readString(dir.resolve("summary.json")));
        Map<String, Object> gpt = (Map<String, Object>) ((Map<String, Object>) s.get("series")).get("gpt");
        assertEquals(r.valLoss(), ((Number) gpt.get("val_loss")).doubleValue(), 1e-12);
        assertEquals(150, ((Number) gpt.get("iterations")).intValue());
        assertTrue(gpt.containsKey("train_loss"));
        List<String> rows = Files.readAllLines(dir.resolve("metrics.csv"));
        assertEquals(1 + 2 * 4 + 15, rows.size(), "train and val at iterations 0, 50, 100, 150, and the step loss every 10 iterations");
        assertTrue(rows.stream().anyMatch(l -> l.startsWith("10,1,gpt,train_step,"))
                && rows.stream().anyMatch(l -> l.startsWith("150,3,gpt,train_step,")), String.join("\n", rows));

        TensorBoardChecks.assertMatchesMetrics(dir);
        assertEquals(List.of(0L, 50L, 100L, 150L), TensorBoardChecks.otherSummaries(dir).get("sample/text_summary"), "the samples in TensorBoard");
        assertTrue(dev.jgrad.train.tensorboard.EventReader.scalars(dir.resolve("tb")).containsKey("speed/tokens_per_s"));
        Map<String, List<Long>> other = TensorBoardChecks.otherSummaries(dir);
        assertEquals(List.of(100L), other.get("params/transformer.wte.weight"), "histograms every 100 steps: " + other.keySet());
        assertEquals(List.of(100L), other.get("grads/transformer.wte.weight"));
        assertTrue(out.contains("is from step ") && out.contains("the best val loss"), "which step the saved model is from:\n" + out);

        String first = sample(dir, "ROMEO:", "7");
        String again = sample(dir, "ROMEO:", "7");
        assertEquals(first, again, "the same seed gives the same text");
        assertTrue(first.startsWith("ROMEO:") && first.length() >= "ROMEO:".length() + 60, first);
        assertFalse(first.equals(sample(dir, "ROMEO:", "8")), "another seed, other text");
    }

    private static String sample(Path dir, String prompt, String seed) {
        PrintStream original = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int rc;
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            rc = Main.run("sample", "--checkpoint", dir.toString(), "--prompt", prompt, "--tokens", "60", "--seed", seed);
        } finally {
            System.setOut(original);
        }
        assertEquals(0, rc);
        return buf.toString(StandardCharsets.UTF_8).stripTrailing();
    }

    @Test
    void badInputGetsOneLineAndExitTwo() throws IOException {
        Path out = tmp.resolve("bad");
        assertEquals(2, Main.run("train", "gpt", "--out", out.toString()), "no --data");
        Path binary = tmp.resolve("binary.txt");
        Files.write(binary, new byte[] {'a', 'b', (byte) 0xff, (byte) 0xfe, 'c'});
        assertEquals(2, Main.run("train", "gpt", "--data", binary.toString(), "--out", out.toString()), "not UTF-8");
        Path tiny = tmp.resolve("tiny.txt");
        Files.writeString(tiny, "to be or not to be");
        assertEquals(2, Main.run("train", "gpt", "--data", tiny.toString(), "--out", out.toString()), "shorter than a block");
        assertEquals(2, Main.run("train", "gpt", "--data", tiny.toString(), "--n-embd", "30", "--n-head", "4"), "heads do not divide the width");
        assertEquals(2, Main.run("train", "gpt", "--data", tiny.toString(), "--epochs", "3"), "epochs are iterations here");
        assertEquals(2, Main.run("sample", "--checkpoint", tmp.resolve("nowhere").toString()), "no checkpoint");
        assertFalse(Files.exists(out.resolve("model.safetensors")));
    }

    @Test
    void theTextMustHoldMoreThanABlockInItsValidationPart() {
        for (int block : new int[] {1, 7, 32, 64, 256}) {
            long n = GptExample.minimumLength(block);
            assertTrue(GptExample.splits(n, block) && !GptExample.splits(n - 1, block), "block " + block + ": " + n);
            long val = n - (long) (0.9 * n);
            assertTrue(val > block && val <= block + 2, "block " + block + ": validation part " + val);
        }
    }

    /** A GPT run stopped and resumed from its folder alone ends as the run that never stopped: the same weights and curves. */
    @Test
    void aStoppedAndResumedRunEqualsAnUninterruptedOne() throws Exception {
        Path text = text();
        // Step losses every 7 iterations: the checkpoint at iteration 50 holds a window of one step, which must carry on.
        ResumeAlone.assertSameAsUninterrupted(tmp, 75, smallArgs(text, "--log-every", "7", "--seed", "2"));
    }
}
