package dev.jgrad.examples.train;

import dev.jgrad.examples.Launcher;
import dev.jgrad.examples.cli.Main;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A run's numbers are the same bits whatever runs it: JDK 17 or 25 (where the machine has a 25), 1 or 2 threads, with or
 * without a tuning file (here one with the most extreme choices a file may hold). A short GPT, a PINN and a Fashion-MNIST
 * CNN, each a child JVM started as the launcher starts it; their model files and curves are compared byte for byte.
 */
class ParityIT {
    @TempDir
    Path tmp;

    /** A JDK 25 on this machine (JAVA25_HOME, or Temurin's or Debian's usual folder), or null. */
    static Path jdk25() {
        List<String> candidates = new ArrayList<>();
        if (System.getenv("JAVA25_HOME") != null) {
            candidates.add(System.getenv("JAVA25_HOME"));
        }
        candidates.addAll(List.of("/usr/lib/jvm/temurin-25-jdk-amd64", "/usr/lib/jvm/java-25-openjdk-amd64"));
        for (String c : candidates) {
            Path java = Path.of(c, "bin", "java");
            if (Files.isExecutable(java)) {
                return java;
            }
        }
        return null;
    }

    private Path text() throws IOException {
        Path p = tmp.resolve("t.txt");
        StringBuilder sb = new StringBuilder();
        java.util.Random r = new java.util.Random(5);
        String[] words = {"to", "be", "or", "not", "that", "is", "the", "question", "whether", "tis", "nobler"};
        while (sb.length() < 30_000) {
            sb.append(words[r.nextInt(words.length)]).append(r.nextInt(9) == 0 ? ".\n" : " ");
        }
        Files.writeString(p, sb);
        return p;
    }

    /** Runs {@code jgrad train ARGS --out DIR} in a child JVM {@code java} with the launcher's flags and {@code more} of its own. */
    private Path run(Path java, String name, List<String> more, String... args) throws Exception {
        Path dir = tmp.resolve(name);
        List<String> command = new ArrayList<>(List.of("train"));
        command.addAll(List.of(args));
        command.addAll(List.of("--out", dir.toString()));
        jgrad(java, name, more, command);
        return dir;
    }

