package dev.jgrad.tensor.internal.kernels;

/**
 * The thresholds that choose between kernel paths or decide when work is split across threads, in one place, each
 * with its reason. Constants that define one algorithm (a micro-kernel's tile, the product's panel depth, slack
 * around buffers) stay with that algorithm. The reasons were measured; the commit messages hold the figures.
 *
 * <p>Two choices depend on the processor in ways its caches and width do not tell, so they are measured on it
 * ({@link Tuner}, {@code jgrad tune}) and kept in a tuning file ({@link TuningFile}): the rows of A per block of the
 * matrix product, and the size from which an op is split across threads. Neither changes a result's bits: a block of
 * rows or a thread's share of elements is computed the same way whoever computes it.
 */
public final class Tuning {
    private Tuning() {
    }

    /** The measured choices in use: the tuning file's, or {@link Choices#DEFAULT}. */
    private static volatile Choices choices = TuningFile.loadForThisProcessor();

    /**
     * The choices measured on a processor.
     *
     * @param gemmRowBlock the rows of A a block of the matrix product packs and multiplies (the threads' tasks)
     * @param parallelMin  the elements from which an op is split across the threads
     */
    public record Choices(int gemmRowBlock, int parallelMin) {
        /** What runs where nothing was measured: chosen on a Zen 5 and a Sapphire Rapids Xeon, right on both. */
        public static final Choices DEFAULT = new Choices(96, 1 << 15);
        static final int MIN_ROW_BLOCK = 24;
        static final int MAX_ROW_BLOCK = 768;
        static final int MIN_PARALLEL = 1 << 11;
        static final int MAX_PARALLEL = 1 << 22;

        /** Refuses values no processor would be measured to want. */
        public Choices {
            if (gemmRowBlock < MIN_ROW_BLOCK || gemmRowBlock > MAX_ROW_BLOCK || parallelMin < MIN_PARALLEL || parallelMin > MAX_PARALLEL) {
                throw new IllegalArgumentException("tuning out of range: gemm row block " + gemmRowBlock + " (" + MIN_ROW_BLOCK + "-"
                        + MAX_ROW_BLOCK + "), parallel from " + parallelMin + " (" + MIN_PARALLEL + "-" + MAX_PARALLEL + ")");
            }
        }
    }

    /** The choices in use. */
    public static Choices choices() {
        return choices;
    }

    /** Uses {@code c} from now on (the tuner while it measures; tests). */
    public static void use(Choices c) {
        choices = java.util.Objects.requireNonNull(c);
    }

    // ---------------------------------------------------------------- threads

    /** Below this many elements an op runs on one thread: a split costs more than it saves (measured: {@link Choices}). */
    public static int parallelMin() {
        return choices.parallelMin();
    }

    /** The rows of A per block of the blocked matrix product (measured: {@link Choices}). */
    public static int gemmRowBlock() {
        return choices.gemmRowBlock();
    }

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

    /**
     * The longest rows that a binary op over rows laid end to end runs as one loop over all of them: a loop per row of
     * four vectors (a (256, 256, 64) broadcast) cost a fifth of the op in its entry and exit, while rows of 1024 ran
     * faster row by row, their loads' bounds checks hoisted out of each row's loop.
     */
    public static final int STREAM_MAX_ROW = 256;

    // ---------------------------------------------------------------- matrix product (GemmPlan)

    /** Below this many multiply-adds a product runs as plain loops: packing costs more than it saves. */
    public static final long GEMM_SMALL = 24L * 24 * 24;

    /** The shortest k for dot-product blocks: below it, the nine sums across each accumulator's lanes cost too much. */
    public static final int DOTS_MIN_K = 256;

    /** The most elements of B read in place, unpacked, whatever the product's shape (it then sits in L2 while A streams past). */
    public static final long DIRECT_SMALL_B = 1L << 15;

    /**
     * The most elements of B read in place, unpacked, by a product that is not wide (a wide one shares B's columns
     * among the threads; read in place, it would be shared by slivers of rows, and a one-row product would run on one
     * thread): as many as one core's L2 holds, where B then stays while each thread's slivers of A pass over it. Packed
     * instead, B is copied whole by every thread that splits the rows, which a product of 256 or 512 (B in L2) pays for
     * in time and gets nothing back for. That holds for tiles that read B from L2 ({@link #tilesReadBFromL2}); the
     * others read only the small Bs in place. It decides how k is cut (in place:
     * one pass of up to {@link PackedGemm#MAX_PANEL}; packed: panels of {@link PackedGemm#KC}), so it is derived from
     * the processor, never measured.
     */
    public static final long DIRECT_MAX_B = directMaxB(Processor.CURRENT.l2Bytes(), Kernels.GEMM.mr());

    /**
     * {@link #DIRECT_MAX_B} for a core with {@code l2Bytes} of L2 and tiles of {@code tileRows} rows: the floats L2 holds
     * (never under {@link #DIRECT_SMALL_B}) for tiles of 8 rows or more, else {@link #DIRECT_SMALL_B}.
     */
    static long directMaxB(int l2Bytes, int tileRows) {
        return tilesReadBFromL2(tileRows) ? Math.max(DIRECT_SMALL_B, l2Bytes / Float.BYTES) : DIRECT_SMALL_B;
    }

    /**
     * Whether micro-kernel tiles of {@code tileRows} rows run at full speed with their rows of B coming from L2 rather
     * than L1: each step of k brings a tile's row of B for {@code mr x nr} multiply-adds, a third of a byte per
     * multiply-add with AVX-512's 12-row tiles, which L2 serves, but four fifths of one with AVX2's 5-row tiles, which it
     * does not (a (512, 512) product ran faster with B packed than read in place from L2).
     */
    static boolean tilesReadBFromL2(int tileRows) {
        return tileRows >= 8;
    }

    /** The most elements of A that the wide product packs at once (they then sit in L2 beside a chunk of B). */
    public static final long WIDE_MAX_A = 1L << 16;

    /** How many times more columns than rows a product needs to be wide (at 256 x 256 x 256, blocked is faster). */
    public static final int WIDE_MIN_RATIO = 8;

    /**
     * Products whose k is at least this long and four times C's sides are cut along k (a weight's gradient over a
     * batch), where the runs' buffers of C together hold at most {@link #SPLIT_K_FLOATS} floats.
     */
    public static final int SPLIT_K_MIN = 4 * PackedGemm.MAX_PANEL;
    public static final long SPLIT_K_FLOATS = 1L << 21;

    // ---------------------------------------------------------------- convolution (ConvPlan)

    /** Columns per position at or below which the forward runs a chunk per sample (a first layer's short k). */
    public static final int CONV_PER_SAMPLE_MAX_K = 64;

    /**
     * The floats of one chunk's columns: 1 MB with 512-bit vectors (Zen 4 and 5, Xeons since Skylake-SP: 1-2 MB of L2 a
     * core), else 512 KB (Zen 1-3). Not the cache's size itself: where L2 is 2 MB, chunks of 2 MB cut W8's 64 samples into
     * five, which two threads share three to two. It decides how a batch is cut, so it is never measured.
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
