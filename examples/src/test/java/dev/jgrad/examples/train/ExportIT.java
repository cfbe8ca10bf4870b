package dev.jgrad.examples.train;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jgrad export} on a run folder of every trainer (each a short run), and what bad input gets: one line, exit 2,
 * and no model.onnx written or changed.
 */
class ExportIT {
    @TempDir
    Path tmp;

    /** Trains with {@code args} into a new folder and exports it; returns the folder and export's stdout. */
    private String[] trainAndExport(String name, String... args) {
        Path dir = tmp.resolve(name);
        List<String> a = new ArrayList<>(List.of("train"));
        a.addAll(Arrays.asList(args));
        a.addAll(List.of("--out", dir.toString()));
        String[] trained = run(a.toArray(new String[0]));
        assertEquals("0", trained[2], String.join(" ", a) + ": " + trained[1]);
        String[] out = run("export", dir.toString());
        assertEquals("0", out[2], out[1]);
        assertTrue(Files.isRegularFile(dir.resolve("model.onnx")), name);
        assertTrue(out[0].contains("Wrote " + dir.resolve("model.onnx")) && out[0].contains("largest difference from jgrad"), out[0]);
        return new String[] {dir.toString(), out[0]};
    }

    @Test
    void everyTrainersRunExportsAndPassesItsCheck() throws Exception {
        assertTrue(trainAndExport("regression", "regression", "--epochs", "1")[1].contains("features float32 [batch, 8] -> prediction"));
        assertTrue(trainAndExport("mlp", "mlp", "--epochs", "1")[1].contains("points float32 [batch, 2] -> logits"));
        assertTrue(trainAndExport("pinn", "pinn", "--epochs", "1")[1].contains("x float32 [batch, 1] -> u float32 [batch, 1]"));
        assertTrue(trainAndExport("pinn2", "pinn", "--problem", "poisson2d", "--epochs", "1")[1].contains("x float32 [batch, 2]"));
        assertTrue(trainAndExport("attention", "attention", "--epochs", "1")[1]
                .contains("tokens int64 [batch, sequence], padding bool [batch, sequence]"));
        Path data = Files.createDirectories(tmp.resolve("fashion-data"));
        FashionExampleIT.writeSet(data, "train", 200, 1);
        FashionExampleIT.writeSet(data, "t10k", 50, 2);
        for (String model : List.of("mlp", "cnn")) {
            String out = trainAndExport("fashion-" + model, "fashion", "--model", model, "--data", data.toString(), "--epochs", "1")[1];
            assertTrue(out.contains("images float32 [batch, 1, 28, 28] (pixels in [0, 1]) -> logits float32 [batch, 10]")
                    && out.contains("test images from " + data), out);
        }
        Path text = GptExampleIT.writeText(tmp.resolve("plays.txt"));
        String gpt = trainAndExport("gpt", "gpt", "--data", text.toString(), "--block-size", "16", "--batch-size", "4", "--n-layer", "1",
                "--n-head", "2", "--n-embd", "16", "--max-iters", "10", "--eval-interval", "5", "--eval-iters", "2")[1];
        assertTrue(gpt.contains("input_ids int64 [batch, sequence <= 16] -> logits float32 [batch, sequence, ")
                && gpt.contains("windows of 16 characters of the run's text"), gpt);
        String[] opset = run("export", tmp.resolve("mlp").toString(), "--opset", "18", "--out", tmp.resolve("m18.onnx").toString());
        assertEquals("0", opset[2], opset[1]);
        assertTrue(opset[0].contains("opset 18"), opset[0]);
    }

    @Test
    void badInputIsOneLineExitTwoAndLeavesTheFileThatWasThere() throws Exception {
        Path dir = Path.of(trainAndExport("mlp", "mlp", "--epochs", "1")[0]);
        byte[] good = Files.readAllBytes(dir.resolve("model.onnx"));
        expectTwo("is not a folder", "export", tmp.resolve("nowhere").toString());
        Path notRun = Files.createDirectories(tmp.resolve("not-a-run"));
        expectTwo("is not a run folder", "export", notRun.toString());
        assertFalse(Files.exists(notRun.resolve("model.onnx")));
        expectTwo("--opset must be from 17 to 21", "export", dir.toString(), "--opset", "12");
        Path blocked = tmp.resolve("a-file");
        Files.writeString(blocked, "x");
        expectTwo("cannot write " + blocked.resolve("m.onnx"), "export", dir.toString(), "--out", blocked.resolve("m.onnx").toString());

        byte[] weights = Files.readAllBytes(dir.resolve("model.safetensors"));
        Files.write(dir.resolve("model.safetensors"), Arrays.copyOf(weights, weights.length / 2));
        expectTwo(dir.resolve("model.safetensors").toString(), "export", dir.toString());
        assertArrayEquals(good, Files.readAllBytes(dir.resolve("model.onnx")), "a corrupted checkpoint leaves model.onnx as it was");
        Files.delete(dir.resolve("model.safetensors"));
        expectTwo("has no model.safetensors", "export", dir.toString());
        assertArrayEquals(good, Files.readAllBytes(dir.resolve("model.onnx")));
        try (var files = Files.list(dir)) {
            assertTrue(files.noneMatch(f -> f.getFileName().toString().contains(".tmp")), "no temporary file left");
        }
    }

    /** A process that exports leaves nothing in the temporary folder: not even ONNX Runtime's copy of its libraries. */
    @Test
    void anExportLeavesNothingInTheTemporaryFolder() throws Exception {
        Path dir = Path.of(trainAndExport("mlp", "mlp", "--epochs", "1")[0]);
        Path temp = Files.createDirectories(tmp.resolve("java-tmp"));
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Djava.io.tmpdir=" + temp, "-cp",
                System.getProperty("java.class.path"), dev.jgrad.examples.cli.Main.class.getName(), "export", dir.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        try (var left = Files.list(temp)) {
            assertEquals(List.of(), left.map(f -> f.getFileName().toString()).toList(), out);
        }
    }

    private void expectTwo(String says, String... args) {
        String[] r = run(args);
        assertEquals("2", r[2], String.join(" ", args) + ": " + r[1]);
        assertTrue(r[1].contains(says), r[1]);
        assertEquals(1, r[1].strip().lines().filter(l -> !l.startsWith("WARNING")).count(), "one line: " + r[1]);
    }

    private static String[] run(String... args) {
        return CliRun.run(args);
    }
}
