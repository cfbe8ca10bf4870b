package dev.jgrad.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What GptTwin writes for gpt_twin.py (the initial weights, each step's batch starts, the losses), and its refusals. */
class GptTwinTest {
    @TempDir
    Path dir;

    private Path text() throws IOException {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            s.append("First Citizen:\nBefore we proceed any further, hear me speak ").append(i).append(".\n");
        }
        return Files.writeString(dir.resolve("input.txt"), s);
    }

    @Test
    void writesTheInitialWeightsTheBatchesAndTheLossesOfEachStep() throws IOException {
        Path data = text();
        int trainLength = (int) (0.9 * Files.readString(data).length());
        GptTwin.run(new String[] {"--data", data.toString(), "--out", dir.resolve("a").toString(), "--steps", "3", "--seed", "5"});
        GptTwin.run(new String[] {"--data", data.toString(), "--out", dir.resolve("b").toString(), "--steps", "3", "--seed", "5"});
        assertTrue(Files.size(dir.resolve("a/init.safetensors")) > 4 * 800_000L, "the baby GPT's weights");
        List<String> batches = Files.readAllLines(dir.resolve("a/batches.txt"));
        assertEquals(3, batches.size());
        for (String line : batches) {
            String[] starts = line.split(" ");
            assertEquals(GptTwin.BATCH, starts.length, line);
            for (String start : starts) {
                int at = Integer.parseInt(start);
                assertTrue(at >= 0 && at < trainLength - GptTwin.BLOCK, "a window inside the training part: " + at);
            }
        }
        List<String> losses = Files.readAllLines(dir.resolve("a/jgrad.tsv"));
        assertEquals("step\tloss\tgrad_norm", losses.get(0));
        assertEquals(4, losses.size());
        long vocabulary = Files.readString(data).chars().distinct().count();
        double first = Double.parseDouble(losses.get(1).split("\t")[1]);
        // N(0, 0.02) weights predict nearly uniformly: the first loss is about ln(vocabulary).
        assertEquals(Math.log(vocabulary), first, 0.3, "step 0's loss");
        assertEquals(losses, Files.readAllLines(dir.resolve("b/jgrad.tsv")), "the same seed, the same run");
        assertEquals(batches, Files.readAllLines(dir.resolve("b/batches.txt")));
    }

    @Test
    void refusesBadArgumentsNamingThem() throws IOException {
        Path data = text();
        String out = dir.resolve("x").toString();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> GptTwin.run(new String[] {"--out", out}))
                .getMessage().contains("--data"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> GptTwin.run(new String[] {"--data", dir.resolve("missing.txt").toString(), "--out", out}))
                .getMessage().contains("missing.txt"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> GptTwin.run(new String[] {"--data", data.toString(), "--out", out, "--steps", "0"}))
                .getMessage().contains("--steps"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> GptTwin.run(new String[] {"--data", data.toString(), "--out", out, "--shuffle"}))
                .getMessage().contains("--shuffle"));
    }
}
