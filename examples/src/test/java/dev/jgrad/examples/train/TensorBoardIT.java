package dev.jgrad.examples.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jgrad.examples.cli.Main;
import dev.jgrad.nn.io.Json;
import dev.jgrad.train.Interrupt;
import dev.jgrad.train.tensorboard.SummaryWriter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trainer's tb/ folder as TensorBoard itself reads it: its EventAccumulator (Python) loads the event files of a
 * stopped and resumed run and finds every loss of metrics.csv once at its step, the learning rate, the gradient norm,
 * the histograms and the hparams. Runs where a Python with the {@code tensorboard} package is found ({@code JGRAD_PYTHON},
 * else {@code python3}); skipped, saying so, elsewhere.
 */
class TensorBoardIT {
    @TempDir
    Path tmp;

    /** A Python that imports tensorboard, or null. */
    static String python() {
        String configured = System.getenv("JGRAD_PYTHON");
        for (String candidate : configured != null && !configured.isBlank() ? List.of(configured) : List.of("python3")) {
            try {
                Process p = new ProcessBuilder(candidate, "-c", "import tensorboard.backend.event_processing.event_accumulator")
                        .redirectErrorStream(true).start();
                p.getInputStream().readAllBytes();
                if (p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    return candidate;
                }
            } catch (IOException e) {
                // No such program: try the next.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> readWithTensorBoard(String python, Path tb) throws Exception {
        Path script = Files.createTempFile("read_tensorboard", ".py");
        Path err = Files.createTempFile("read_tensorboard", ".err");
        try (InputStream in = TensorBoardIT.class.getResourceAsStream("/read_tensorboard.py")) {
            Files.write(script, in.readAllBytes());
        }
        try {
            Process p = new ProcessBuilder(python, script.toString(), tb.toString()).redirectError(err.toFile()).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "TensorBoard's reader did not finish");
            assertEquals(0, p.exitValue(), Files.readString(err));
            return (Map<String, Object>) Json.parse(out.strip());
        } finally {
            Files.deleteIfExists(script);
            Files.deleteIfExists(err);
        }
    }

    @SuppressWarnings("unchecked")
    @Test
    void tensorBoardReadsAResumedRunAsOneStreamMatchingItsMetrics() throws Exception {
        Path dir = tmp.resolve("mlp");
        String[] args = {"train", "mlp", "--epochs", "3", "--seed", "2", "--batch-size", "50", "--histogram-every", "20", "--out", dir.toString()};
        try {
            Interrupt.stopAfterSteps(25);
            assertEquals(130, Main.run(args));
        } finally {
            Interrupt.reset();
        }
        // What a run killed after its checkpoint leaves: events of later steps that the resumed run makes again.
        try (SummaryWriter crashed = new SummaryWriter(dir.resolve("tb"))) {
            for (int step = 26; step <= 40; step++) {
                crashed.addScalar("loss/train_step", 999, step);
                crashed.addScalar("lr", 999, step);
            }
        }
        assertEquals(0, Main.run("train", "mlp", "--resume", dir.toString()));
        TensorBoardChecks.assertMatchesMetrics(dir);

        String python = python();
        assumeTrue(python != null, "skipped: no Python with the tensorboard package (set JGRAD_PYTHON to one)");
        Map<String, Object> tb = readWithTensorBoard(python, dir.resolve("tb"));

        Map<String, Object> scalars = (Map<String, Object>) tb.get("scalars");
        Map<String, List<float[]>> read = new TreeMap<>();
        scalars.forEach((tag, pairs) -> {
            if (tag.startsWith("loss/")) {
                read.put(tag, ((List<List<Number>>) pairs).stream().map(p -> new float[] {p.get(0).longValue(), p.get(1).floatValue()}).toList());
            }
        });
        TensorBoardChecks.assertSameLosses(dir, read);
        for (String tag : List.of("lr", "grad_norm", "speed/steps_per_s")) {
            List<List<Number>> s = (List<List<Number>>) scalars.get(tag);
            assertTrue(s != null && !s.isEmpty(), tag + " in " + scalars.keySet());
            List<Long> steps = s.stream().map(p -> p.get(0).longValue()).toList();
            assertEquals(steps.stream().distinct().count(), steps.size(), tag + ": each step once, " + steps);
            assertTrue(s.stream().noneMatch(p -> p.get(1).doubleValue() == 999), tag + ": what the crashed run logged past its checkpoint is gone");
        }
        Map<String, Object> histograms = (Map<String, Object>) tb.get("histograms");
        assertTrue(histograms.keySet().stream().anyMatch(t -> t.startsWith("params/")) && histograms.keySet().stream().anyMatch(t -> t.startsWith("grads/")),
                histograms.keySet().toString());
        Map<String, Object> hp = (Map<String, Object>) tb.get("hparams");
        assertEquals(List.of("_hparams_/experiment", "_hparams_/session_end_info", "_hparams_/session_start_info"), hp.get("plugins"));
        assertFalse(((Map<String, Object>) hp.get("scalars")).isEmpty(), "the final metrics beside the hparams");
    }
}
