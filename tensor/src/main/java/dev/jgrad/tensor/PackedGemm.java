package dev.jgrad.tensor;

/**
 * The blocked matrix product for float32 ({@code C += A B}), in the GotoBLAS layout: for each panel of
 * {@link #KC} rows of B, B is packed once into slivers of {@code nr} columns; then each block of
 * {@link #MC} rows of A is packed into slivers of {@code mr} rows and multiplied sliver by sliver by the
 * {@link MicroKernel}. A B sliver (kc x nr) stays in L1 while A slivers stream past it; the A block stays
 * in L2. Row blocks and column chunks are shared among the threads of {@link Parallel}; each writes its own
 * part of C, so the result does not depend on the thread count.
 */
final class PackedGemm {
    static final int KC = 512;
    static final int MC = 96;
    /** Products below this many flops run on the calling thread: a fork costs more than it saves. */
    static final long PARALLEL_FLOPS = 1L << 22;
    /** The most elements of B read in place, unpacked (it then sits in L2 while A streams past). */
    static final long DIRECT_MAX_B = 1L << 15;
    /** Each thread's packing buffers, grown as needed and kept: a training step multiplies the same shapes again. */
    /**
     * Packed B lives in the calling thread's buffer and workers only read it while the call lasts; each
     * worker packs A into its own.
     */
    private static final ThreadBuffer A_BUFFER = new ThreadBuffer();
    private static final ThreadBuffer B_BUFFER = new ThreadBuffer();

    private PackedGemm() {
    }

    static void sgemm(MicroKernel kernel, int n, int k, int p, float[] a, int ao, int ars, int acs, float[] b, int bo, int brs, int bcs,
                      float[] c, int co, int crs) {
        int mr = kernel.mr();
        int nr = kernel.nr();
        if (k <= KC && bcs == 1 && (long) k * p <= DIRECT_MAX_B) {
            direct(kernel, n, k, p, a, ao, ars, acs, b, bo, brs, c, co, crs);
            return;
        }
        int slivers = (p + nr - 1) / nr;
        long flops = 2L * n * k * p;
        int threads = flops < PARALLEL_FLOPS ? 1 : Parallel.threads();
        // Row blocks of whole mr-row slivers, at most MC rows each, their count a multiple of the threads
        // and their sizes within one sliver of each other, so that the threads finish together.
        int rowSlivers = (n + mr - 1) / mr;
        int rowBlocks = Math.max(1, (rowSlivers * mr + MC - 1) / MC);
        rowBlocks = Math.min(rowSlivers, (rowBlocks + threads - 1) / threads * threads);
        // Enough tasks to keep every thread busy: split the columns when there are few row blocks.
        int colChunks = Math.max(1, Math.min(slivers, (2 * threads + rowBlocks - 1) / rowBlocks));
        int tasks = rowBlocks * colChunks;
        int blocks = rowBlocks;
        float[] bp = B_BUFFER.get(slivers * nr * Math.min(k, KC));
        for (int pc = 0; pc < k; pc += KC) {
            int kc = Math.min(KC, k - pc);
            int kOff = bo + pc * brs;
            if (threads == 1) {
                packB(b, kOff, brs, bcs, kc, p, nr, bp);
            } else {
                // Slivers of B are independent: pack them on all threads.
                int kcs = kc;
                Parallel.forRange(slivers, 1, (lo, hi) -> packBSlivers(b, kOff, brs, bcs, kcs, p, nr, bp, lo, hi));
            }
            int kFrom = pc;
            Parallel.RangeBody body = (lo, hi) -> {
                for (int t = lo; t < hi; t++) {
                    int rb = t / colChunks;
                    int cc = t % colChunks;
                    int ic = (int) ((long) rowSlivers * rb / blocks) * mr;
                    int rows = Math.min((int) ((long) rowSlivers * (rb + 1) / blocks) * mr, n) - ic;
                    int sFrom = (int) ((long) slivers * cc / colChunks);
                    int sTo = (int) ((long) slivers * (cc + 1) / colChunks);
                    float[] ap = A_BUFFER.get(((rows + mr - 1) / mr) * mr * kc);
                    packA(a, ao + ic * ars + kFrom * acs, ars, acs, rows, kc, mr, ap);
                    for (int s = sFrom; s < sTo; s++) {
                        int jc = s * nr;
                        int cols = Math.min(nr, p - jc);
                        for (int ir = 0; ir < rows; ir += mr) {
                            kernel.run(kc, ap, ir * kc, bp, s * nr * kc, nr, c, co + (ic + ir) * crs + jc, crs, Math.min(mr, rows - ir), cols);
                        }
                    }
                }
            };
            if (threads == 1) {
                body.run(0, tasks);
            } else {
                Parallel.forEachTask(tasks, body);
            }
        }
    }

