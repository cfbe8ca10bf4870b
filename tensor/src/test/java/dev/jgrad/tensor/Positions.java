package dev.jgrad.tensor;

import java.util.function.Consumer;

/** Row-major positions in a shape, for the tests that check a result element by element against a definition. */
final class Positions {
    private Positions() {
    }

    /** {@code body} for every index of {@code shape}, in row-major order (each call gets its own array). */
    static void forEach(int[] shape, Consumer<int[]> body) {
        int n = Shape.numel(shape);
        for (int flat = 0; flat < n; flat++) {
            body.accept(Shape.unravel(flat, shape));
        }
    }
}
