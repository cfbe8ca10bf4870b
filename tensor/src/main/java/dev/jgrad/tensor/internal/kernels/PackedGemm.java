package dev.jgrad.tensor.internal.kernels;

/**
 * The blocked matrix product for float32 ({@code C += A B}, or {@code C = A B} with {@code overwrite}: C's old
 * values are then never read, so a new result needs no zeroing first), in the GotoBLAS layout: for each panel of
 * {@link #KC} rows of B, B is packed into slivers of {@code nr} columns; then each block of
 * {@link Tuning#gemmRowBlock} rows of A is packed into slivers of {@code mr} rows and multiplied sliver by sliver by the
 * {@link MicroKernel}. A B sliver (kc x nr) stays in L1 while A slivers stream past it; the A block stays
 * in L2. Each thread of {@link Parallel} owns a rectangle of C and packs what it reads; each writes its own
 * part of C, so the result does not depend on the thread count. The packing itself is {@link GemmPacking}'s.
 */
public final class PackedGemm {
    /** The rows of B packed per panel, from a core's L1 and the micro-kernel's tile ({@link #kcFor}). */
    public static final int KC = kcFor(Processor.CURRENT.l1dBytes(), Kernels.GEMM.mr(), Kernels.GEMM.nr());
    /**
     * The deepest k multiplied in one pass by the paths that do not cut k into panels (B read in place, the wide product,
     * a packed A): they hold a k of up to this in one panel whatever the L1, so their bits do not depend on the processor.
     */
    public static final int MAX_PANEL = 512;
    /**
     * Each thread's packing buffers, grown as needed and kept, since a training step multiplies the same shapes again.
     * Every thread packs into its own and reads only its own.
     */
    private static final ThreadBuffer A_BUFFER = new ThreadBuffer();
    private static final ThreadBuffer B_BUFFER = new ThreadBuffer();

    private PackedGemm() {
    }

    /**
     * The panel depth for a core with {@code l1d} bytes of L1 and tiles of {@code mr x nr}: a sliver of B,
     * {@code kc x nr} floats, is what each A sliver of a row block reads again, so where the tiles need their B from L1
     * it stays in two thirds of L1 beside the A sliver streaming past, in steps of 64 rows, from 128 to 512. Tiles that
     * read B from L2 at full speed ({@link Tuning#tilesReadBFromL2}: AVX-512's) need not keep the sliver in L1, and
     * there a deeper panel pays: each panel reads and writes C's tile once, and a large product's C is not in L2, so they
     * take at least 256, and no more than the rule gives a larger L1 (512 ran slower than 256 on a Sapphire Rapids core
     * with 48 KB). The depth decides where a product's sum over k is cut into the panels added into C, so it is derived
     * from the processor and never measured: on one machine the same product gives the same bits whatever the tuning.
     */
    static int kcFor(int l1d, int mr, int nr) {
        int kc = (int) (2L * l1d / 3 / (4L * nr)) / 64 * 64;
        kc = Math.max(128, Math.min(512, kc));
        return Tuning.tilesReadBFromL2(mr) ? Math.max(256, kc) : kc;
    }

    static void sgemm(MicroKernel kernel, int n, int k, int p, float[] a, int ao, int ars, int acs, float[] b, int bo, int brs, int bcs,
                      float[] c, int co, int crs) {
        sgemm(kernel, false, n, k, p, a, ao, ars, acs, b, bo, brs, bcs, c, co, crs);
    }

