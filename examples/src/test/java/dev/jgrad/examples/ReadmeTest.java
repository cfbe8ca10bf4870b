package dev.jgrad.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The README's code cannot rot: its training loop is compiled and run as written. */
class ReadmeTest {
    @TempDir
    Path tmp;

    static String readme() throws Exception {
        Path p = Path.of("..", "README.md");
        return Files.readString(Files.exists(p) ? p : Path.of("README.md"));
    }

    /** The Java blocks of a section, from {@code heading} to {@code nextHeading} (or the end), in order. */
    static java.util.List<String> javaBlocks(String readme, String heading, String nextHeading) {
        int at = readme.indexOf(heading);
        assertTrue(at >= 0, "README has no section '" + heading + "'");
        int end = nextHeading == null ? readme.length() : readme.indexOf(nextHeading, at);
        String section = readme.substring(at, end);
        java.util.List<String> blocks = new java.util.ArrayList<>();
        for (int i = section.indexOf("```java\n"); i >= 0; i = section.indexOf("```java\n", i)) {
            int start = i + "```java\n".length();
            int stop = section.indexOf("```", start);
            blocks.add(section.substring(start, stop));
            i = stop + 3;
        }
        return blocks;
    }

    /** The source of a class {@code name} whose main runs the statements of {@code body}, its import lines moved on top. */
    static String wrapped(String name, String body) {
        java.util.Set<String> imports = new java.util.LinkedHashSet<>();
        StringBuilder code = new StringBuilder();
        for (String line : body.split("\n")) {
            if (line.startsWith("import ")) {
                imports.add(line);
            } else {
                code.append(line).append('\n');
            }
        }
        return String.join("\n", imports) + "\npublic class " + name + " {\n public static void main(String[] args) throws Exception {\n" + code
                + " }\n}\n";
    }

    /** Compiles a class whose main runs {@code body} (imports go on top) and returns what it printed. */
    private String compileAndRun(String name, String body) throws Exception {
        return compileAndRunClass(name, wrapped(name, body));
    }

