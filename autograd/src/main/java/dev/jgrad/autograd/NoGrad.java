package dev.jgrad.autograd;

/**
 * A scope in which nothing is recorded, as {@code torch.no_grad()}:
 * <pre>{@code
 * try (var g = NoGrad.enter()) {
 *     Variable pred = model.forward(x);   // no graph, no saved tensors
 * }
 * }</pre>
 * Results of operations in the scope do not require grad, and in-place updates of leaves (an
 * optimizer step) are allowed. Scopes nest and are per thread; {@link EnableGrad} turns recording
 * back on inside one.
 */
public final class NoGrad extends GradModeScope {
    private NoGrad() {
        super(false);
    }

    /** Turns recording off until {@link #close()}. */
    public static NoGrad enter() {
        return new NoGrad();
    }
}
