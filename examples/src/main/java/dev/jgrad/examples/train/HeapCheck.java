package dev.jgrad.examples.train;

import dev.jgrad.examples.UserError;

import java.util.Locale;

/**
 * Refuses, before anything is built, a run whose model and activations cannot fit in the Java heap: one line with the
 * estimate, the heap and what to change, instead of minutes of building followed by an OutOfMemoryError.
 */
final class HeapCheck {
    private HeapCheck() {
    }

    /** Throws a {@link UserError} when {@code bytes} (an estimate, from long arithmetic) exceed the heap this JVM may use. */
    static void require(String what, long bytes, String smaller) {
        long heap = Runtime.getRuntime().maxMemory();
        if (bytes < 0 || bytes > heap) {
            throw new UserError(String.format(Locale.ROOT, "%s needs about %s to train, more than the Java heap's %s: use %s,"
                    + " or JGRAD_JAVA_OPTS=-Xmx%dg where the machine has the memory", what, size(bytes), size(heap), smaller,
                    Math.max(2, Math.min(1L << 20, (bytes < 0 ? Long.MAX_VALUE : bytes) / (1L << 30) + 2))));
        }
    }

    static String size(long bytes) {
        if (bytes < 0) {
            return "more than 8 EB";
        }
        if (bytes >= 1L << 40) {
            return String.format(Locale.ROOT, "%.0f TB", bytes / (double) (1L << 40));
        }
        return bytes >= 1L << 30 ? String.format(Locale.ROOT, "%.1f GB", bytes / (double) (1L << 30))
                : String.format(Locale.ROOT, "%.0f MB", bytes / (double) (1L << 20));
    }
}
