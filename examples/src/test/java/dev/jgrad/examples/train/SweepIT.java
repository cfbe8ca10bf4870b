package dev.jgrad.examples.train;

import dev.jgrad.train.Interrupt;
import dev.jgrad.train.Metrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** jgrad sweep with the local engine: a grid in child processes, its ranking, resume, a failed run, bad input. */
class SweepIT {
    @TempDir
    Path tmp;

    @AfterEach
    void reset() {
        Interrupt.reset();
    }

    private static final String[] GRID = {"sweep", "mlp", "--epochs", "2", "--grid", "lr=0.01,0.05", "--grid", "batch-size=16,32",
        "--parallel", "2", "--out"};

    private static String[] with(String[] head, String... tail) {
        List<String> a = new ArrayList<>(List.of(head));
        a.addAll(List.of(tail));
        return a.toArray(new String[0]);
    }

    /** The best held-out loss of each run folder under {@code dir}, read from its metrics.csv. */
    private static Map<String, Double> best(Path dir, List<String> runs) throws Exception {
        Map<String, Double> out = new TreeMap<>();
        for (String r : runs) {
            double best = Double.POSITIVE_INFINITY;
            for (Metrics.Row row : Metrics.read(dir.resolve(r).resolve("metrics.csv")).rows()) {
                if (row.split().equals("val")) {
                    best = Math.min(best, row.loss());
                }
            }
            out.put(r, best);
        }
        return out;
    }

    @Test
    void aGridRunsInChildProcessesAndRanksAsTheSameRunsMadeOneByOne() throws Exception {
        Path sweep = tmp.resolve("sweep");
        String[] r = run(with(GRID, sweep.toString()));
        assertEquals("0", r[2], r[1]);
        List<String> runs = List.of("01_lr=0.01_batch-size=16", "02_lr=0.01_batch-size=32", "03_lr=0.05_batch-size=16",
                "04_lr=0.05_batch-size=32");
        for (String name : runs) {
            assertTrue(Files.isRegularFile(sweep.resolve(name).resolve("summary.json")), name);
        }
        List<String> csv = Files.readAllLines(sweep.resolve("sweep.csv"));
        assertEquals("rank,run,lr,batch-size,state,best_heldout_loss,best_step,train_loss,seconds,error", csv.get(0));
        assertEquals(5, csv.size(), String.join("\n", csv));
        assertTrue(Files.size(sweep.resolve("sweep.png")) > 1000 && Files.isRegularFile(sweep.resolve("best.json")));

        Path alone = tmp.resolve("alone");
        for (String name : runs) {
            String lr = name.contains("lr=0.01") ? "0.01" : "0.05";
            String bs = name.endsWith("16") ? "16" : "32";
            String[] one = run("train", "mlp", "--epochs", "2", "--lr", lr, "--batch-size", bs, "--out", alone.resolve(name).toString());
            assertEquals("0", one[2], one[1]);
        }
        Map<String, Double> swept = best(sweep, runs);
        assertEquals(best(alone, runs), swept, "the same numbers as the runs made one by one");
        List<String> order = new ArrayList<>(runs);
        order.sort((a, b) -> Double.compare(swept.get(a), swept.get(b)));
        for (int i = 0; i < order.size(); i++) {
            assertTrue(csv.get(i + 1).startsWith((i + 1) + "," + order.get(i) + ","), csv.get(i + 1));
        }
        assertTrue(Files.readString(sweep.resolve("best.json")).contains("\"run\": \"" + order.get(0) + "\""));

        // Again: the finished runs are kept, a missing one is made.
        FileTime kept = Files.getLastModifiedTime(sweep.resolve(runs.get(0)).resolve("metrics.csv"));
        CliRun.deleteTree(sweep.resolve(runs.get(3)));
        String[] again = run(with(GRID, sweep.toString()));
        assertEquals("0", again[2], again[1]);
        assertFalse(again[0].contains("starting " + runs.get(0)), again[0]);
        assertTrue(again[0].contains("starting " + runs.get(3)), again[0]);
        assertEquals(kept, Files.getLastModifiedTime(sweep.resolve(runs.get(0)).resolve("metrics.csv")));
        assertEquals(swept, best(sweep, runs));
    }

