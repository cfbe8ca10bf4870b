package dev.jgrad.examples.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

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

    /** Running out of heap is one line that names the heap and the setting to raise, exit 2, no trace. */
    @Test
    void outOfMemoryIsOneLineNamingTheSetting() throws Exception {
        Path text = tmp.resolve("t.txt");
        Files.writeString(text, "abcdefghij".repeat(2000));
        String[] r = runJvm(2, java.util.List.of("-Xmx48m", "-Djgrad.vector=false"), "train", "gpt", "--data", text.toString(),
                "--n-layer", "24", "--n-embd", "1024", "--n-head", "8", "--out", tmp.resolve("oom").toString());
        java.util.List<String> lines = r[1].lines().filter(l -> !l.isBlank()).collect(java.util.stream.Collectors.toList());
        assertEquals(1, lines.size(), r[1]);
        assertTrue(lines.get(0).startsWith("jgrad: error: out of memory") && lines.get(0).contains("JGRAD_JAVA_OPTS=-Xmx")
                && lines.get(0).length() < 300, lines.get(0));
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
}
