package dev.jgrad.examples.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CliTest {
    @TempDir
    Path tmp;

    private Path corpus() throws IOException {
        Path p = tmp.resolve("cases.json");
        try (InputStream in = CliTest.class.getResourceAsStream("/oracle/cases.json")) {
            Files.copy(in, p);
        }
        return p;
    }

    @Test
    void theDashboardRefusesAMissingFolderAndABadPortWithExitTwo() {
        assertEquals(2, Main.run("dashboard", tmp.resolve("nowhere").toString()));
        assertEquals(2, Main.run("dashboard", tmp.toString(), "--port", "70000"));
        assertEquals(2, Main.run("train", "mlp", "--dashboard", "--dashboard-port", "-1", "--out", tmp.resolve("r").toString()));
    }

    @Test
    void unknownFlagsAndMissingArgumentsExitTwo() {
        assertEquals(2, Main.run("--no-such-flag"));
        assertEquals(2, Main.run());
        assertEquals(2, Main.run("conformance"));
        assertEquals(2, Main.run("no-such-command"));
    }

    @Test
    void helpAndVersionExitZero() {
        assertEquals(0, Main.run("--help"));
        assertEquals(0, Main.run("--version"));
    }

    @Test
    void conformanceWritesResultsAndMissingOrCorruptInputExitsTwo() throws IOException {
        Path out = tmp.resolve("R.json");
        assertEquals(0, Main.run("conformance", corpus().toString(), "--out", out.toString()));
        assertTrue(Files.size(out) > 1000);
        assertEquals(2, Main.run("conformance", tmp.resolve("missing.json").toString(), "--out", out.toString()));
        Path corrupt = tmp.resolve("corrupt.json");
        Files.writeString(corrupt, "{\"cases\": [");
        Path untouched = tmp.resolve("keep.json");
        Files.writeString(untouched, "old");
        assertEquals(2, Main.run("conformance", corrupt.toString(), "--out", untouched.toString()));
        assertEquals("old", Files.readString(untouched), "a failed run leaves the old file whole");
        assertFalse(Files.list(tmp).anyMatch(p -> p.getFileName().toString().endsWith(".tmp")));
    }

    /** Runs the CLI in a new JVM with these JVM options (no Vector API module unless they add it); stdout and stderr. */
    private static String[] runJvm(java.util.List<String> jvmOptions, String... args) throws Exception {
        return runJvm(0, jvmOptions, args);
    }

    private static String[] runJvm(int expectedExit, java.util.List<String> jvmOptions, String... args) throws Exception {
        java.util.List<String> cmd = new java.util.ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.addAll(java.util.List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(java.util.List.of(args));
        Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(expectedExit, p.waitFor(), err);
        return new String[] {out, err};
    }

    /** A model too large for the heap is refused before it is built: one line that names the heap and the setting, exit 2. */
    @Test
    void aModelTooLargeForTheHeapIsOneLineNamingTheSetting() throws Exception {
        Path text = tmp.resolve("t.txt");
        Files.writeString(text, "abcdefghij".repeat(2000));
        String[] r = runJvm(2, java.util.List.of("-Xmx48m", "-Djgrad.vector=false"), "train", "gpt", "--data", text.toString(),
                "--n-layer", "24", "--n-embd", "1024", "--n-head", "8", "--out", tmp.resolve("oom").toString());
        java.util.List<String> lines = r[1].lines().filter(l -> !l.isBlank()).collect(java.util.stream.Collectors.toList());
        assertEquals(1, lines.size(), r[1]);
        assertTrue(lines.get(0).startsWith("jgrad: error: a GPT of 24 layers") && lines.get(0).contains("JGRAD_JAVA_OPTS=-Xmx")
                && lines.get(0).contains("heap's 48 MB") && lines.get(0).length() < 300, lines.get(0));
    }

    /** A program started without the Vector API module is told so once, with the flag; choosing the plain kernels hides it. */
    @Test
    void theSlowPathIsAnnouncedOnceWithTheFlag() throws Exception {
        String[] plain = runJvm(java.util.List.of(), "--version");
        assertTrue(plain[0].contains("kernels: plain Java"), plain[0]);
        java.util.List<String> lines = plain[1].lines().filter(l -> l.startsWith("jgrad:")).collect(java.util.stream.Collectors.toList());
        assertEquals(1, lines.size(), plain[1]);
        assertTrue(lines.get(0).contains("--add-modules jdk.incubator.vector") && lines.get(0).length() < 300, lines.get(0));
        String[] chosen = runJvm(java.util.List.of("-Djgrad.vector=false"), "--version");
        assertFalse(chosen[1].contains("jgrad:"), chosen[1]);
        String[] vector = runJvm(java.util.List.of("--add-modules", "jdk.incubator.vector"), "--version");
        assertTrue(vector[0].contains("kernels: Vector API"), vector[0]);
        assertFalse(vector[1].contains("jgrad:"), vector[1]);
    }

    /** Bad usage that is close to good usage gets a suggestion; choices take any case; 'jgrad help' is a command. */
    @Test
    void mistakesGetSuggestionsAndChoicesIgnoreCase() throws Exception {
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        java.io.PrintStream err = System.err;
        try (java.io.PrintStream capture = new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8)) {
            System.setErr(capture);
            assertEquals(2, Main.run("train", "mlp", "--epoch", "1"));
            assertEquals(2, Main.run("train", "fashon"));
            assertEquals(2, Main.run("train", "mlp", "--epochs", "x".repeat(400)));
        } finally {
            System.setErr(err);
        }
        String said = buf.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(said.contains("did you mean --epochs?"), said);
        assertTrue(said.contains("did you mean fashion?"), said);
        assertTrue(said.lines().allMatch(l -> l.length() < 300), "every error line under 300 characters: " + said);
        assertEquals(2, Main.run("train", "regression", "--threads", "100000", "--out", tmp.resolve("t").toString()));
        assertEquals(0, Main.run("help"));
        assertEquals(0, Main.run("help", "train"));
        Path missing = tmp.resolve("no-such-dir");
        java.io.ByteArrayOutputStream buf2 = new java.io.ByteArrayOutputStream();
        try (java.io.PrintStream capture = new java.io.PrintStream(buf2, true, java.nio.charset.StandardCharsets.UTF_8)) {
            System.setErr(capture);
            assertEquals(2, Main.run("train", "fashion", "--model", "CNN", "--data", missing.toString(), "--out", tmp.resolve("run").toString()));
        } finally {
            System.setErr(err);
        }
        String line = buf2.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertFalse(line.contains("--model"), "CNN is a model, whatever its case: " + line);
        assertTrue(line.contains(missing.toString()), "the run got as far as looking for the data: " + line);
    }

    /** Runs the CLI in this JVM and returns what it wrote to stdout and stderr, with its exit code checked. */
    private static String[] capture(int expectedExit, String... args) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream o = System.out;
        java.io.PrintStream e = System.err;
        try {
            System.setOut(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
            System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
            assertEquals(expectedExit, Main.run(args), String.join(" ", args));
        } finally {
            System.setOut(o);
            System.setErr(e);
        }
        return new String[] {out.toString(java.nio.charset.StandardCharsets.UTF_8), err.toString(java.nio.charset.StandardCharsets.UTF_8)};
    }

    /** A checkpoint that is not there is named as given, not as the tokenizer beside it that was looked for. */
    @Test
    void aMissingCheckpointIsNamed() {
        Path nowhere = tmp.resolve("no-such-run");
        String err = capture(2, "sample", "--checkpoint", nowhere.toString())[1];
        assertTrue(err.contains("--checkpoint " + nowhere + ": no such folder or file") && !err.contains("tokenizer.json"), err);
    }

    /** A transposed command name gets its suggestion too ("gtp" is one swap from "gpt"); a far one gets the list. */
    @Test
    void aMistypedTrainerIsNamed() {
        assertTrue(capture(2, "train", "gtp")[1].contains("did you mean gpt?"));
        assertTrue(capture(2, "train", "transformer")[1].contains("choose one of regression, attention, mlp, fashion, pinn, gpt"));
        assertEquals(1, Main.editDistance("gtp", "gpt"));
        assertEquals(3, Main.editDistance("abc", "xyz"));
    }

    /** Each trainer's --help lists the options it takes, and only those. */
    @Test
    void eachTrainersHelpListsOnlyItsOwnOptions() {
        String gpt = capture(0, "train", "gpt", "--help")[0];
        assertTrue(gpt.contains("--max-iters") && gpt.contains("--resume"), gpt);
        assertFalse(gpt.contains("--epochs") || gpt.contains("--save-every"), "the GPT counts iterations:\n" + gpt);
        assertTrue(capture(2, "train", "gpt", "--epochs", "3", "--data", "x.txt")[1].contains("'--epochs'")
                && capture(2, "train", "gpt", "--epochs", "3", "--data", "x.txt")[1].contains("train gpt counts iterations, not epochs: use --max-iters N"));
        for (String trainer : new String[] {"regression", "attention", "mlp", "fashion", "pinn"}) {
            String help = capture(0, "train", trainer, "--help")[0];
            assertTrue(help.contains("--epochs") && !help.contains("--max-iters"), trainer + ":\n" + help);
        }
    }

    /** --early-stop ends a trainer's run once its held-out loss stops improving, says so, and a bad value is one line. */
    @Test
    void earlyStopEndsARunWhenTheHeldOutLossStopsImproving() throws IOException {
        Path run = tmp.resolve("mlp-early");
        String said = capture(0, "train", "mlp", "--epochs", "200", "--early-stop", "1", "--out", run.toString())[0];
        Map<?, ?> summary = (Map<?, ?>) dev.jgrad.nn.io.Json.parse(Files.readString(run.resolve("summary.json")));
        long stoppedAfter = ((Number) summary.get("stopped_early_after")).longValue();
        assertTrue(stoppedAfter < 200 && ((Number) summary.get("epochs_done")).longValue() == stoppedAfter, summary.toString());
        assertTrue(said.contains("stopped early after epoch " + stoppedAfter + ": the held-out loss has not improved for 1 epochs"), said);
        assertTrue(Files.readString(run.resolve("config.json")).contains("\"--early-stop\": 1"), Files.readString(run.resolve("config.json")));
        assertEquals("jgrad: error: --early-stop must be at least 1, got 0 (see 'jgrad train mlp --help')",
                capture(2, "train", "mlp", "--early-stop", "0", "--out", tmp.resolve("m0").toString())[1].strip());
        String regression = capture(2, "train", "regression", "--early-stop", "3", "--out", tmp.resolve("r").toString())[1];
        assertTrue(regression.startsWith("jgrad: error: --early-stop: the regression trains") && regression.lines().count() == 1, regression);
    }

    /** A text that is not there is named in the error, as given. */
    @Test
    void aMissingTextIsNamed() {
        String err = capture(2, "train", "gpt", "--data", "nosuchfile.txt", "--out", tmp.resolve("g").toString())[1];
        assertTrue(err.contains("--data nosuchfile.txt: ") && err.lines().count() == 1, err);
    }

    /** The sampler's speed leaves out the first token, which carries the prompt and the JIT's compiling. */
    @Test
    void theSamplersSpeedIsMeasuredAfterTheFirstToken() {
        String line = SampleCommand.speed(21, 0, 1_000_000_000L, 1_200_000_000L);
        assertTrue(line.startsWith("21 tokens in 1.20 s: 100 tokens/s after the first, which took 1.00 s"), line);
        assertEquals("1 token(s) in 0.50 s", SampleCommand.speed(1, 0, 1, 500_000_000L));
    }

    /** A batch of collocation points beyond the heap is refused at once, in one line. */
    @Test
    void aPinnBatchBeyondTheHeapIsRefusedAtOnce() {
        String err = capture(2, "train", "pinn", "--batch-size", "100000000", "--out", tmp.resolve("p").toString())[1];
        assertTrue(err.startsWith("jgrad: error: a PINN step on 100000000 collocation points needs about") && err.lines().count() == 1, err);
    }

    /** The hostile values of the GPT's options are refused in one line each, before anything is built or read. */
    @Test
    void theGptsHostileSizesAreRefusedAtOnce() throws IOException {
        Path text = tmp.resolve("t.txt");
        Files.writeString(text, "to be or not to be, that is the question\n".repeat(400));
        String[][] cases = {
            {"--block-size", "300000000"}, {"--n-layer", "100000"}, {"--n-embd", "100000", "--n-head", "1"},
            {"--sample-tokens", "2147483647"}, {"--batch-size", "2147483647"}};
        for (String[] c : cases) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("train", "gpt", "--data", text.toString(), "--out",
                    tmp.resolve("h").toString()));
            args.addAll(java.util.List.of(c));
            String err = capture(2, args.toArray(new String[0]))[1];
            assertEquals(1, err.lines().filter(l -> !l.isBlank()).count(), String.join(" ", c) + ": " + err);
            assertTrue(err.startsWith("jgrad: error: "), err);
        }
        assertFalse(Files.exists(tmp.resolve("h").resolve("model.safetensors")));
    }

    /** Cases that are not cases are failures naming their place, never a stack trace. */
    @Test
    void aCorpusOfMalformedCasesIsJudgedNotCrashedOn() throws IOException {
        Path cases = tmp.resolve("odd.json");
        Files.writeString(cases, "{\"cases\":[1,\"x\",null,[],{},{\"id\":\"add.1\",\"steps\":7}]}");
        String[] r = capture(1, "conformance", cases.toString(), "--check", "--out", tmp.resolve("r.json").toString());
        assertTrue(r[0].contains("FAIL cases[0]: not a case") && r[0].contains("FAIL cases[4]") && r[0].contains("FAIL add.1: malformed")
                && r[0].contains("0 passed, 6 failed"), r[0]);
        assertFalse(r[1].contains("Exception"), r[1]);
    }
}