    /** Compiles the class {@code name} from {@code source} into the temporary folder; fails with the compiler's errors. */
    private void compile(String name, String source) throws Exception {
        Path src = tmp.resolve(name + ".java");
        Files.writeString(src, source);
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, errors, "-d", tmp.toString(), "-cp",
                System.getProperty("java.class.path"), src.toString());
        assertEquals(0, rc, "README code does not compile as pasted:\n" + errors.toString(StandardCharsets.UTF_8) + "\n" + source);
    }

    /** Compiles the class {@code name} from {@code source}, runs its main with {@code args}, and returns what it printed. */
    private String compileAndRunClass(String name, String source, String... args) throws Exception {
        compile(name, source);
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (URLClassLoader cl = new URLClassLoader(new URL[] {tmp.toUri().toURL()}, getClass().getClassLoader())) {
            Method main = cl.loadClass(name).getMethod("main", String[].class);
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            main.invoke(null, (Object) args);
        } finally {
            System.setOut(original);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Every Java block of the README compiles as it is pasted: a whole program as a file, statements inside a main. */
    @Test
    void everyJavaBlockCompilesAsPasted() throws Exception {
        java.util.List<String> blocks = javaBlocks(readme(), "# jgrad", null);
        assertTrue(blocks.size() >= 9, "found " + blocks.size() + " Java blocks");
        compileEach(blocks, "Block");
    }

    /** So does every Java block of docs/command-line.md (a program's own TensorBoard files). */
    @Test
    void theCommandLineDocsJavaBlocksCompileAsPasted() throws Exception {
        Path p = Path.of("..", "docs", "command-line.md");
        String doc = Files.readString(Files.exists(p) ? p : Path.of("docs", "command-line.md"));
        java.util.List<String> blocks = javaBlocks(doc, "# The command line", null);
        assertTrue(blocks.size() >= 1, "found " + blocks.size() + " Java blocks");
        compileEach(blocks, "DocBlock");
    }

    /** Compiles each block: a whole program as a file, statements inside a main of a class named prefix + its position. */
    private void compileEach(java.util.List<String> blocks, String prefix) throws Exception {
        int n = 0;
        for (String block : blocks) {
            Matcher cls = Pattern.compile("(?m)^public class (\\w+)").matcher(block);
            if (cls.find()) {
                compile(cls.group(1), block);
            } else {
                compile(prefix + n, wrapped(prefix + n, block));
            }
            n++;
        }
    }

    @Test
    void theTourRunsAndPrintsWhatItSays() throws Exception {
        java.util.List<String> tour = javaBlocks(readme(), "## A short tour", "### Two checks");
        assertEquals(3, tour.size());
        String printed = compileAndRun("Tour", String.join("\n", tour));
        String first = tour.get(0);
        StringBuilder expected = new StringBuilder();
        for (String line : first.split("\n")) {
            if (line.startsWith("// ")) {
                expected.append(line.substring(3)).append('\n');
            }
        }
        assertEquals(expected.toString(), printed, "the printed tensor in the README");
    }

    @Test
    void theWhereLogExampleGivesTheGradientsItStates() throws Exception {
        java.util.List<String> blocks = javaBlocks(readme(), "### Why `where", "### Gradients of gradients");
        assertEquals(2, blocks.size());
        String checks = "float[] g = x.grad().toFloatArray();\n"
                + "if (!(g[0] == 0f && 1 / g[0] < 0 && Float.isNaN(g[1]) && g[2] == 0.5f)) throw new AssertionError(java.util.Arrays.toString(g));\n"
                + "float[] h = z.grad().toFloatArray();\n"
                + "if (!(h[0] == 0f && h[1] == 0f && h[2] == 0.5f)) throw new AssertionError(java.util.Arrays.toString(h));\n";
        compileAndRun("WhereLog", blocks.get(0) + blocks.get(1) + checks);
    }

    @Test
    void theGradientsOfGradientsExampleGivesTheDerivativesItStates() throws Exception {
        java.util.List<String> blocks = javaBlocks(readme(), "### Gradients of gradients", "## Layers");
        assertEquals(1, blocks.size());
        String checks = "float[] h = hv.toFloatArray();\n"
                + "if (!(h.length == 2 && Math.abs(h[0] - 6f) < 1e-5 && Math.abs(h[1] - 12f) < 1e-5)) throw new AssertionError(java.util.Arrays.toString(h));\n"
                + "float[] d = d2u.data().toFloatArray();\n"
                + "for (int i = 0; i < 3; i++) if (Math.abs(d[i] + 4 * Math.sin(2 * 0.5 * i)) > 1e-5) throw new AssertionError(java.util.Arrays.toString(d));\n";
        assertEquals("true\n", compileAndRun("GradGrad", blocks.get(0) + checks));
    }

    /** The README's hand-written loop runs and learns. */
    @Test
    void theLoopByHandLearns() throws Exception {
        java.util.List<String> blocks = javaBlocks(readme(), "## Train your own model", "## The command line");
        assertEquals(2, blocks.size());
        String printed = compileAndRun("ByHand", blocks.get(1));
        Matcher m = Pattern.compile("epoch (\\d+) loss ([0-9.]+)").matcher(printed);
        double first = Double.NaN;
        double last = Double.NaN;
        while (m.find()) {
            first = Double.isNaN(first) ? Double.parseDouble(m.group(2)) : first;
            last = Double.parseDouble(m.group(2));
        }
        assertTrue(last < first / 5, "the loop should learn: " + printed);
    }

    /** The starter project's program, from the repository's root or the examples module. */
    static Path starter(String file) {
        Path p = Path.of("starter", file);
        return Files.exists(p) ? p : Path.of("examples", "starter", file);
    }

    /**
     * The README shows the starter's whole program, which compiles, trains into its run folder and learns; run again, it
     * continues that run rather than start over.
     */
    @Test
    void theStarterProgramIsTheReadmesAndLearns() throws Exception {
        String source = Files.readString(starter("src/main/java/TrainYourOwn.java"));
        assertEquals(source, javaBlocks(readme(), "## Train your own model", "## The command line").get(0),
                "the README's program is the starter's TrainYourOwn.java, whole");
        Path run = tmp.resolve("runs-own");
        String printed = compileAndRunClass("TrainYourOwn", source, run.toString());
        Matcher m = Pattern.compile("held-out loss ([0-9.]+) after (\\d+) steps").matcher(printed);
        assertTrue(m.find(), printed);
        assertTrue(Double.parseDouble(m.group(1)) < 0.02 && m.group(2).equals("480"), printed);
        assertTrue(printed.startsWith("193 parameters"), printed);
        for (String f : new String[] {"config.json", "metrics.csv", "loss.png", "summary.json", "model.safetensors", "optimizer.safetensors"}) {
            assertTrue(Files.size(run.resolve(f)) > 0, f);
        }
        String again = compileAndRunClass("TrainYourOwn", source, run.toString());
        assertTrue(again.contains("continuing " + run) && again.contains("after 480 steps") && again.contains("no new checkpoint"), again);
    }

    /** The starter runs the program with the launcher's JVM flags, and its run folder goes under target/. */
    @Test
    void theStarterSetsTheJvmFlags() throws Exception {
        String pom = Files.readString(starter("pom.xml"));
        for (String flag : new String[] {"<release>17</release>", "<argument>jdk.incubator.vector</argument>", "<argument>-XX:+UseParallelGC</argument>",
            "<argument>-Xmn128m</argument>", "<artifactId>jgrad-train</artifactId>", "<argument>${project.build.directory}/runs/own</argument>"}) {
            assertTrue(pom.contains(flag), "the starter's pom.xml lacks " + flag);
        }
        // The JIT flags: LauncherFlagsTest.
        String script = Launcher.script();
        assertTrue(script.contains("--add-modules jdk.incubator.vector $JIT_FLAGS -XX:+UseParallelGC $YOUNG")
                && script.contains("YOUNG=\"-Xmn128m\""), "the launcher's flags changed: change the starter's pom.xml with them");
    }

    /** Every file the README names by its path (`bench/compare.py`, `DESIGN.md`, ...) is in the repository. */
    @Test
    void everyFileTheReadmeNamesIsInTheRepository() throws Exception {
        Path root = Files.exists(Path.of("..", "README.md")) ? Path.of("..") : Path.of(".");
        Matcher m = Pattern.compile("`((?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_-]+\\.(?:py|java|json|md|safetensors|xml|sh))`").matcher(readme());
        java.util.List<String> missing = new java.util.ArrayList<>();
        int named = 0;
        while (m.find()) {
            String path = m.group(1);
            if (!path.contains("/") && !path.equals("DESIGN.md") && !path.equals("README.md")) {
                continue;
            }
            named++;
            if (!Files.exists(root.resolve(path))) {
                missing.add(path);
            }
        }
        assertTrue(named >= 5, "found only " + named + " file names in the README");
        assertTrue(missing.isEmpty(), "the README names files the repository lacks: " + missing);
    }
}
