package dev.jgrad.examples.train;

import dev.jgrad.nn.io.Safetensors;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jgrad train ... --data-parallel 2}: two processes on loopback end with the weights of one process (float32
 * summation-order tolerance, 1e-6 of the largest weight) for the MLP, the CNN (batch norm over the whole batch) and the
 * GPT, resume, and refuse a batch they do not divide.
 */
public class DataParallelIT {
    @TempDir
    Path tmp;

    /**
     * Run {@code two} (data-parallel) ended as run {@code one} (one process): every weight within 1e-2 of the largest, all
     * but 0.1% within 1e-6 of it, the held-out losses within 1e-5 relative.
     */
    public static void assertTrainsAsOneProcess(Path one, Path two, String name) throws Exception {
        Map<String, Tensor> w1 = weights(one);
        Map<String, Tensor> w2 = weights(two);
        assertEquals(w1.keySet(), w2.keySet());
        // In units of the model's largest weight, 1e-6 (float32 summation order), for all but a few weights: Adam divides
        // each gradient by its own running size, so a weight whose gradient stays near zero (a few dozen of the CNN's 400 000
        // in its first linear layer) moves by what the order of a sum left in its last bits, whatever its size.
        double scale = 0;
        long all = 0;
        long beyond = 0;
        for (Tensor t : w1.values()) {
            for (float v : t.toFloatArray()) {
                scale = Math.max(scale, Math.abs(v));
            }
        }
        for (String k : w1.keySet()) {
            float[] x = w1.get(k).toFloatArray();
            float[] y = w2.get(k).toFloatArray();
            for (int i = 0; i < x.length; i++) {
                all++;
                beyond += Math.abs(x[i] - y[i]) > 1e-6 * scale + 1e-7 ? 1 : 0;
                assertEquals(x[i], y[i], 1e-2 * scale, name + " " + k + "[" + i + "]");
            }
        }
        assertTrue(beyond <= all / 1000, name + ": " + beyond + " of " + all + " weights differ by more than 1e-6 of the largest");
        for (String split : List.of("val", "test")) {
            List<String> a1 = rows(one, split);
            List<String> a2 = rows(two, split);
            assertEquals(a1.size(), a2.size());
            for (int i = 0; i < a1.size(); i++) {
                double v1 = Double.parseDouble(a1.get(i));
                assertEquals(v1, Double.parseDouble(a2.get(i)), 1e-5 * Math.abs(v1), name + " " + split + " loss, row " + i);
            }
        }
    }

    private static Map<String, Tensor> weights(Path run) throws Exception {
        return Safetensors.load(run.resolve("model.safetensors")).tensors();
    }

    private void sameAsOneProcess(String name, String... args) throws Exception {
        Path one = tmp.resolve(name + "-one");
        Path two = tmp.resolve(name + "-two");
        String[] a = CliRun.run(with(args, "--out", one.toString()));
        assertEquals("0", a[2], a[1]);
        String[] b = CliRun.run(with(args, "--data-parallel", "2", "--out", two.toString()));
        assertEquals("0", b[2], b[1]);
        assertTrue(b[0].contains("data-parallel over 2 workers"), b[0]);
        assertTrainsAsOneProcess(one, two, name);
        try (var left = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            assertTrue(left.noneMatch(p -> p.getFileName().toString().startsWith("jgrad-data-parallel-")
                    && p.toFile().lastModified() > System.currentTimeMillis() - 60_000 && isOurs(p)), "the workers' scratch folders are removed");
        }
    }

