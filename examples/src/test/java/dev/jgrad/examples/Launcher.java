package dev.jgrad.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The repository's launcher script, {@code jgrad}, as the tests read it. */
public final class Launcher {
    private Launcher() {
    }

    /** The launcher, from the examples module (where Maven runs its tests) or from the repository's root. */
    public static Path path() {
        Path p = Path.of("..", "jgrad");
        return Files.exists(p) ? p : Path.of("jgrad");
    }

    /** The launcher's text. */
    public static String script() throws IOException {
        return Files.readString(path());
    }

    /** The JIT flags of the launcher's {@code JIT_FLAGS="..."} line, which every JVM that runs jgrad code passes. */
    public static List<String> jitFlags() throws IOException {
        Matcher m = Pattern.compile("(?m)^JIT_FLAGS=\"([^\"]+)\"$").matcher(script());
        if (!m.find()) {
            throw new AssertionError("the launcher " + path() + " has no JIT_FLAGS=\"...\" line");
        }
        return List.of(m.group(1).trim().split("\\s+"));
    }
}