    /** Runs {@code jgrad COMMAND} in a child JVM {@code java} with the launcher's flags and {@code more} of its own. */
    private static void jgrad(Path java, String name, List<String> more, List<String> command) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "--add-modules", "jdk.incubator.vector"));
        cmd.addAll(Launcher.jitFlags());
        cmd.addAll(List.of("-XX:+UseParallelGC", "-Djava.awt.headless=true"));
        cmd.addAll(more);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(command);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), name + ":\n" + out);
    }

    /**
     * Every value and gradient of the conformance corpus (795 programs, float32 and float64, first and higher order) is
     * the same bits on JDK 17 and 25: tanh, whose Math form is an intrinsic with another last bit from JDK 24 on, made
     * the float64 programs that use it differ.
     */
    @Test
    void theConformanceCorpusGivesTheSameBitsOnJdk17And25() throws Exception {
        Path java25 = jdk25();
        Assumptions.assumeTrue(java25 != null, "no JDK 25 here to compare JDK 17 with");
        Path java17 = Path.of(System.getProperty("java.home"), "bin", "java");
        Path cases = tmp.resolve("cases.json");
        try (java.io.InputStream in = ParityIT.class.getResourceAsStream("/oracle/cases.json")) {
            Files.copy(in, cases);
        }
        Path on17 = tmp.resolve("conformance-17.json");
        Path on25 = tmp.resolve("conformance-25.json");
        jgrad(java17, "conformance on " + java17, List.of(), List.of("conformance", cases.toString(), "--out", on17.toString()));
        jgrad(java25, "conformance on " + java25, List.of(), List.of("conformance", cases.toString(), "--out", on25.toString()));
        String a = Files.readString(on17);
        String b = Files.readString(on25);
        int at = 0;
        while (at < Math.min(a.length(), b.length()) && a.charAt(at) == b.charAt(at)) {
            at++;
        }
        // The program the first difference is in, and the values there (the whole file is 2 MB).
        int from = Math.max(0, a.lastIndexOf("{\"id\"", at));
        assertEquals(a.length(), at, "JDK 17 and JDK 25 differ first at character " + at + ":\n  17: "
                + a.substring(from, Math.min(a.length(), at + 40)) + "\n  25: " + b.substring(from, Math.min(b.length(), at + 40)));
        assertEquals(a.length(), b.length(), "JDK 25's results are longer than JDK 17's");
    }

    /** Small Fashion-MNIST files for the CNN (convolutions, batch norm, pooling): 320 training images, 64 test images. */
    private Path fashion() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("fashion"));
        FashionExampleIT.writeSet(dir, "train", 320, 1);
        FashionExampleIT.writeSet(dir, "t10k", 64, 2);
        return dir;
    }

    private static void assertSameRun(Path a, Path b, String what) throws IOException {
        assertArrayEquals(Files.readAllBytes(a.resolve("model.safetensors")), Files.readAllBytes(b.resolve("model.safetensors")), what + ": model");
        assertEquals(Files.readString(a.resolve("metrics.csv")), Files.readString(b.resolve("metrics.csv")), what + ": curves");
    }

    @Test
    void theSameRunGivesTheSameBitsOnEveryJdkThreadCountAndTuning() throws Exception {
        Path java17 = Path.of(System.getProperty("java.home"), "bin", "java");
        Path tuning = tmp.resolve("extreme-tuning.json");
        String[][] runs = {
            {"gpt", "--data", text().toString(), "--max-iters", "24", "--eval-interval", "12", "--n-layer", "2", "--n-embd", "48",
                "--n-head", "3", "--sample-tokens", "0"},
            {"pinn", "--epochs", "1"},
            {"fashion", "--model", "cnn", "--data", fashion().toString(), "--epochs", "1", "--batch-size", "32"}};
        for (String[] r : runs) {
            String t = r[0];
            Path base = run(java17, t + "-1", List.of(), add(r, "--threads", "1"));
            assertSameRun(base, run(java17, t + "-2", List.of(), add(r, "--threads", "2")), t + " on 2 threads");
            // A tuning file of the extreme choices for this processor, written by the tuner's own writer.
            writeExtremeTuning(tuning);
            assertSameRun(base, run(java17, t + "-tuned", List.of("-Djgrad.tuning=" + tuning), add(r, "--threads", "2")), t + " with a tuning file");
            Path java25 = jdk25();
            if (java25 != null) {
                assertSameRun(base, run(java25, t + "-25", List.of(), add(r, "--threads", "2")), t + " on JDK 25");
            }
        }
        Assumptions.assumeTrue(jdk25() != null, "no JDK 25 here: JDK 17 was compared with itself only (1 and 2 threads, tuning)");
    }

    private static String[] add(String[] args, String... more) {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of(more));
        return a.toArray(new String[0]);
    }

    /** A tuning file for this processor (written by jgrad tune) changed to the largest row block and smallest split it may hold. */
    private static void writeExtremeTuning(Path file) throws IOException {
        String before = System.getProperty("jgrad.tuning");
        System.setProperty("jgrad.tuning", file.toString());
        try {
            assertEquals(0, Main.run("tune"));
        } finally {
            if (before == null) {
                System.clearProperty("jgrad.tuning");
            } else {
                System.setProperty("jgrad.tuning", before);
            }
        }
        String text = Files.readString(file).replaceAll("\"gemm_row_block\": [0-9]+", "\"gemm_row_block\": 768")
                .replaceAll("\"parallel_min\": [0-9]+", "\"parallel_min\": 2048");
        Files.writeString(file, text);
    }
}
