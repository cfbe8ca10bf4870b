package dev.jgrad.tensor.internal.kernels;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The measured choices of one processor, kept as FFTW keeps its wisdom: a small file per processor in the user's cache
 * folder ({@code $XDG_CACHE_HOME/jgrad} or {@code ~/.cache/jgrad}; {@code -Djgrad.tuning=FILE} or {@code JGRAD_TUNING}
 * names another), written by {@code jgrad tune}. A file is trusted only whole: one that cannot be read, does not parse,
 * holds a value out of range, or was measured on another processor (copied, or the machine changed) is ignored with
 * one line on stderr, and the defaults run; a missing one is silently the defaults.
 *
 * <pre>{@code
 * {"format": 1, "processor": "Intel(R) Xeon(R) Processor, 512-bit vectors, 2 processors",
 *  "gemm_row_block": 96, "parallel_min": 32768}
 * }</pre>
 */
public final class TuningFile {
    static final int FORMAT = 1;
    /** The largest tuning file read: a few hundred bytes are expected. */
    static final long MAX_BYTES = 64 << 10;
    private static final Pattern ENTRY = Pattern.compile("\"([a-z_]+)\"\\s*:\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|-?[0-9]{1,12})");

    /** Where the last load read from, and what became of it, for {@code --version} and {@code jgrad tune}. */
    private static volatile String status = "defaults (no tuning file read yet)";

    private TuningFile() {
    }

    /** The choices for this processor: its file's, else the defaults (said in one line where a file is there but not used). */
    static Tuning.Choices loadForThisProcessor() {
        Path file = path(Processor.CURRENT);
        try {
            Tuning.Choices c = read(file, Processor.CURRENT);
            if (c == null) {
                status = "defaults (no tuning file at " + file + "; ./jgrad tune measures this processor)";
                return Tuning.Choices.DEFAULT;
            }
            status = "measured, from " + file;
            return c;
        } catch (IllegalArgumentException | IOException e) {
            status = "defaults (" + file + " ignored: " + e.getMessage() + ")";
            System.err.println("jgrad: ignoring the tuning file " + file + ": " + e.getMessage() + "; the defaults run (./jgrad tune measures again)");
            return Tuning.Choices.DEFAULT;
        }
    }

    /** Where the choices in use came from. */
    public static String status() {
        return status;
    }

    /** The file of {@code p}: the one named by {@code -Djgrad.tuning} or {@code JGRAD_TUNING}, else one per processor. */
    public static Path path(Processor p) {
        String named = System.getProperty("jgrad.tuning", System.getenv("JGRAD_TUNING"));
        if (named != null && !named.isBlank()) {
            return Path.of(named);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path dir = xdg != null && !xdg.isBlank() ? Path.of(xdg, "jgrad") : Path.of(System.getProperty("user.home", "."), ".cache", "jgrad");
        return dir.resolve("tuning-" + slug(p.key()) + ".json");
    }

    /**
     * A file name's part for a processor: letters and digits (without the marks "(R)", "(TM)"), with a hash so that two
     * long names never collide.
     */
    static String slug(String key) {
        String s = key.toLowerCase(Locale.ROOT).replaceAll("\\((r|tm|c)\\)", "").replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        if (s.length() > 60) {
            s = s.substring(0, 60);
        }
        return s + "-" + Integer.toHexString(key.hashCode());
    }

    /**
     * The choices {@code file} holds for {@code p}; null where there is no file. An unreadable, malformed, out-of-range or
     * foreign file is an exception whose message says which.
     */
    static Tuning.Choices read(Path file, Processor p) throws IOException {
        if (!Files.exists(file)) {
            return null;
        }
        if (!Files.isRegularFile(file)) {
            throw new IOException("not a regular file");
        }
        if (Files.size(file) > MAX_BYTES) {
            throw new IOException("larger than " + MAX_BYTES + " bytes: not a tuning file");
        }
        String text = Files.readString(file, StandardCharsets.UTF_8).trim();
        if (!text.startsWith("{") || !text.endsWith("}")) {
            throw new IllegalArgumentException("not a JSON object");
        }
        Map<String, String> entries = new LinkedHashMap<>();
        Matcher m = ENTRY.matcher(text);
        int covered = 0;
        while (m.find()) {
            entries.put(m.group(1), m.group(3) != null ? m.group(3).replace("\\\"", "\"").replace("\\\\", "\\") : m.group(2));
            covered += m.group().length();
        }
        // Whatever is not an entry must be the braces, commas and white space around them: anything else is corruption.
        String rest = ENTRY.matcher(text).replaceAll("").replaceAll("[\\s{},]", "");
        if (!rest.isEmpty() || covered == 0) {
            throw new IllegalArgumentException("not a tuning file (unexpected '" + (rest.length() > 20 ? rest.substring(0, 20) + "..." : rest) + "')");
        }
        if (!String.valueOf(FORMAT).equals(entries.get("format"))) {
            throw new IllegalArgumentException("format " + entries.get("format") + ", this jgrad reads format " + FORMAT);
        }
        String measuredOn = entries.get("processor");
        if (!p.key().equals(measuredOn)) {
            throw new IllegalArgumentException("measured on another processor (" + measuredOn + "), this is " + p.key());
        }
        return new Tuning.Choices(intEntry(entries, "gemm_row_block"), intEntry(entries, "parallel_min"));
    }

    private static int intEntry(Map<String, String> entries, String key) {
        String v = entries.get(key);
        if (v == null || !v.matches("-?[0-9]{1,10}")) {
            throw new IllegalArgumentException("no whole number for " + key);
        }
        long n = Long.parseLong(v);
        if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(key + " out of range");
        }
        return (int) n;
    }

    /** The file's text for {@code c} measured on {@code p}. */
    static String text(Tuning.Choices c, Processor p) {
        return "{\n  \"format\": " + FORMAT + ",\n  \"processor\": \"" + p.key().replace("\\", "\\\\").replace("\"", "\\\"") + "\",\n"
                + "  \"gemm_row_block\": " + c.gemmRowBlock() + ",\n  \"parallel_min\": " + c.parallelMin() + "\n}\n";
    }

    /** Writes {@code c} for {@code p} to {@code file}, whole or not at all (a temporary file renamed over it). */
    static void write(Path file, Tuning.Choices c, Processor p) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, ".tuning", ".tmp");
        try {
            Files.writeString(tmp, text(c, p), StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
        status = "measured, from " + file;
    }
}
