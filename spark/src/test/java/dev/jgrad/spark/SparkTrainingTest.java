package dev.jgrad.spark;

import dev.jgrad.examples.train.CliRun;
import dev.jgrad.examples.train.DataParallelIT;
import dev.jgrad.examples.train.FashionExampleIT;
import dev.jgrad.examples.train.GptExampleIT;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** jgrad train --data-parallel 2 --master local[2]: a Spark barrier stage trains as one process does, and fails naming a worker. */
class SparkTrainingTest {
    @TempDir
    Path tmp;

    @Test
    void twoBarrierTasksTrainAsOneProcessAndResume() throws Exception {
        java.util.Set<String> scratchBefore = workerScratch();
        Path one = tmp.resolve("one");
        assertEquals("0", CliRun.run("train", "mlp", "--epochs", "2", "--out", one.toString())[2]);
        assertEquals("0", CliRun.run("train", "mlp", "--resume", one.toString(), "--epochs", "4")[2]);
        Path spark = tmp.resolve("spark");
        String[] r = CliRun.run("train", "mlp", "--epochs", "2", "--data-parallel", "2", "--master", "local[2]", "--out", spark.toString());
        assertEquals("0", r[2], r[1]);
        assertTrue(r[0].contains("data-parallel over 2 Spark tasks on local[2]"), r[0]);
        // The same command again, with more epochs: the stage resumes every worker from the run's checkpoint.
        String[] again = CliRun.run("train", "mlp", "--epochs", "4", "--data-parallel", "2", "--master", "local[2]", "--out", spark.toString());
        assertEquals("0", again[2], again[1]);
        // The same rows; the losses to float32 summation order (a batch's mean against the mean of its two halves' means).
        java.util.List<String> a = Files.readAllLines(one.resolve("metrics.csv"));
        java.util.List<String> b = Files.readAllLines(spark.resolve("metrics.csv"));
        assertEquals(a.size(), b.size(), "two Spark workers, extended by a second run, log the rows one process does");
        for (int i = 1; i < a.size(); i++) {
            String[] x = a.get(i).split(",");
            String[] y = b.get(i).split(",");
            assertEquals(String.join(",", java.util.Arrays.copyOf(x, 4)), String.join(",", java.util.Arrays.copyOf(y, 4)));
            assertEquals(Double.parseDouble(x[4]), Double.parseDouble(y[4]), 1e-6 * Math.abs(Double.parseDouble(x[4])), a.get(i));
        }
        assertEquals(java.util.List.of(), leftBehind(scratchBefore), "the workers' logs and run copies are removed when their tasks end");
    }

    /** The workers' scratch folders in the temporary folder now that were not there {@code before}. */
    private static java.util.List<String> leftBehind(java.util.Set<String> before) throws java.io.IOException {
        return workerScratch().stream().filter(n -> !before.contains(n)).sorted().toList();
    }

    /** The names of the workers' scratch folders in the temporary folder. */
    private static java.util.Set<String> workerScratch() throws java.io.IOException {
        try (var all = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return all.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("jgrad-worker-")).collect(java.util.stream.Collectors.toSet());
        }
    }

    @Test
    void theCnnAndTheGptTrainAsOneProcessInBarrierTasks() throws Exception {
        Path data = Files.createDirectories(tmp.resolve("fashion-data"));
        FashionExampleIT.writeSet(data, "train", 128, 1);
        FashionExampleIT.writeSet(data, "t10k", 32, 2);
        sameAsOneProcess("cnn", "fashion", "--model", "cnn", "--data", data.toString(), "--epochs", "1", "--batch-size", "32");
        Path text = GptExampleIT.writeText(tmp.resolve("plays.txt"));
        sameAsOneProcess("gpt", "gpt", "--data", text.toString(), "--block-size", "16", "--batch-size", "8", "--n-layer", "1", "--n-head",
                "2", "--n-embd", "16", "--max-iters", "60", "--eval-interval", "30", "--eval-iters", "2");
    }

    private void sameAsOneProcess(String name, String... args) throws Exception {
        Path one = tmp.resolve(name + "-one");
        Path spark = tmp.resolve(name + "-spark");
        java.util.List<String> a = new java.util.ArrayList<>(java.util.List.of("train"));
        a.addAll(java.util.List.of(args));
        java.util.List<String> b = new java.util.ArrayList<>(a);
        a.addAll(java.util.List.of("--out", one.toString()));
        b.addAll(java.util.List.of("--data-parallel", "2", "--master", "local[2]", "--out", spark.toString()));
        assertEquals("0", CliRun.run(a.toArray(new String[0]))[2]);
        String[] r = CliRun.run(b.toArray(new String[0]));
        assertEquals("0", r[2], r[1]);
        DataParallelIT.assertTrainsAsOneProcess(one, spark, name);
    }

    @Test
    void aFailingWorkerFailsTheStageWithOneLineNamingIt() throws Exception {
        java.util.Set<String> scratchBefore = workerScratch();
        Path out = tmp.resolve("odd");
        String[] r = CliRun.run("train", "mlp", "--epochs", "1", "--batch-size", "63", "--data-parallel", "2", "--master", "local[2]",
                "--out", out.toString());
        assertEquals("2", r[2], r[1]);
        assertTrue(r[1].contains("the data-parallel stage failed: jgrad worker") && r[1].contains("must divide the batch"), r[1]);
        assertEquals(java.util.List.of(), leftBehind(scratchBefore), "a failed stage's workers leave nothing behind either");
        String[] noOut = CliRun.run("train", "mlp", "--data-parallel", "2", "--master", "local[2]");
        assertEquals("2", noOut[2], noOut[1]);
        assertTrue(noOut[1].contains("--master needs --out"), noOut[1]);
        String[] unreachable = CliRun.run("train", "mlp", "--data-parallel", "2", "--master", "spark://127.0.0.1:9", "--out", out.toString());
        assertEquals("2", unreachable[2], unreachable[1]);
        assertTrue(unreachable[1].contains("nothing answers at 127.0.0.1:9"), unreachable[1]);
        assertFalse(Files.exists(out.resolve("model.safetensors")));
    }
}
