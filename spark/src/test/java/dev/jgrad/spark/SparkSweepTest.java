package dev.jgrad.spark;

import dev.jgrad.examples.train.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** jgrad sweep on Spark local[2]: the same ranking and numbers as the local engine's; an unreachable master refused. */
class SparkSweepTest {
    @TempDir
    Path tmp;

    private static String[] sweep(Path out, String... engine) {
        List<String> a = new ArrayList<>(List.of("sweep", "mlp", "--epochs", "2", "--grid", "lr=0.01,0.05", "--grid", "batch-size=16,32",
                "--parallel", "2", "--out", out.toString()));
        a.addAll(List.of(engine));
        return run(a.toArray(new String[0]));
    }

    /** sweep.csv without its seconds column (the only one that differs between two sweeps of the same runs). */
    private static List<String> ranking(Path dir) throws Exception {
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("sweep.csv"))) {
            String[] f = line.split(",", -1);
            List<String> keep = new ArrayList<>(List.of(f));
            keep.remove(8);
            out.add(String.join(",", keep));
        }
        return out;
    }

    @Test
    void aGridOnSparkRanksAsTheLocalEngineDoes() throws Exception {
        String[] spark = sweep(tmp.resolve("spark"), "--engine", "spark", "--master", "local[2]");
        assertEquals("0", spark[2], spark[1]);
        assertTrue(spark[0].contains("Spark 4.2.0 on local[2]"), spark[0]);
        String[] local = sweep(tmp.resolve("local"));
        assertEquals("0", local[2], local[1]);
        List<String> s = ranking(tmp.resolve("spark"));
        assertEquals(5, s.size(), String.join("\n", s));
        assertEquals(ranking(tmp.resolve("local")), s, "the same runs, the same numbers, the same order");
        String[] again = sweep(tmp.resolve("spark"), "--master", "local[2]");
        assertEquals("0", again[2], again[1]);
        assertFalse(again[0].contains("starting") || again[0].contains("one per task"), "a finished sweep starts nothing: " + again[0]);
    }

    @Test
    void aSweepKeptOnAHadoopPathRanksAndResumesThere() throws Exception {
        Path kept = tmp.resolve("kept");
        String uri = kept.toUri().toString();
        String[] args = {"sweep", "mlp", "--epochs", "1", "--grid", "lr=0.01,0.05", "--master", "local[2]", "--out", uri};
        String[] r = CliRun.run(args);
        assertEquals("0", r[2], r[1]);
        for (String f : List.of("sweep.json", "sweep.csv", "sweep.png", "best.json", "01_lr=0.01/model.safetensors", "02_lr=0.05/summary.json",
                "logs/01_lr=0.01.log")) {
            assertTrue(Files.isRegularFile(kept.resolve(f)), f + " kept through Hadoop's file system at " + uri);
        }
        List<String> first = ranking(kept);
        String[] again = CliRun.run(args);
        assertEquals("0", again[2], again[1]);
        assertFalse(again[0].contains("one per task"), "a finished sweep on a Hadoop path starts nothing: " + again[0]);
        assertEquals(first, ranking(kept));
        String[] local = CliRun.run("sweep", "mlp", "--grid", "lr=0.1", "--out", tmp.resolve("x").toUri().toString());
        assertEquals("2", local[2], local[1]);
        assertTrue(local[1].contains("needs the Spark engine"), local[1]);
    }

    @Test
    void anUnreachableMasterIsOneLineAndNothingStarts() {
        Path out = tmp.resolve("never");
        String[] r = run("sweep", "mlp", "--grid", "lr=0.1", "--master", "spark://127.0.0.1:9", "--out", out.toString());
        assertEquals("2", r[2], r[1]);
        assertTrue(r[1].contains("nothing answers at 127.0.0.1:9"), r[1]);
        assertFalse(Files.exists(out));
        String[] bad = run("sweep", "mlp", "--grid", "lr=0.1", "--master", "local[two]", "--out", out.toString());
        assertEquals("2", bad[2], bad[1]);
        assertFalse(Files.exists(out));
    }

    private static String[] run(String... args) {
        return CliRun.run(args);
    }
}
