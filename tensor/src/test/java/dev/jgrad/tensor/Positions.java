package dev.jgrad.tensor;

import java.util.function.Consumer;

/** Row-major positions in a shape, for the tests that check a result element by element against a definition. */
final class Positions {
    private Positions() {
    }

    /** The index of element {@code flat} of {@code shape}, in row-major order. */
    static int[] of(int flat, int[] shape) {
        int[] idx = new int[shape.length];
        for (int d = shape.length - 1; d >= 0; d--) {
            idx[d] = flat % shape[d];
            flat /= shape[d];
        }
        return idx;
    }

    /** {@code body} for every index of {@code shape}, in row-major order (each call gets its own array). */
    static void forEach(int[] shape, Consumer<int[]> body) {
        int n = Shape.numel(shape);
        for (int flat = 0; flat < n; flat++) {
            body.accept(of(flat, shape));
        }
    }
}
