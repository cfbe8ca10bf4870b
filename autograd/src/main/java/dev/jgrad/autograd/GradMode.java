package dev.jgrad.autograd;

/** Whether operations are recorded for backward on this thread. On by default; {@link NoGrad} turns it off. */
public final class GradMode {
    private static final ThreadLocal<boolean[]> ENABLED = ThreadLocal.withInitial(() -> new boolean[] {true});

    private GradMode() {
    }

    /** Whether ops are recorded in this thread (off inside {@link NoGrad}). */
    public static boolean isEnabled() {
        return ENABLED.get()[0];
    }

    static boolean set(boolean enabled) {
        boolean[] cell = ENABLED.get();
        boolean previous = cell[0];
        cell[0] = enabled;
        return previous;
    }
}
