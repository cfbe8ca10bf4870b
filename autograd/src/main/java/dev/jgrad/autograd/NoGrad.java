package dev.jgrad.autograd;

/**
 * A scope in which nothing is recorded, as {@code torch.no_grad()}:
 * <pre>{@code
 * try (var g = NoGrad.enter()) {
 *     Variable pred = model.forward(x);   // no graph, no saved tensors
 * }
 * }</pre>
 * Results of operations in the scope do not require grad, and in-place updates of leaves (an
 * optimizer step) are allowed. Scopes nest and are per thread.
 */
public final class NoGrad implements AutoCloseable {
    private final boolean previous;
    private boolean closed;

    private NoGrad(boolean enabled) {
        this.previous = GradMode.set(enabled);
    }

    /** Turns recording off until {@link #close()}. */
    public static NoGrad enter() {
        return new NoGrad(false);
    }

    /** Turns recording back on inside a no-grad scope, as {@code torch.enable_grad()}. */
    public static NoGrad enableGrad() {
        return new NoGrad(true);
    }

    @Override
    public void close() {
        if (!closed) {
            GradMode.set(previous);
            closed = true;
        }
    }
}
