package dev.jgrad.examples.train;

import dev.jgrad.examples.cli.Main;
import dev.jgrad.train.Interrupt;
import dev.jgrad.train.RunConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A run folder holds its options: what --resume RUN takes from it, what it accepts again, what it refuses. */
class RunOptionsIT {
    @TempDir
    Path tmp;

    /** Runs the CLI in this JVM; its exit code is checked, and stdout and stderr come back. */
    private static String[] cli(int expectedExit, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = System.out;
        PrintStream e = System.err;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(expectedExit, Main.run(args), String.join(" ", args) + "\n" + err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(o);
            System.setErr(e);
        }
        return new String[] {out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    private Path stoppedMlp() {
        Path dir = tmp.resolve("mlp");
        try {
            Interrupt.stopAfterSteps(20);
            cli(130, "train", "mlp", "--epochs", "3", "--seed", "3", "--lr", "0.02", "--batch-size", "50", "--out", dir.toString());
        } finally {
            Interrupt.reset();
        }
        return dir;
    }

    @Test
    void theFolderKeepsTheOptionsTheRunRanWithItsDefaultsIncluded() throws IOException {
        Path dir = stoppedMlp();
        RunConfig c = RunConfig.read(dir).orElseThrow();
        assertEquals("mlp", c.trainer());
        assertEquals("3", c.text("--epochs"));
        assertEquals("3", c.text("--seed"));
        assertEquals("0.02", c.text("--lr"));
        assertEquals("50", c.text("--batch-size"));
        assertEquals("10", c.text("--log-every"), "a default is kept as the value the run ran with");
        assertEquals(null, c.text("--out"), "where a run goes is not part of it");
        String said = cli(2, "train", "mlp", "--resume", dir.toString(), "--seed", "4")[1];
        assertTrue(said.contains("--seed 4 differs from 3") && said.contains(dir.toString()), said);
        assertEquals(1, said.lines().count(), said);
        assertTrue(cli(2, "train", "mlp", "--resume", dir.toString(), "--lr", "0.01")[1].contains("--lr 0.01 differs from 0.02"));
        cli(0, "train", "mlp", "--resume", dir.toString(), "--seed", "3", "--lr", "2e-2");
        assertTrue(Files.readString(dir.resolve("summary.json")).contains("\"epochs_done\": 3"));
    }

    @Test
    void aRunThatReplacesAnotherShowsOnlyItsOwnCurvesInTensorBoard() throws IOException {
        Path dir = tmp.resolve("replaced");
        cli(0, "train", "mlp", "--epochs", "2", "--seed", "1", "--batch-size", "50", "--out", dir.toString());
        cli(0, "train", "mlp", "--epochs", "1", "--seed", "2", "--batch-size", "50", "--overwrite", "--out", dir.toString());
        TensorBoardChecks.assertMatchesMetrics(dir);
        try (java.util.stream.Stream<Path> s = Files.list(dir.resolve("tb").resolve("hparams"))) {
            assertEquals(1, s.count(), "one hparams session: the run that finished last");
        }
        Path off = tmp.resolve("off");
        cli(0, "train", "mlp", "--epochs", "1", "--no-tensorboard", "--out", off.toString());
        assertFalse(Files.exists(off.resolve("tb")));
    }

    @Test
    void aRunIsExtendedWithMoreEpochsAndKeepsItsOtherOptions() throws IOException {
        Path dir = stoppedMlp();
        cli(0, "train", "mlp", "--resume", dir.toString(), "--epochs", "5");
        assertTrue(Files.readString(dir.resolve("summary.json")).contains("\"epochs_done\": 5"));
        RunConfig c = RunConfig.read(dir).orElseThrow();
        assertEquals("5", c.text("--epochs"));
        assertEquals("0.02", c.text("--lr"));
    }

    @Test
    void aRunFolderOfAnotherTrainerIsNamed() {
        Path dir = stoppedMlp();
        String said = cli(2, "train", "regression", "--resume", dir.toString())[1];
        assertTrue(said.contains("holds a run of mlp") && said.contains("./jgrad train mlp --resume " + dir), said);
    }

    /** The first thing one tries: a short GPT run with the default warm-up, shortened to fit and said once. */
    @Test
    void aShortGptRunShortensTheDefaultWarmUp() throws IOException {
        Path text = tmp.resolve("t.txt");
        Files.writeString(text, "to be or not to be, that is the question\n".repeat(400));
        Path dir = tmp.resolve("gpt");
        String[] said = cli(0, "train", "gpt", "--data", text.toString(), "--max-iters", "10", "--n-layer", "1", "--n-embd", "32",
                "--sample-tokens", "10", "--out", dir.toString());
        assertEquals(1, said[1].lines().filter(l -> l.contains("warm-up")).count(), said[1]);
        assertTrue(said[1].contains("warming up for 0"), said[1]);
        assertEquals("0", RunConfig.read(dir).orElseThrow().text("--warmup-iters"));
        assertEquals(text.toAbsolutePath().toString(), RunConfig.read(dir).orElseThrow().text("--data"));
        assertTrue(cli(2, "train", "gpt", "--data", text.toString(), "--max-iters", "10", "--warmup-iters", "50", "--out",
                tmp.resolve("g2").toString())[1].contains("--warmup-iters (50) must not exceed --lr-decay-iters (10)"), "a warm-up the user set is not changed");
        // Continued from its folder alone: the run had finished, so nothing more is trained.
        cli(0, "train", "gpt", "--resume", dir.toString());
    }

    @Test
    void plotTakesARunFolder() {
        Path dir = stoppedMlp();
        Path png = tmp.resolve("again.png");
        cli(0, "plot", dir.toString(), "--out", png.toString());
        assertTrue(png.toFile().length() > 1000);
        assertTrue(cli(2, "plot", tmp.toString())[1].contains("without a metrics.csv"));
    }

    /** The launcher with a small heap: the JVM's own warnings go to stderr, so stdout holds only what jgrad prints. */
    @Test
    void theLauncherKeepsTheJvmsWarningsOffStdout() throws Exception {
        Path launcher = Path.of("..", "jgrad").toAbsolutePath().normalize();
        for (String opts : new String[] {"-Xmx64m", "-Xmx64m -Xmn128m"}) {
            ProcessBuilder pb = new ProcessBuilder("bash", launcher.toString(), "--version");
            pb.environment().put("JGRAD_JAVA_OPTS", opts);
            pb.environment().put("JGRAD_NO_BUILD", "1");
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.getErrorStream().readAllBytes();
            assertEquals(0, p.waitFor());
            assertTrue(out.startsWith("jgrad 0.1.0") && !out.toLowerCase(java.util.Locale.ROOT).contains("warning"), opts + ": " + out);
        }
        assertFalse(Files.exists(tmp.resolve("runs")));
    }

    /** Ctrl-C while a run is still setting up (reading a large text) stops it at once, with one line, and writes nothing. */
    @Test
    void theFirstCtrlCDuringSetUpStopsAtOnce() throws Exception {
        Path text = tmp.resolve("big.txt");
        try (java.io.Writer w = Files.newBufferedWriter(text)) {
            String line = "to be or not to be, that is the question; whether 'tis nobler in the mind to suffer\n";
            for (int i = 0; i < 1_200_000; i++) {
                w.write(line);
            }
        }
        Path dir = tmp.resolve("never");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "train", "gpt", "--data", text.toString(), "--out", dir.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        Thread.sleep(1500);
        long signalled = System.nanoTime();
        new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
        assertTrue(p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS), "the run did not stop");
        double seconds = (System.nanoTime() - signalled) / 1e9;
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(130, p.exitValue(), err);
        assertTrue(err.contains("before the training loop began; nothing of this run was written"), err);
        assertTrue(seconds < 5, "stopped " + seconds + " s after the signal");
        assertFalse(Files.exists(dir.resolve("model.safetensors")));
    }
}