    @Test
    void anInterruptedSweepResumesItsRunsFromTheirCheckpoints() throws Exception {
        Path sweep = tmp.resolve("sweep");
        String[] args = {"sweep", "mlp", "--epochs", "100", "--save-every", "1", "--grid", "lr=0.01", "--out", sweep.toString()};
        Thread stopper = new Thread(() -> {
            long end = System.nanoTime() + 60_000_000_000L;
            while (!Files.exists(sweep.resolve("01_lr=0.01").resolve("model.safetensors")) && System.nanoTime() < end) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
            Interrupt.request();
        });
        stopper.start();
        String[] r = run(args);
        stopper.join();
        assertEquals("130", r[2], r[0] + r[1]);
        assertTrue(r[0].contains("01_lr=0.01 interrupted"), r[0]);
        Interrupt.reset();
        String[] again = run(args);
        assertEquals("0", again[2], again[1]);
        assertTrue(Files.readString(sweep.resolve("logs").resolve("01_lr=0.01.log")).contains("continuing "), "the second run resumed");
        assertTrue(Files.readString(sweep.resolve("sweep.csv")).contains(",finished,"));
    }

    @Test
    void aFailedRunIsRecordedAndTheSweepGoesOn() throws Exception {
        Path sweep = tmp.resolve("sweep");
        String[] r = run("sweep", "mlp", "--epochs", "1", "--grid", "lr=-1,0.05", "--out", sweep.toString());
        assertEquals("1", r[2], r[1]);
        String csv = Files.readString(sweep.resolve("sweep.csv"));
        assertTrue(csv.contains("01_lr=-1,-1,failed,") && csv.contains("--lr must be a positive number"), csv);
        assertTrue(csv.contains("1,02_lr=0.05,0.05,finished,"), csv);
    }

    @Test
    void badInputIsOneLineExitTwoAndNothingStarted() throws Exception {
        expectTwo("'mlp' has no option --lrr", "sweep", "mlp", "--grid", "lrr=0.1", "--out", tmp.resolve("a").toString());
        expectTwo("Missing required option: '--grid", "sweep", "mlp", "--out", tmp.resolve("b").toString());
        expectTwo("an empty value", "sweep", "mlp", "--grid", "lr=", "--out", tmp.resolve("c").toString());
        expectTwo("no trainer 'mpl'", "sweep", "mpl", "--grid", "lr=0.1", "--out", tmp.resolve("d").toString());
        expectTwo("'abc' is not a double", "sweep", "mlp", "--grid", "lr=abc", "--out", tmp.resolve("e").toString());
        expectTwo("set by the sweep", "sweep", "mlp", "--resume", "x", "--grid", "lr=0.1", "--out", tmp.resolve("f").toString());
        Path other = Files.createDirectories(tmp.resolve("other"));
        Files.writeString(other.resolve("notes.txt"), "mine");
        expectTwo("holds something else", "sweep", "mlp", "--grid", "lr=0.1", "--out", other.toString());
        try (var files = Files.list(tmp)) {
            assertEquals(List.of("other"), files.map(p -> p.getFileName().toString()).toList(), "no folder made for a refused sweep");
        }
        Path swept = tmp.resolve("other2");
        assertEquals("0", run("sweep", "mlp", "--epochs", "1", "--grid", "lr=0.05", "--out", swept.toString())[2]);
        expectTwo("holds another sweep", "sweep", "mlp", "--epochs", "1", "--grid", "lr=0.01", "--out", swept.toString());
    }

    private void expectTwo(String says, String... args) {
        String[] r = run(args);
        assertEquals("2", r[2], String.join(" ", args) + ": " + r[1]);
        assertTrue(r[1].contains(says), r[1]);
    }

    private static String[] run(String... args) {
        return CliRun.run(args);
    }
}
