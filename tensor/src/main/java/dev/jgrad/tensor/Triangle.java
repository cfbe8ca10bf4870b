package dev.jgrad.tensor;

/** The masks behind {@code tril} and {@code triu}: which elements of a matrix lie off the kept triangle. */
final class Triangle {
    private Triangle() {
    }

    /**
     * A bool (rows, cols) mask of the last two dims of {@code shape}, true where {@code op} sets the element to 0: above
     * the {@code diagonal}-th diagonal for the lower triangle, below it for the upper one. It broadcasts over the batch.
     */
    static Tensor outside(String op, int[] shape, int diagonal, boolean lower) {
        if (shape.length < 2) {
            throw new ShapeException(op + ": needs a tensor of at least 2 dims (a matrix or a batch of them), got shape "
                    + Shape.str(shape));
        }
        int rows = shape[shape.length - 2];
        int cols = shape[shape.length - 1];
        boolean[] off = new boolean[rows * cols];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                // j - i: how far the element lies above the main diagonal.
                off[i * cols + j] = lower ? j - i > diagonal : j - i < diagonal;
            }
        }
        return Tensor.of(off, rows, cols);
    }
}