    /** {@code C = A B} when {@code overwrite}, else {@code C += A B}. */
    static void sgemm(MicroKernel kernel, boolean overwrite, int n, int k, int p, float[] a, int ao, int ars, int acs, float[] b, int bo,
                      int brs, int bcs, float[] c, int co, int crs) {
        GemmPlan plan = GemmPlan.of(kernel.nr(), n, k, p, acs, brs, bcs);
        if (overwrite && plan.addsIntoC()) {
            zero(c, co, crs, n, p);
        }
        switch (plan) {
            case EMPTY:
                return;
            case DOTS:
                dots(kernel, n, k, p, a, ao, ars, b, bo, bcs, c, co, crs);
                return;
            case DIRECT:
                direct(kernel, overwrite, n, k, p, a, ao, ars, acs, b, bo, brs, c, co, crs);
                return;
            case WIDE:
                wide(kernel, overwrite, n, k, p, a, ao, ars, acs, b, bo, brs, c, co, crs);
                return;
            case SPLIT_K:
                splitK(kernel, n, k, p, a, ao, ars, acs, b, bo, brs, bcs, c, co, crs);
                return;
            default:
                break;
        }
        blocked(kernel, overwrite, n, k, p, a, ao, ars, acs, b, bo, brs, bcs, c, co, crs);
    }

    /** Rows [0, n) and columns [0, p) of C set to zero. */
    static void zero(float[] c, int co, int crs, int n, int p) {
        for (int i = 0; i < n; i++) {
            java.util.Arrays.fill(c, co + i * crs, co + i * crs + p, 0f);
        }
    }

    /** How much of k {@link #dots} takes at a time: B's columns over it stay in L2 while the rows of A pass. */
    static final int DOTS_KC = 2048;

    /**
     * A product with fewer columns than a tile has, whose A has unit-stride rows and B unit-stride columns,
     * as a first convolution's weight gradient ({@code (32, 43264) @ (43264, 9)}, B im2col's columns
     * transposed): a tile would waste most of its columns and the packing would copy both operands whole.
     * Instead each 3 x 3 block of C is nine dot products read in place. The threads take blocks of rows;
     * each entry's sum runs in the same order whatever the thread count.
     */
    private static void dots(MicroKernel kernel, int n, int k, int p, float[] a, int ao, int ars, float[] b, int bo, int bcs,
                             float[] c, int co, int crs) {
        int rowBlocks = (n + 2) / 3;
        Parallel.RangeBody body = (lo, hi) -> {
            for (int k0 = 0; k0 < k; k0 += DOTS_KC) {
                int kc = Math.min(DOTS_KC, k - k0);
                for (int ib = lo; ib < hi; ib++) {
                    int i = ib * 3;
                    for (int j = 0; j < p; j += 3) {
                        kernel.dots(kc, a, ao + i * ars + k0, ars, Math.min(3, n - i), b, bo + j * bcs + k0, bcs, Math.min(3, p - j),
                                c, co + i * crs + j, crs);
                    }
                }
            }
        };
        Parallel.forRangeCosting(2L * n * k * p, rowBlocks, body);
    }

    /** A product cut along k is cut into at most this many runs (see {@link Tuning#SPLIT_K_MIN}). */
    static final int SPLIT_K_PARTS = 8;

    /**
     * A product with a small C and a long k, as {@code (64, 7744) @ (7744, 288)} or {@code (32, 43264) @ (43264, 9)}:
     * split by rows and columns of C, the threads would meet at every panel of k and share a few uneven
     * tiles. Instead k is cut into a fixed number of runs (fixed by the shape, not the threads, so the
     * result does not depend on the thread count), each run's product made into its own buffer by
     * whichever thread is free, and the buffers added into C in order.
     */
    private static void splitK(MicroKernel kernel, int n, int k, int p, float[] a, int ao, int ars, int acs, float[] b, int bo, int brs,
                               int bcs, float[] c, int co, int crs) {
        int parts = (int) Math.max(1, Math.min(Math.min(SPLIT_K_PARTS, k / (Tuning.SPLIT_K_MIN / 2)), Tuning.SPLIT_K_FLOATS / ((long) n * p)));
        float[][] partial = new float[parts][];
        Parallel.forEachTask(parts, (lo, hi) -> {
            for (int t = lo; t < hi; t++) {
                int k0 = (int) ((long) k * t / parts);
                int k1 = (int) ((long) k * (t + 1) / parts);
                float[] cp = new float[n * p];
                blocked(kernel, true, n, k1 - k0, p, a, ao + k0 * acs, ars, acs, b, bo + k0 * brs, brs, bcs, cp, 0, p);
                partial[t] = cp;
            }
        });
        for (float[] cp : partial) {
            for (int i = 0; i < n; i++) {
                int row = co + i * crs;
                for (int j = 0; j < p; j++) {
                    c[row + j] += cp[i * p + j];
                }
            }
        }
    }

