package dev.jgrad.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
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

    /** The Java block of a README section. */
    static String javaBlock(String readme, String heading) {
        int at = readme.indexOf("## " + heading);
        assertTrue(at >= 0, "README has no section '" + heading + "'");
        int start = readme.indexOf("```java\n", at) + "```java\n".length();
        return readme.substring(start, readme.indexOf("```", start));
    }

    @Test
    void theTrainYourOwnModelLoopCompilesRunsAndLearns() throws Exception {
        String source = javaBlock(readme(), "Train your own model");
        Path src = tmp.resolve("TrainYourOwn.java");
        Files.writeString(src, source);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int rc = javac.run(null, null, errors, "-d", tmp.toString(), "-cp", System.getProperty("java.class.path"), src.toString());
        assertEquals(0, rc, "the README's code does not compile:\n" + errors.toString(StandardCharsets.UTF_8));
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (URLClassLoader cl = new URLClassLoader(new URL[] {tmp.toUri().toURL()}, getClass().getClassLoader())) {
            Method main = cl.loadClass("TrainYourOwn").getMethod("main", String[].class);
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            main.invoke(null, (Object) new String[] {tmp.resolve("model.safetensors").toString()});
        } finally {
            System.setOut(original);
        }
        String printed = out.toString(StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("epoch (\\d+) loss ([0-9.]+)").matcher(printed);
        double first = Double.NaN;
        double last = Double.NaN;
        while (m.find()) {
            double loss = Double.parseDouble(m.group(2));
            first = Double.isNaN(first) ? loss : first;
            last = loss;
        }
        assertTrue(last < 0.05 && last < first / 5, "the loop should learn: " + printed);
        assertTrue(Files.size(tmp.resolve("model.safetensors")) > 0);
    }
}
