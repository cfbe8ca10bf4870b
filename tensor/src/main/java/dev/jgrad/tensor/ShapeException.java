package dev.jgrad.tensor;

/**
 * Shapes that do not fit together: broadcasting, views, matmul, concatenation, reductions.
 * The first line of the message reads like PyTorch's; the lines under it explain.
 */
public class ShapeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** Shapes that do not fit together, with both shapes and the dim where they part. */
    public ShapeException(String message) {
        super(message);
    }
}