    /**
     * The blocked product, each thread owning a rectangle of C: all its rows and a share of the column slivers, or a
     * share of the row slivers and all columns, whichever gives the busiest thread the least work (its tiles, and what
     * it packs: a split by rows packs all of B on every thread, a split by columns all of A). Each thread packs what it
     * reads itself, panel after panel of {@link #KC} rows of B, and multiplies block after block of
     * {@link Tuning#gemmRowBlock} rows of A, so the threads meet once, at the end: sharing one packed B made them wait
     * for each other twice a panel, which cost the weight gradients of a small model (k the batch, C small) a third
     * of their time. An element of C is summed in the same order whichever thread makes it.
     */
    private static void blocked(MicroKernel kernel, boolean overwrite, int n, int k, int p, float[] a, int ao, int ars, int acs, float[] b,
                                int bo, int brs, int bcs, float[] c, int co, int crs) {
        int mr = kernel.mr();
        int nr = kernel.nr();
        int rowSlivers = (n + mr - 1) / mr;
        int colSlivers = (p + nr - 1) / nr;
        int threads = 2L * n * k * p < Tuning.PARALLEL_FLOPS ? 1 : Parallel.threads();
        boolean byRows = splitByRows(mr, nr, k, rowSlivers, colSlivers, threads);
        int parts = Math.min(threads, byRows ? rowSlivers : colSlivers);
        int rowBlock = Math.max(mr, Tuning.gemmRowBlock() / mr * mr);
        Parallel.forEachTask(parts, (lo, hi) -> {
            for (int part = lo; part < hi; part++) {
                int r0 = byRows ? (int) ((long) rowSlivers * part / parts) * mr : 0;
                int r1 = byRows ? Math.min(n, (int) ((long) rowSlivers * (part + 1) / parts) * mr) : n;
                int s0 = byRows ? 0 : (int) ((long) colSlivers * part / parts);
                int s1 = byRows ? colSlivers : (int) ((long) colSlivers * (part + 1) / parts);
                ownedPart(kernel, overwrite, k, p, a, ao, ars, acs, b, bo, brs, bcs, c, co, crs, r0, r1, s0, s1, rowBlock);
            }
        });
    }

    /** What one float packed costs, in multiply-adds of the micro-kernel: about what the copy and its stores take. */
    private static final long PACK_COST = 16;

    /** Whether {@link #blocked} shares rows (true) or column slivers among {@code threads}: the busiest thread's cost. */
    static boolean splitByRows(int mr, int nr, int k, int rowSlivers, int colSlivers, int threads) {
        long rowsEach = (rowSlivers + threads - 1) / threads;
        long colsEach = (colSlivers + threads - 1) / threads;
        long byRows = rowsEach * colSlivers * mr * nr * (long) k + PACK_COST * k * (colSlivers * nr + rowsEach * mr);
        long byCols = rowSlivers * colsEach * mr * nr * (long) k + PACK_COST * k * (rowSlivers * mr + colsEach * nr);
        return byRows <= byCols;
    }

