package dev.jgrad.examples.train;

import dev.jgrad.examples.cli.Main;
import dev.jgrad.nn.io.Safetensors;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.train.Interrupt;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The resume that users run: a trainer's command line, stopped after some steps as Ctrl-C would stop it, then continued
 * with {@code ./jgrad train TRAINER --resume RUN} and nothing else, must end with the weights and the curves of the same
 * command run without a stop, bit for bit.
 */
final class ResumeAlone {
    private ResumeAlone() {
    }

    /** Runs {@code train ARGS} whole, and stopped after {@code stopAfter} steps then resumed alone; compares the two folders. */
    static void assertSameAsUninterrupted(Path tmp, long stopAfter, String... args) throws IOException {
        Path whole = tmp.resolve("whole-" + stopAfter);
        Path split = tmp.resolve("split-" + stopAfter);
        assertEquals(0, Main.run(train(args, whole)), "the uninterrupted run");
        try {
            Interrupt.stopAfterSteps(stopAfter);
            assertEquals(130, Main.run(train(args, split)), "the run stopped after " + stopAfter + " steps");
        } finally {
            Interrupt.reset();
        }
        assertTrue(Files.readAllLines(split.resolve("metrics.csv")).size() < Files.readAllLines(whole.resolve("metrics.csv")).size(),
                "the first run stopped early");
        assertEquals(0, Main.run("train", args[0], "--resume", split.toString()), "--resume RUN alone");
        Map<String, Tensor> a = Safetensors.load(whole.resolve("model.safetensors")).tensors();
        Map<String, Tensor> b = Safetensors.load(split.resolve("model.safetensors")).tensors();
        assertEquals(a.keySet(), b.keySet());
        for (String k : a.keySet()) {
            assertArrayEquals(a.get(k).toFloatArray(), b.get(k).toFloatArray(), "stopped after " + stopAfter + ": " + k + " differs");
        }
        assertEquals(Files.readString(whole.resolve("metrics.csv")), Files.readString(split.resolve("metrics.csv")),
                "stopped after " + stopAfter + ": the curves");
        assertEquals(Files.readString(whole.resolve("config.json")), Files.readString(split.resolve("config.json")), "the options");
        TensorBoardChecks.assertMatchesMetrics(whole);
        TensorBoardChecks.assertSameStream(whole, split);
    }

    private static String[] train(String[] args, Path out) {
        List<String> a = new ArrayList<>(List.of("train"));
        a.addAll(List.of(args));
        a.addAll(List.of("--out", out.toString()));
        return a.toArray(new String[0]);
    }
}
