package dev.jgrad.tensor.internal.kernels;

/**
 * Which of {@link PackedGemm}'s strategies a float32 product {@code (n, k) @ (k, p)} takes, from its sizes and the
 * operands' strides: every path choice of the matrix product, in the order it is made, so tests can name the plan a
 * shape gets. The thresholds are in {@link Tuning}, each with its reason.
 */
enum GemmPlan {
    /** Nothing to multiply (k = 0): C is only zeroed where it is overwritten. */
    EMPTY,
    /**
     * Fewer columns than a tile, A's rows and B's columns contiguous and a long k (a first convolution's weight gradient,
     * {@code (32, 43264) @ (43264, 9)}): 3 x 3 blocks of dot products read in place.
     */
    DOTS,
    /** B small enough to sit in L2 read in place, unpacked; only A is packed, a sliver at a time, the threads taking slivers. */
    DIRECT,
    /** Many more columns than rows (a convolution over a batch): A packed once, the threads take chunks of B. */
    WIDE,
    /** A long k beside a small C (a weight's gradient over a batch): k cut into a fixed number of runs, summed in order. */
    SPLIT_K,
    /** The GotoBLAS loop: panels of B packed, blocks of A packed, each thread owning a band of rows or of columns of C. */
    BLOCKED;

    /** The plan for {@code (n, k) @ (k, p)} on a micro-kernel {@code nr} columns wide, with these strides of A and B. */
    static GemmPlan of(int nr, int n, int k, int p, int acs, int brs, int bcs) {
        long flops = 2L * n * k * p;
        if (acs == 1 && brs == 1 && p < nr && k >= Tuning.DOTS_MIN_K) {
            return DOTS;
        }
        if (k == 0) {
            return EMPTY;
        }
        boolean bReadableInPlace = bRowsInOnePanel(k, bcs);
        if (smallBInPlace(k, p, bcs)) {
            return DIRECT;
        }
        if (bReadableInPlace && (long) n * k <= Tuning.WIDE_MAX_A && p >= Tuning.WIDE_MIN_RATIO * n) {
            return WIDE;
        }
        // Past the small Bs, only where the rows are not so few that the threads need B's columns to share (wide).
        if (bReadableInPlace && (long) k * p <= Tuning.DIRECT_MAX_B) {
            return DIRECT;
        }
        if (k >= Tuning.SPLIT_K_MIN && k >= 4L * Math.max(n, p) && flops >= Tuning.PARALLEL_FLOPS
                && (long) n * p <= Tuning.SPLIT_K_FLOATS) {
            return SPLIT_K;
        }
        return BLOCKED;
    }

    /**
     * Whether a {@code (k, p)} B with column stride {@code bcs} is read in place, unpacked, whatever the rest of the
     * product (the first direct plan, and a convolution's packed-A products): its rows contiguous, k within one panel,
     * and at most {@link Tuning#DIRECT_SMALL_B} elements, which sit in L2 while A streams past.
     */
    static boolean smallBInPlace(int k, int p, int bcs) {
        return bRowsInOnePanel(k, bcs) && (long) k * p <= Tuning.DIRECT_SMALL_B;
    }

    /** B's rows contiguous and k within one panel: what reading B in place (direct and wide) needs. */
    private static boolean bRowsInOnePanel(int k, int bcs) {
        return k <= PackedGemm.MAX_PANEL && bcs == 1;
    }

    /** Whether this strategy adds into C, so that a product that overwrites C zeroes it first (C is small beside it there). */
    boolean addsIntoC() {
        return this == EMPTY || this == DOTS || this == SPLIT_K;
    }
}
