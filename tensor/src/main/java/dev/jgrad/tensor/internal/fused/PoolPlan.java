package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.internal.kernels.Kernels;

/** How {@link PoolKernels} runs max pooling over planes of one shape: every path choice of pooling, named for tests. */
public enum PoolPlan {
    /**
     * 2x2 windows at stride 2 in float32, rows of at least half a vector of windows: one plain load per row of the
     * windows, split into their elements by shuffles within a vector (gathers are slow on some CPUs).
     */
    VECTOR_ROWS,
    /** 2x2 windows at stride 2 in float32 with narrower rows: the windows' corners gathered from a table, a vector at a time. */
    VECTOR_CORNERS,
    /** 2x2 windows at stride 2 tiling the plane: four reads in window order, each maximum's offset kept as a float. */
    TILES,
    /** Any other window: every window scanned, the maxima's flat indices kept as int64. */
    WINDOWS;

    /** The forward's path for windows {@code win} over (h, w) planes of {@code dtype}. */
    public static PoolPlan forward(PoolKernels.Window win, int h, int w, DType dtype) {
        if (!PoolKernels.halves(win, h, w)) {
            return WINDOWS;
        }
        int lanes = Kernels.PROVIDER.vectorLanes();
        if (lanes == 0 || dtype != DType.FLOAT32) {
            return TILES;
        }
        return win.outW() >= lanes / 2 ? VECTOR_ROWS : VECTOR_CORNERS;
    }

    /** The backward's path: the gradient spread by shuffles where the forward read rows, else as the forward's offsets say. */
    public static PoolPlan backward(PoolKernels.Window win, int h, int w, DType dtype) {
        PoolPlan p = forward(win, h, w, dtype);
        return p == VECTOR_CORNERS ? TILES : p;
    }
}
