package dev.jgrad.tensor.internal.kernels;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which strategy the matrix product takes for the shapes jgrad's workloads multiply (LinalgTest checks each one's numbers). */
class GemmPlanTest {
    private static final int NR = Kernels.GEMM.nr();

    /** A row-major {@code (n, k) @ (k, p)}. */
    private static GemmPlan rowMajor(int n, int k, int p) {
        return GemmPlan.of(NR, n, k, p, 1, p, 1);
    }

    @Test
    void theWorkloadsShapesTakeTheirStrategies() {
        assertEquals(GemmPlan.EMPTY, rowMajor(3, 0, 5));
        assertEquals(GemmPlan.DIRECT, rowMajor(64, 256, 64), "an MLP layer's product: B sits in L2, read in place");
        assertEquals(GemmPlan.WIDE, rowMajor(64, 288, 7744), "a convolution over a batch: many more columns than rows");
        assertEquals(GemmPlan.SPLIT_K, rowMajor(64, 7744, 288), "a weight's gradient over a batch: a long k beside a small C");
        assertEquals(GemmPlan.BLOCKED, rowMajor(1024, 1024, 1024));
    }

    @Test
    void bIsReadInPlaceWhileItFitsOneCoresL2UnderTallTiles() {
        assertEquals(262_144, Tuning.directMaxB(1 << 20, 12), "1 MB of L2 (Zen 4 and 5): B of up to 512 x 512");
        assertEquals(524_288, Tuning.directMaxB(2 << 20, 12), "2 MB (Sapphire Rapids)");
        assertEquals(262_144, Tuning.directMaxB(1 << 20, 8), "8-row tiles read as much in place");
        assertEquals(32_768, Tuning.directMaxB(64 << 10, 12), "never under 32K floats, whatever a VM reports");
        assertEquals(32_768, Tuning.directMaxB(2 << 20, 5), "AVX2's 5-row tiles: only the small Bs, whatever the L2");
        long inPlace = Tuning.directMaxB(Processor.CURRENT.l2Bytes(), Kernels.GEMM.mr());
        for (int n : new int[] {256, 512}) {
            assertEquals(inPlace >= (long) n * n ? GemmPlan.DIRECT : GemmPlan.BLOCKED, rowMajor(n, n, n), n + " on " + Processor.CURRENT
                    + " with " + Kernels.GEMM.mr() + "-row tiles");
        }
        assertEquals(GemmPlan.BLOCKED, rowMajor(512, 1024, 512), "a k over a panel is packed, whatever the L2");
        assertEquals(GemmPlan.WIDE, rowMajor(1, 128, 384), "a token's projection in generation: the threads share B's columns");
        assertEquals(GemmPlan.DIRECT, rowMajor(1, 128, 65), "a small B is read in place whatever the rows");
    }

    @Test
    void aSmallBIsReadInPlaceByThePlanAndByAConvolutionsPackedProducts() {
        // The rule sgemmPacked shares: (k, p) = (128, 256) is 32K floats, a column more is not.
        assertTrue(GemmPlan.smallBInPlace(128, 256, 1));
        assertFalse(GemmPlan.smallBInPlace(128, 257, 1), "over 32K floats");
        assertFalse(GemmPlan.smallBInPlace(128, 256, 128), "B's columns contiguous, not its rows");
        assertFalse(GemmPlan.smallBInPlace(PackedGemm.MAX_PANEL + 1, 8, 1), "k over a panel");
        assertEquals(GemmPlan.DIRECT, rowMajor(3000, 128, 256), "a small B is read in place however many rows pass");
    }

    @Test
    void aThinProductWithContiguousOperandsIsDotProducts() {
        // (32, 43264) @ (43264, 7), A's rows and B's columns contiguous (B transposed): fewer columns than any tile.
        assertEquals(GemmPlan.DOTS, GemmPlan.of(NR, 32, 43264, 7, 1, 1, 43264));
        assertEquals(GemmPlan.SPLIT_K, GemmPlan.of(NR, 32, 43264, 7, 1, 7, 1), "B row-major: its columns are not contiguous");
        assertEquals(GemmPlan.BLOCKED, GemmPlan.of(NR, 32, 200, 7, 1, 1, 200), "a short k is no dot product, and B's strided rows are packed");
    }

    @Test
    void onlyTheStrategiesThatAddIntoCHaveItZeroedFirst() {
        for (GemmPlan plan : GemmPlan.values()) {
            boolean adds = plan == GemmPlan.EMPTY || plan == GemmPlan.DOTS || plan == GemmPlan.SPLIT_K;
            assertEquals(adds, plan.addsIntoC(), plan.name());
        }
    }
}
