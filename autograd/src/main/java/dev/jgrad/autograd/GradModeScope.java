package dev.jgrad.autograd;

/** A try-with-resources scope that sets this thread's {@link GradMode} and restores the previous one at close. */
abstract class GradModeScope implements AutoCloseable {
    private final boolean previous;
    private boolean closed;

    GradModeScope(boolean enabled) {
        this.previous = GradMode.set(enabled);
    }

    @Override
    public void close() {
        if (!closed) {
            GradMode.set(previous);
            closed = true;
        }
    }
}
