package dev.jgrad.train;

import dev.jgrad.nn.io.BoundedFiles;
import dev.jgrad.nn.io.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a run was started with, kept in its folder as {@code config.json}: the trainer's name and every option that shapes
 * its numbers, by the name the user types ({@code "--lr": 0.001}). {@link Fit} writes it with the first checkpoint and
 * with every one after, in the same atomic set, so a folder's options always belong to its checkpoint; a run resumed
 * from the folder reads them back, so that {@code --resume RUN} alone continues it as it was started.
 */
public final class RunConfig {
    /** The file's name in a run folder. */
    public static final String FILE = "config.json";
    /** The largest config.json read: a run's options are a few hundred bytes. */
    static final long MAX_BYTES = 1 << 20;

    private final String trainer;
    private final Map<String, Object> options;

    private RunConfig(String trainer, Map<String, Object> options) {
        this.trainer = trainer;
        this.options = Collections.unmodifiableMap(options);
    }

    /**
     * The options of a run of {@code trainer}: names to values (strings, whole numbers, numbers or booleans, as written
     * in JSON; a path is written as its absolute form, so that the run resumes from any folder).
     */
    public static RunConfig of(String trainer, Map<String, ?> options) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Map.Entry<String, ?> e : options.entrySet()) {
            m.put(e.getKey(), jsonValue(e.getKey(), e.getValue()));
        }
        return new RunConfig(trainer, m);
    }

    private static Object jsonValue(String name, Object v) {
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof Float) {
            return ((Float) v).doubleValue();
        }
        if (v instanceof Double && !Double.isFinite((Double) v)) {
            return v.toString();
        }
        if (v instanceof Long || v instanceof Double || v instanceof Boolean || v instanceof String) {
            return v;
        }
        if (v instanceof Path) {
            return ((Path) v).toAbsolutePath().normalize().toString();
        }
        if (v instanceof Enum) {
            return ((Enum<?>) v).name();
        }
        throw new IllegalArgumentException("option " + name + ": cannot keep a " + (v == null ? "null" : v.getClass().getName())
                + " in " + FILE);
    }

    /** The trainer's name ("gpt", "fashion-cnn", or a run's own name). */
    public String trainer() {
        return trainer;
    }

    /** The options, in the order they were given. */
    public Map<String, Object> options() {
        return options;
    }

    /** An option's value as text ("0.001", "64", "true", "/data/input.txt"), or null when the run did not record it. */
    public String text(String option) {
        Object v = options.get(option);
        return v == null ? null : v.toString();
    }

    /** The options as config.json's text. */
    public String toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("trainer", trainer);
        m.put("options", options);
        return Json.writePretty(m) + "\n";
    }

    /**
     * The config.json of {@code runFolder}, or empty where it has none (a run of an older jgrad, a folder of one's own); a
     * file that cannot be read or is not a run's options is a {@link RunException} naming it, never taken as absent.
     */
    public static Optional<RunConfig> read(Path runFolder) {
        Path file = runFolder.resolve(FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        Object parsed;
        try {
            parsed = Json.parse(BoundedFiles.readUtf8(file, MAX_BYTES, "run configuration"));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | IllegalArgumentException e) {
            throw new RunException("cannot read the run's options " + file + ": " + e.getMessage(), e);
        }
        if (!(parsed instanceof Map) || !(((Map<?, ?>) parsed).get("trainer") instanceof String)
                || !(((Map<?, ?>) parsed).get("options") instanceof Map)) {
            throw new RunException(file + " is not a run's options: expected {\"trainer\": NAME, \"options\": {...}}");
        }
        Map<?, ?> root = (Map<?, ?>) parsed;
        Map<String, Object> options = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) root.get("options")).entrySet()) {
            Object v = e.getValue();
            if (!(v instanceof String || v instanceof Long || v instanceof Double || v instanceof Boolean)) {
                throw new RunException(file + ": option " + e.getKey() + " holds " + (v == null ? "null" : Json.write(v))
                        + "; an option's value is a string, a number or a boolean");
            }
            options.put((String) e.getKey(), v);
        }
        return Optional.of(new RunConfig((String) root.get("trainer"), options));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RunConfig && ((RunConfig) o).trainer.equals(trainer) && ((RunConfig) o).options.equals(options);
    }

    @Override
    public int hashCode() {
        return trainer.hashCode() * 31 + options.hashCode();
    }

    @Override
    public String toString() {
        return trainer + " " + options;
    }
}
