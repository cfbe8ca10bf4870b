package dev.jgrad.examples.train;

import dev.jgrad.examples.UserError;

import java.lang.management.ManagementFactory;
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
        String refusal = refusal(what, bytes, smaller, Runtime.getRuntime().maxMemory(), physicalMemory());
        if (refusal != null) {
            throw new UserError(refusal);
        }
    }

    /**
     * The message refusing {@code bytes} against a heap of {@code heap} bytes on a machine of {@code machine} bytes (0
     * when unknown), or null when the run fits. A larger heap is suggested only where the machine has the memory for it.
     */
    static String refusal(String what, long bytes, String smaller, long heap, long machine) {
        if (bytes >= 0 && bytes <= heap) {
            return null;
        }
        String head = String.format(Locale.ROOT, "%s needs about %s to train, more than ", what, size(bytes));
        if (machine > 0 && (bytes < 0 || bytes > machine * 9 / 10)) {
            return head + String.format(Locale.ROOT, "this machine's %s of memory: use %s", size(machine), smaller);
        }
        return head + String.format(Locale.ROOT, "the Java heap's %s: use %s, or JGRAD_JAVA_OPTS=-Xmx%dg where the machine"
                + " has the memory", size(heap), smaller, Math.max(2, bytes / (1L << 30) + 2));
    }

    /** The machine's physical memory in bytes, or 0 where the JVM does not say. */
    private static long physicalMemory() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return 0;
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
