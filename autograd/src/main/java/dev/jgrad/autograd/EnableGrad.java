package dev.jgrad.autograd;

/**
 * A scope in which operations are recorded again, inside a {@link NoGrad} scope, as {@code torch.enable_grad()}:
 * <pre>{@code
 * try (var off = NoGrad.enter()) {
 *     ...
 *     try (var on = EnableGrad.enter()) {
 *         Variable y = x.mul(w);   // recorded
 *     }
 * }
 * }</pre>
 */
public final class EnableGrad extends GradModeScope {
    private EnableGrad() {
        super(true);
    }

    /** Turns recording on until {@link #close()}. */
    public static EnableGrad enter() {
        return new EnableGrad();
    }
}
