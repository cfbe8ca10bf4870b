package dev.jgrad.train;

import java.nio.file.Path;
import java.util.Map;

/**
 * Reads the numbers a checkpoint's metadata records about its run, strictly: a key that is missing or does not hold the
 * number it should is a {@link RunException} that names the file and the key, never a silent default. A checkpoint whose
 * position cannot be read must not be mistaken for the start of a run.
 */
final class MetadataReader {
    private final Map<String, String> meta;
    private final Path file;

    MetadataReader(Map<String, String> meta, Path file) {
        this.meta = meta;
        this.file = file;
    }

    String text(String key) {
        String v = meta.get(key);
        if (v == null) {
            throw new RunException("--resume: " + file + " lacks the metadata '" + key + "' that says where its run stood"
                    + " (written by another program or an older jgrad, or edited); resume from its weights alone with --resume "
                    + file + " --out NEW_FOLDER");
        }
        return v;
    }

    /** A whole number from 0 up. */
    long whole(String key) {
        String v = text(key);
        try {
            long n = Long.parseLong(v);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw bad(key, v, "a whole number, 0 or more");
    }

    int count(String key) {
        long n = whole(key);
        if (n > Integer.MAX_VALUE) {
            throw bad(key, Long.toString(n), "a count below 2^31");
        }
        return (int) n;
    }

    /** A number that is finite, or NaN (a run that goes on through NaN losses records them), never garbage. */
    double finiteOrNan(String key) {
        String v = text(key);
        try {
            double d = Double.parseDouble(v);
            if (!Double.isInfinite(d) && v.matches("[-+]?(NaN|[0-9.]+([eE][-+]?[0-9]+)?)")) {
                return d;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw bad(key, v, "a finite number");
    }

    /** A number, where infinity is allowed (the best held-out loss before any evaluation). */
    double number(String key) {
        String v = text(key);
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw bad(key, v, "a number");
        }
    }

    RunException bad(String key, String value, String expected) {
        return new RunException("--resume: " + file + " records " + key + " = '" + value + "', which is not " + expected
                + ": the checkpoint's metadata was edited or damaged; it was not used");
    }
}