    /** Rows [r0, r1) and column slivers [s0, s1) of C, on the calling thread, in its own packing buffers. */
    private static void ownedPart(MicroKernel kernel, boolean overwrite, int k, int p, float[] a, int ao, int ars, int acs, float[] b,
                                  int bo, int brs, int bcs, float[] c, int co, int crs, int r0, int r1, int s0, int s1, int rowBlock) {
        int mr = kernel.mr();
        int nr = kernel.nr();
        int cols = Math.min(p, s1 * nr) - s0 * nr;
        float[] bp = B_BUFFER.get((s1 - s0) * nr * Math.min(k, KC));
        float[] ap = A_BUFFER.get(rowBlock * Math.min(k, KC));
        for (int pc = 0; pc < k; pc += KC) {
            int kc = Math.min(KC, k - pc);
            // The first panel writes C (when overwriting), the later ones add into it.
            boolean first = overwrite && pc == 0;
            GemmPacking.packBSlivers(b, bo + pc * brs + s0 * nr * bcs, brs, bcs, kc, cols, nr, bp, 0, s1 - s0);
            for (int ic = r0; ic < r1; ic += rowBlock) {
                int rows = Math.min(rowBlock, r1 - ic);
                GemmPacking.packA(a, ao + ic * ars + pc * acs, ars, acs, rows, kc, mr, ap);
                for (int s = s0; s < s1; s++) {
                    int jc = s * nr;
                    int w = Math.min(nr, p - jc);
                    for (int ir = 0; ir < rows; ir += mr) {
                        kernel.run(kc, ap, ir * kc, bp, (s - s0) * nr * kc, nr, c, co + (ic + ir) * crs + jc, crs, Math.min(mr, rows - ir), w,
                                first);
                    }
                }
            }
        }
    }

    /**
     * B's row stride (floats) from which {@link #wide} packs each chunk of B before use instead of reading it in
     * place: with rows a page or more apart, a sliver's k rows touch k pages, more than the first-level TLB
     * holds on some machines (Zen 1: 64 entries), and every load then waits for a page walk.
     */
    static final int WIDE_PACK_ROW_STRIDE = 1024;
    /** The floats of B in each chunk of columns that {@link #wide} hands a thread. */
    static final int WIDE_CHUNK_FLOATS = 1 << 15;

    /**
     * A product with few rows and many columns, as a convolution over a whole batch ({@code (64, 288) @ (288, 7744)}):
     * B is used by only a few slivers of A, so packing all of it up front would cost about as much as the product.
     * Instead A is packed once, whole, and the threads take chunks of B's columns: each chunk is read from memory
     * once (in place, or packed by its thread where B's rows are far apart) and stays in L2 while every sliver of
     * A passes over it.
     */
    private static void wide(MicroKernel kernel, boolean overwrite, int n, int k, int p, float[] a, int ao, int ars, int acs, float[] b,
                             int bo, int brs, float[] c, int co, int crs) {
        int mr = kernel.mr();
        int nr = kernel.nr();
        int rowSlivers = (n + mr - 1) / mr;
        int colSlivers = (p + nr - 1) / nr;
        float[] ap = A_BUFFER.get(rowSlivers * mr * k);
        GemmPacking.packA(a, ao, ars, acs, n, k, mr, ap);
        boolean pack = brs >= WIDE_PACK_ROW_STRIDE;
        float[] be = pack ? null : edgeSliver(b, bo, brs, k, p, nr);
        int perChunk = Math.max(1, Math.min(8, WIDE_CHUNK_FLOATS / (k * nr)));
        int chunks = (colSlivers + perChunk - 1) / perChunk;
        Parallel.RangeBody body = (lo, hi) -> {
            for (int ch = lo; ch < hi; ch++) {
                int sFrom = ch * perChunk;
                int sTo = Math.min(colSlivers, (ch + 1) * perChunk);
                float[] bp = null;
                if (pack) {
                    // Each thread packs its own chunk (B_BUFFER is per thread, and wide uses no other).
                    bp = B_BUFFER.get(perChunk * nr * k);
                    GemmPacking.packBSlivers(b, bo + sFrom * nr, brs, 1, k, p - sFrom * nr, nr, bp, 0, sTo - sFrom);
                }
                for (int i = 0; i < rowSlivers; i++) {
                    int ir = i * mr;
                    int rows = Math.min(mr, n - ir);
                    for (int j = sFrom; j < sTo; j++) {
                        int jc = j * nr;
                        int cols = Math.min(nr, p - jc);
                        if (pack) {
                            kernel.run(k, ap, i * mr * k, bp, (j - sFrom) * nr * k, nr, c, co + ir * crs + jc, crs, rows, cols, overwrite);
                        } else {
                            boolean bWhole = jc + nr <= p;
                            kernel.run(k, ap, i * mr * k, bWhole ? b : be, bWhole ? bo + jc : 0, bWhole ? brs : nr,
                                    c, co + ir * crs + jc, crs, rows, cols, overwrite);
                        }
                    }
                }
            }
        };
        Parallel.forEachTaskCosting(2L * n * k * p, chunks, body);
    }

