package dev.jgrad.tensor.internal.kernels;

/**
 * The thresholds that choose between kernel paths or decide when work is split across threads, in one place, each
 * with its reason. Constants that define one algorithm (a micro-kernel's tile, the product's KC x MC blocks, slack
 * around buffers) stay with that algorithm. The reasons were measured; the commit messages hold the figures.
 */
public final class Tuning {
    private Tuning() {
    }

    // ---------------------------------------------------------------- threads

    /** Below this many elements an op runs on one thread: a split costs more than it saves. */
    public static final int PARALLEL_MIN = 1 << 15;

    /** Matrix products below this many flops run on the calling thread: a fork costs more than it saves. */
    public static final long PARALLEL_FLOPS = 1L << 22;

    /** Pooling planes smaller than this many elements share a thread's range with others. */
    public static final int POOL_GRAIN_ELEMENTS = 32 * 1024;

    /**
     * How long an idle helper thread spins before it parks: waking a parked thread (tens of microseconds on a virtual
     * machine) costs more than a small model's kernel.
     */
    public static final long SPIN_NANOS = 200_000L;

    // ---------------------------------------------------------------- vectors

    /** Below this many elements a row runs the plain loop: the vector loop's set-up and tail cost more. */
    public static final int MIN_VECTOR_RUN = 16;

    // ---------------------------------------------------------------- matrix product (GemmPlan)

    /** Below this many multiply-adds a product runs as plain loops: packing costs more than it saves. */
    public static final long GEMM_SMALL = 24L * 24 * 24;

    /** The shortest k for dot-product blocks: below it, the nine sums across each accumulator's lanes cost too much. */
    public static final int DOTS_MIN_K = 256;

    /** The most elements of B read in place, unpacked (it then sits in L2 while A streams past). */
    public static final long DIRECT_MAX_B = 1L << 15;

    /** The most elements of A that the wide product packs at once (they then sit in L2 beside a chunk of B). */
    public static final long WIDE_MAX_A = 1L << 16;

    /** How many times more columns than rows a product needs to be wide (at 256 x 256 x 256, blocked is faster). */
    public static final int WIDE_MIN_RATIO = 8;

    /**
     * Products whose k is at least this long and four times C's sides are cut along k (a weight's gradient over a
     * batch), where the runs' buffers of C together hold at most {@link #SPLIT_K_FLOATS} floats.
     */
    public static final int SPLIT_K_MIN = 4 * PackedGemm.KC;
    public static final long SPLIT_K_FLOATS = 1L << 21;

    // ---------------------------------------------------------------- convolution (ConvPlan)

    /** Columns per position at or below which the forward runs a chunk per sample (a first layer's short k). */
    public static final int CONV_PER_SAMPLE_MAX_K = 64;

    /**
     * The floats of one chunk's columns: about a core's second-level cache, 1 MB with 512-bit vectors (Zen 4 and 5, Xeons
     * since Skylake-SP: 1-2 MB of L2 a core), else 512 KB (Zen 1-3). Java cannot ask the cache's size, and a virtual
     * machine often hides it.
     */
    public static final int CONV_CHUNK_FLOATS = Kernels.GEMM.nr() >= 32 ? 1 << 18 : 1 << 17;

    /**
     * The weight's gradient gets a run per chunk where the runs' buffers take at most this many floats together (whole
     * chunks are the threads' tasks, and eight runs of three chunks left one thread idle for a run at the end of W8's
     * second layer), else at least {@link #CONV_WEIGHT_PARTS} runs.
     */
    public static final int CONV_WEIGHT_PART_FLOATS = 1 << 20;
    public static final int CONV_WEIGHT_PARTS = 8;
}
