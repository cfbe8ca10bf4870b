package dev.jgrad.bench;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code jgrad bench}'s bad usage: exit code 2 and one line that names the flag, before any benchmark runs. */
class BenchCommandTest {
    private static String refused(String... args) {
        PrintStream err = System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (PrintStream capture = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            System.setErr(capture);
            assertEquals(2, BenchMain.run(args), String.join(" ", args));
        } finally {
            System.setErr(err);
        }
        String out = buf.toString(StandardCharsets.UTF_8).strip();
        assertEquals(1, out.lines().count(), "one line: " + out);
        assertTrue(out.length() < 300, "under 300 characters: " + out.length());
        assertTrue(out.startsWith("jgrad: error: ") && out.endsWith("(see 'jgrad bench --help')"), out);
        return out;
    }

    @Test
    void badUsageExitsTwoWithOneLineNamingTheFlag() {
        assertTrue(refused("--only", "conv3d").contains("'conv3d' matches no benchmark"));
        assertTrue(refused("--only", "W2(").contains("not a regular expression"));
        assertTrue(refused("--threads", "0").contains("--threads must be from 1 to"));
        assertTrue(refused("--threads", "100000").contains("--threads must be from 1 to"));
        assertTrue(refused("--threads", "1,x").contains("--threads"));
        assertTrue(refused("--threads", "1,-2").contains("--threads"));
        assertTrue(refused("--no-such-flag").contains("--no-such-flag"));
    }

    /** Started without the Vector API module, --peak says how to start it instead of failing to load its classes. */
    @Test
    void peakWithoutTheVectorModuleSaysHowToRunIt() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), BenchMain.class.getName(), "--peak")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(2, p.waitFor(), err);
        assertEquals(1, err.lines().count(), "one line: " + err);
        assertTrue(err.startsWith("jgrad: error: --peak measures with the Vector API") && err.contains("./jgrad bench --peak")
                && err.length() < 300, err);
    }

    @Test
    void helpExitsZero() {
        assertEquals(0, BenchMain.run("--help"));
    }
}
