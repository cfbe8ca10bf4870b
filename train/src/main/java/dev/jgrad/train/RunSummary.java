package dev.jgrad.train;

import dev.jgrad.nn.io.BoundedFiles;
import dev.jgrad.nn.io.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalDouble;

/** What a run folder's summary.json says, read with a bound and never trusted further than its types. */
public final class RunSummary {
    /** The file a finished or stopped run writes its summary into. */
    public static final String FILE = "summary.json";

    private RunSummary() {
    }

    /**
     * The wall time of all the run's sessions, as its summary.json says: empty where the file is missing, unreadable, or
     * holds no finite number of seconds, 0 or more.
     */
    public static OptionalDouble seconds(Path runDir) {
        Path file = runDir.resolve(FILE);
        try {
            if (Files.isRegularFile(file)
                    && Json.parse(BoundedFiles.readUtf8(file, 1 << 20, "run summary")) instanceof Map<?, ?> m
                    && m.get("seconds") instanceof Number n && Double.isFinite(n.doubleValue()) && n.doubleValue() >= 0) {
                return OptionalDouble.of(n.doubleValue());
            }
        } catch (IOException | RuntimeException e) {
            // An unreadable summary says nothing.
        }
        return OptionalDouble.empty();
    }
}