    /**
     * A product small enough to skip packing B: whole slivers of B are read in place, by rows, and only
     * the sliver cut by the right edge is packed (zero-padded). Each sliver of A is packed before use
     * (mr x k floats, cheap): the micro-kernel then reads A at strides the JIT sees as constants instead of
     * broadcasting from mr rows of A in place. Row slivers are shared
     * among the threads.
     */
    static void direct(MicroKernel kernel, int n, int k, int p, float[] a, int ao, int ars, int acs, float[] b, int bo, int brs,
                       float[] c, int co, int crs) {
        int mr = kernel.mr();
        int nr = kernel.nr();
        int rowSlivers = (n + mr - 1) / mr;
        int colSlivers = (p + nr - 1) / nr;
        int pFull = (p / nr) * nr;
        float[] bEdge = null;
        if (pFull < p) {
            bEdge = new float[nr * k];
            packB(b, bo + pFull, brs, 1, k, p - pFull, nr, bEdge);
        }
        float[] be = bEdge;
        Parallel.RangeBody body = (lo, hi) -> {
            float[] ap = A_BUFFER.get(mr * k);
            for (int i = lo; i < hi; i++) {
                int ir = i * mr;
                int rows = Math.min(mr, n - ir);
                packA(a, ao + ir * ars, ars, acs, rows, k, mr, ap);
                for (int j = 0; j < colSlivers; j++) {
                    int jc = j * nr;
                    boolean bWhole = jc + nr <= p;
                    kernel.run(k, ap, 0, bWhole ? b : be, bWhole ? bo + jc : 0, bWhole ? brs : nr,
                            c, co + ir * crs + jc, crs, rows, Math.min(nr, p - jc));
                }
            }
        };
        if (2L * n * k * p < PARALLEL_FLOPS) {
            body.run(0, rowSlivers);
        } else {
            Parallel.forEachTask(rowSlivers, body);
        }
    }

    /** Rows [0, mc) and columns [0, kc) of A into slivers of mr rows: ap[sliver][k][r], zero-padded. */
    static void packA(float[] a, int ao, int ars, int acs, int mc, int kc, int mr, float[] ap) {
        int idx = 0;
        for (int ir = 0; ir < mc; ir += mr) {
            int rows = Math.min(mr, mc - ir);
            for (int kk = 0; kk < kc; kk++) {
                int src = ao + ir * ars + kk * acs;
                int r = 0;
                for (; r < rows; r++) {
                    ap[idx++] = a[src + r * ars];
                }
                for (; r < mr; r++) {
                    ap[idx++] = 0f;
                }
            }
        }
    }

    /** Rows [0, kc) and all p columns of B into slivers of nr columns: bp[sliver][k][j], zero-padded. */
    static void packB(float[] b, int bo, int brs, int bcs, int kc, int p, int nr, float[] bp) {
        packBSlivers(b, bo, brs, bcs, kc, p, nr, bp, 0, (p + nr - 1) / nr);
    }

    /** Slivers [sFrom, sTo) of {@link #packB}. */
    static void packBSlivers(float[] b, int bo, int brs, int bcs, int kc, int p, int nr, float[] bp, int sFrom, int sTo) {
        int idx = sFrom * nr * kc;
        for (int jc = sFrom * nr; jc < Math.min(p, sTo * nr); jc += nr) {
            int cols = Math.min(nr, p - jc);
            for (int kk = 0; kk < kc; kk++) {
                int src = bo + kk * brs + jc * bcs;
                if (bcs == 1 && cols == nr) {
                    System.arraycopy(b, src, bp, idx, nr);
                    idx += nr;
                    continue;
                }
                int j = 0;
                for (; j < cols; j++) {
                    bp[idx++] = b[src + j * bcs];
                }
                for (; j < nr; j++) {
                    bp[idx++] = 0f;
                }
            }
        }
    }
}