    /**
     * A product small enough to skip packing B: whole slivers of B are read in place, by rows, and only
     * the sliver cut by the right edge is packed (zero-padded). Each sliver of A is packed before use
     * (mr x k floats, cheap): the micro-kernel then reads A at strides the JIT sees as constants instead of
     * broadcasting from mr rows of A in place. Row slivers are shared
     * among the threads.
     */
    static void direct(MicroKernel kernel, boolean overwrite, int n, int k, int p, float[] a, int ao, int ars, int acs, float[] b, int bo,
                       int brs, float[] c, int co, int crs) {
        int mr = kernel.mr();
        int nr = kernel.nr();
        int rowSlivers = (n + mr - 1) / mr;
        int colSlivers = (p + nr - 1) / nr;
        float[] be = edgeSliver(b, bo, brs, k, p, nr);
        Parallel.RangeBody body = (lo, hi) -> {
            float[] ap = A_BUFFER.get(mr * k);
            for (int i = lo; i < hi; i++) {
                int ir = i * mr;
                int rows = Math.min(mr, n - ir);
                GemmPacking.packA(a, ao + ir * ars, ars, acs, rows, k, mr, ap);
                for (int j = 0; j < colSlivers; j++) {
                    int jc = j * nr;
                    boolean bWhole = jc + nr <= p;
                    kernel.run(k, ap, 0, bWhole ? b : be, bWhole ? bo + jc : 0, bWhole ? brs : nr,
                            c, co + ir * crs + jc, crs, rows, Math.min(nr, p - jc), overwrite);
                }
            }
        };
        Parallel.forEachTaskCosting(2L * n * k * p, rowSlivers, body);
    }

    /**
     * An A packed once for many products with different Bs on one thread (a convolution's weight, multiplied by
     * chunk after chunk of columns): slivers of mr rows per panel of {@link #MAX_PANEL} columns, {@code [panel][sliver][k][r]}.
     */
    public static final class PackedA {
        public final MicroKernel kernel;
        public final int n;
        public final int k;
        public final float[] ap;

        private PackedA(MicroKernel kernel, int n, int k, float[] ap) {
            this.kernel = kernel;
            this.n = n;
            this.k = k;
            this.ap = ap;
        }

        /** Where panel {@code pc} (its first k) starts in {@link #ap}. */
        int panel(int pc) {
            return ((n + kernel.mr() - 1) / kernel.mr()) * kernel.mr() * pc;
        }
    }

    /** A {@code (n, k)} with row and column strides (ars, acs), packed for {@link #sgemmPacked}. */
    public static PackedA packWhole(MicroKernel kernel, int n, int k, float[] a, int ao, int ars, int acs) {
        int mr = kernel.mr();
        float[] ap = new float[((n + mr - 1) / mr) * mr * k];
        PackedA packed = new PackedA(kernel, n, k, ap);
        for (int pc = 0; pc < k; pc += MAX_PANEL) {
            GemmPacking.packA(a, ao + pc * acs, ars, acs, n, Math.min(MAX_PANEL, k - pc), mr, ap, packed.panel(pc));
        }
        return packed;
    }

