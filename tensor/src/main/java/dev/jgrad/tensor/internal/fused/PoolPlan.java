package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.DType;

/** How {@link FusedMaxPool2d} runs max pooling over planes of one shape: every path choice of pooling, named for tests. */
public enum PoolPlan {
    /**
     * 2x2 windows at stride 2 tiling float32 planes: the kernels' {@code PoolingKernels} (vector rows split by shuffles,
     * gathered corners, or the plain loop), each maximum's offset in its window kept as a float.
     */
    TILES_FLOAT32,
    /** The same windows over float64 planes: four reads in window order, offsets as floats. */
    TILES,
    /** Any other window: every window scanned, the maxima's flat indices kept as int64. */
    WINDOWS;

    /** The path for windows {@code win} over (h, w) planes of {@code dtype}, forward and backward. */
    public static PoolPlan of(FusedMaxPool2d.Window win, int h, int w, DType dtype) {
        if (!FusedMaxPool2d.halves(win, h, w)) {
            return WINDOWS;
        }
        return dtype == DType.FLOAT32 ? TILES_FLOAT32 : TILES;
    }
}
