package dev.jgrad.examples.train;

import dev.jgrad.nn.io.Json;
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
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The physics-informed trainer: its accuracy target on the 1-D problem, and the files of a short 2-D run. */
class PinnExampleIT {
    @TempDir
    Path tmp;

    private static final PrintStream QUIET = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @SuppressWarnings("unchecked")
    private static double relL2(Path dir) throws IOException {
        Map<String, Object> s = (Map<String, Object>) Json.parse(Files.readString(dir.resolve("summary.json")));
        assertEquals("pinn", s.get("example"));
        return ((Number) ((Map<String, Object>) ((Map<String, Object>) s.get("series")).get("pinn")).get("rel_l2_error")).doubleValue();
    }

    @Test
    void theDefaultRunSolvesOneDimensionalPoissonToATenthOfAPercent() throws IOException {
        Path dir = tmp.resolve("p1");
        PinnExample.Outcome r = PinnExample.run(PinnExample.Problem.POISSON1D, TrainOptions.of(dir, null, 0), QUIET);
        assertTrue(r.relL2Error() <= 1e-3, "relative L2 error " + r.relL2Error());
        assertEquals(r.relL2Error(), relL2(dir), 1e-15);
        BufferedImage chart = ImageIO.read(dir.resolve("solution.png").toFile());
        assertTrue(chart.getWidth() >= 600 && chart.getHeight() >= 400);
        assertTrue(Files.size(dir.resolve("model.safetensors")) > 100);
        assertEquals(1 + 2 * 60, Files.readAllLines(dir.resolve("metrics.csv")).stream().filter(l -> !l.contains(",train_step,")).count(),
                "a header, then a train and a val row per epoch");
        assertEquals(600, Files.readAllLines(dir.resolve("metrics.csv")).stream().filter(l -> l.contains(",train_step,")).count(),
                "and the step loss every 10 of its 6000 steps");
    }

    @Test
    void aShortTwoDimensionalRunLeavesItsFilesAndLearns() throws IOException {
        Path dir = tmp.resolve("p2");
        PinnExample.Outcome r = PinnExample.run(PinnExample.Problem.POISSON2D, TrainOptions.of(dir, 3, 1), QUIET);
        assertTrue(r.relL2Error() < 0.5, "relative L2 error " + r.relL2Error());
        for (String f : new String[] {"metrics.csv", "loss.png", "solution.png", "summary.json", "model.safetensors"}) {
            assertTrue(Files.size(dir.resolve(f)) > 0, f);
        }
    }

    /** A PINN run stopped mid-epoch and resumed from its folder alone ends as the run that never stopped, bit for bit. */
    @Test
    void aStoppedAndResumedRunEqualsAnUninterruptedOne() throws IOException {
        ResumeAlone.assertSameAsUninterrupted(tmp, 150, "pinn", "--epochs", "4", "--seed", "3");
    }
}
