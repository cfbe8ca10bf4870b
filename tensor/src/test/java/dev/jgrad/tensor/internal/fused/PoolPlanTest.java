package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.Backend;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.internal.kernels.Kernels;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Which path max pooling takes, by window, plane and dtype, in each of the build's test executions. */
class PoolPlanTest {
    private static final boolean VECTOR = Backend.vectorized();

    private static PoolKernels.Window window(int k, int s, int h, int w) {
        return new PoolKernels.Window(new int[] {k, k}, new int[] {s, s}, new int[] {0, 0}, new int[] {1, 1},
                (h - k) / s + 1, (w - k) / s + 1);
    }

    @Test
    void twoByTwoWindowsAtStrideTwoTakeTheTiledPaths() {
        PoolKernels.Window wide = window(2, 2, 26, 26);
        assertEquals(VECTOR ? PoolPlan.VECTOR_ROWS : PoolPlan.TILES, PoolPlan.forward(wide, 26, 26, DType.FLOAT32));
        assertEquals(VECTOR ? PoolPlan.VECTOR_ROWS : PoolPlan.TILES, PoolPlan.backward(wide, 26, 26, DType.FLOAT32));
        PoolKernels.Window narrow = window(2, 2, 6, 6);
        assertEquals(VECTOR ? PoolPlan.VECTOR_CORNERS : PoolPlan.TILES, PoolPlan.forward(narrow, 6, 6, DType.FLOAT32));
        assertEquals(PoolPlan.TILES, PoolPlan.backward(narrow, 6, 6, DType.FLOAT32));
        assertEquals(PoolPlan.TILES, PoolPlan.forward(wide, 26, 26, DType.FLOAT64), "the vector paths are float32");
    }

    @Test
    void otherWindowsAreScanned() {
        assertEquals(PoolPlan.WINDOWS, PoolPlan.forward(window(3, 2, 13, 13), 13, 13, DType.FLOAT32));
        assertEquals(PoolPlan.WINDOWS, PoolPlan.forward(window(2, 1, 13, 13), 13, 13, DType.FLOAT32));
        int lanes = Kernels.PROVIDER.vectorLanes();
        PoolPlan odd = PoolPlan.forward(window(2, 2, 13, 13), 13, 13, DType.FLOAT32);
        assertEquals(!VECTOR ? PoolPlan.TILES : 6 >= lanes / 2 ? PoolPlan.VECTOR_ROWS : PoolPlan.VECTOR_CORNERS, odd,
                "an odd plane's last row and column are left out (floor mode), and the 2x2 tiles cover the rest");
    }
}
