package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.DType;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Which path max pooling takes, by window, plane and dtype (KernelProviderTest compares the float32 tiles' kernels). */
class PoolPlanTest {
    private static FusedMaxPool2d.Window window(int k, int s, int h, int w) {
        return new FusedMaxPool2d.Window(new int[] {k, k}, new int[] {s, s}, new int[] {0, 0}, new int[] {1, 1},
                (h - k) / s + 1, (w - k) / s + 1);
    }

    @Test
    void twoByTwoWindowsAtStrideTwoTileThePlane() {
        assertEquals(PoolPlan.TILES_FLOAT32, PoolPlan.of(window(2, 2, 26, 26), 26, 26, DType.FLOAT32));
        assertEquals(PoolPlan.TILES, PoolPlan.of(window(2, 2, 26, 26), 26, 26, DType.FLOAT64));
        assertEquals(PoolPlan.TILES_FLOAT32, PoolPlan.of(window(2, 2, 13, 13), 13, 13, DType.FLOAT32),
                "an odd plane's last row and column are left out (floor mode), and the tiles cover the rest");
    }

    @Test
    void otherWindowsAreScanned() {
        assertEquals(PoolPlan.WINDOWS, PoolPlan.of(window(3, 2, 13, 13), 13, 13, DType.FLOAT32));
        assertEquals(PoolPlan.WINDOWS, PoolPlan.of(window(2, 1, 13, 13), 13, 13, DType.FLOAT32));
        FusedMaxPool2d.Window padded = new FusedMaxPool2d.Window(new int[] {2, 2}, new int[] {2, 2}, new int[] {1, 1}, new int[] {1, 1}, 7, 7);
        assertEquals(PoolPlan.WINDOWS, PoolPlan.of(padded, 12, 12, DType.FLOAT32), "padding reaches outside the plane");
    }
}