    /** The held-out losses of a run's metrics.csv on {@code split}. */
    private static List<String> rows(Path run, String split) throws Exception {
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(run.resolve("metrics.csv"))) {
            String[] f = line.split(",");
            if (f.length == 5 && f[3].equals(split)) {
                out.add(f[4]);
            }
        }
        return out;
    }

    private static boolean isOurs(Path p) {
        return Files.isDirectory(p.resolve("rendezvous"));
    }

    private static String[] with(String[] head, String... tail) {
        List<String> a = new ArrayList<>(List.of("train"));
        a.addAll(Arrays.asList(head));
        a.addAll(List.of(tail));
        return a.toArray(new String[0]);
    }

    @Test
    void theMlpTheCnnAndTheGptTrainAsOneProcess() throws Exception {
        sameAsOneProcess("mlp", "mlp", "--epochs", "3");
        Path data = Files.createDirectories(tmp.resolve("fashion-data"));
        FashionExampleIT.writeSet(data, "train", 256, 1);
        FashionExampleIT.writeSet(data, "t10k", 64, 2);
        sameAsOneProcess("cnn", "fashion", "--model", "cnn", "--data", data.toString(), "--epochs", "1", "--batch-size", "32");
        Path text = GptExampleIT.writeText(tmp.resolve("plays.txt"));
        sameAsOneProcess("gpt", "gpt", "--data", text.toString(), "--block-size", "16", "--batch-size", "8", "--n-layer", "1", "--n-head", "2",
                "--n-embd", "16", "--max-iters", "100", "--eval-interval", "50", "--eval-iters", "2");
    }

    @Test
    void aStoppedDataParallelRunResumesAsOneThatNeverStopped() throws Exception {
        Path whole = tmp.resolve("whole");
        assertEquals("0", CliRun.run("train", "mlp", "--epochs", "4", "--data-parallel", "2", "--out", whole.toString())[2]);
        Path part = tmp.resolve("part");
        assertEquals("0", CliRun.run("train", "mlp", "--epochs", "2", "--data-parallel", "2", "--out", part.toString())[2]);
        String[] r = CliRun.run("train", "mlp", "--resume", part.toString(), "--epochs", "4", "--data-parallel", "2");
        assertEquals("0", r[2], r[1]);
        assertEquals(Files.readString(whole.resolve("metrics.csv")), Files.readString(part.resolve("metrics.csv")));
    }

    @Test
    void aWorkerKilledMidRunFailsTheRunNamingItAndTheLastCheckpointStays() throws Exception {
        Path run = tmp.resolve("killed");
        Thread killer = new Thread(() -> {
            long end = System.nanoTime() + 60_000_000_000L;
            while (!Files.exists(run.resolve("model.safetensors")) && System.nanoTime() < end) {
                sleep(20);
            }
            sleep(300);
            ProcessHandle.current().descendants().filter(p -> cmdline(p.pid()).contains("--worker\u00001:2:"))
                    .forEach(ProcessHandle::destroyForcibly);
        });
        killer.start();
        String[] r = CliRun.run("train", "mlp", "--epochs", "400", "--save-every", "16", "--data-parallel", "2", "--out", run.toString());
        killer.join();
        assertEquals("2", r[2], r[1]);
        assertTrue(r[1].contains("worker 1"), r[1]);
        assertFalse(dev.jgrad.nn.io.Safetensors.load(run.resolve("model.safetensors")).tensors().isEmpty(),
                "the last whole checkpoint is still there and loads");
        assertTrue(Files.readString(run.resolve("status.json")).contains("\"failed\""), Files.readString(run.resolve("status.json")));
    }

    /** A process's arguments as Linux keeps them (NUL-separated); empty where they cannot be read. */
    private static String cmdline(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return "";
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aBatchTheWorkersDoNotDivideIsOneLineAndExitTwo() {
        String[] r = CliRun.run("train", "mlp", "--epochs", "1", "--batch-size", "63", "--data-parallel", "2", "--out",
                tmp.resolve("odd").toString());
        assertEquals("2", r[2], r[1]);
        assertTrue(r[1].contains("--data-parallel 2 must divide the batch, which has 63 rows"), r[1]);
        String[] big = CliRun.run("train", "mlp", "--epochs", "1", "--batch-size", "4", "--data-parallel", "8", "--out",
                tmp.resolve("big").toString());
        assertEquals("2", big[2], big[1]);
        assertTrue(big[1].contains("--data-parallel 8 must divide the batch"), big[1]);
    }
}