    /**
     * {@code C (+)= A B} for a packed A of at most {@link #MAX_PANEL} columns and a B its caller packed as {@link GemmPacking#packB} would
     * ({@code [sliver][k][nr]}, a convolution's columns gathered straight from its input), on the calling thread.
     */
    public static void sgemmPackedB(PackedA a, boolean overwrite, int p, float[] bp, float[] c, int co, int crs) {
        if (nothingToMultiply(a, overwrite, p, c, co, crs)) {
            return;
        }
        if (a.k > MAX_PANEL) {
            throw new IllegalArgumentException("sgemmPackedB: k " + a.k + " is more than a panel (" + MAX_PANEL + ")");
        }
        for (int s = 0; s < (p + a.kernel.nr() - 1) / a.kernel.nr(); s++) {
            sliver(a, 0, a.k, bp, s * a.kernel.nr() * a.k, a.kernel.nr(), s, p, c, co, crs, overwrite);
        }
    }

    /** Whether {@code A B} has no product to compute (no rows, no columns, or k = 0, where C is zeroed if overwritten). */
    private static boolean nothingToMultiply(PackedA a, boolean overwrite, int p, float[] c, int co, int crs) {
        if (a.n == 0 || p == 0) {
            return true;
        }
        if (a.k == 0 && overwrite) {
            zero(c, co, crs, a.n, p);
        }
        return a.k == 0;
    }

    /** Sliver s of C's columns from panel {@code aAt} of A ({@code kc} deep) and that sliver of B at {@code bp[bAt]}, rows {@code bk} apart. */
    private static void sliver(PackedA a, int aAt, int kc, float[] bs, int bAt, int bk, int s, int p, float[] c, int co, int crs, boolean first) {
        int mr = a.kernel.mr();
        int jc = s * a.kernel.nr();
        int cols = Math.min(a.kernel.nr(), p - jc);
        for (int ir = 0; ir < a.n; ir += mr) {
            a.kernel.run(kc, a.ap, aAt + ir * kc, bs, bAt, bk, c, co + ir * crs + jc, crs, Math.min(mr, a.n - ir), cols, first);
        }
    }

    /**
     * {@code C (+)= A B} for a packed A and a {@code (k, p)} B, on the calling thread: B is read in place when it is small
     * enough to stay in cache and its rows are contiguous (as in {@link #direct}), else packed a panel at a time.
     */
    public static void sgemmPacked(PackedA a, boolean overwrite, int p, float[] b, int bo, int brs, int bcs, float[] c, int co, int crs) {
        if (nothingToMultiply(a, overwrite, p, c, co, crs)) {
            return;
        }
        int nr = a.kernel.nr();
        int k = a.k;
        int slivers = (p + nr - 1) / nr;
        boolean inPlace = GemmPlan.smallBInPlace(k, p, bcs);
        float[] be = inPlace ? edgeSliver(b, bo, brs, k, p, nr) : null;
        float[] bp = inPlace ? null : B_BUFFER.get(slivers * nr * Math.min(k, MAX_PANEL));
        for (int pc = 0; pc < k; pc += MAX_PANEL) {
            int kc = Math.min(MAX_PANEL, k - pc);
            if (!inPlace) {
                GemmPacking.packB(b, bo + pc * brs, brs, bcs, kc, p, nr, bp);
            }
            int aAt = a.panel(pc);
            boolean first = overwrite && pc == 0;
            for (int s = 0; s < slivers; s++) {
                boolean whole = (s + 1) * nr <= p;
                float[] bs = inPlace ? (whole ? b : be) : bp;
                int bAt = inPlace ? (whole ? bo + s * nr : 0) : s * nr * kc;
                sliver(a, aAt, kc, bs, bAt, inPlace && whole ? brs : nr, s, p, c, co, crs, first);
            }
        }
    }

    /** B's last sliver of columns when the right edge cuts it, packed and zero-padded; null when p is whole slivers. */
    private static float[] edgeSliver(float[] b, int bo, int brs, int k, int p, int nr) {
        int pFull = (p / nr) * nr;
        if (pFull == p) {
            return null;
        }
        float[] edge = new float[nr * k];
        GemmPacking.packB(b, bo + pFull, brs, 1, k, p - pFull, nr, edge);
        return edge;
    }
}
