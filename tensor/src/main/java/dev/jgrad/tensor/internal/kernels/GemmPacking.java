package dev.jgrad.tensor.internal.kernels;

/**
 * The matrix product's packing: A into slivers of {@code mr} rows ({@code ap[sliver][k][r]}) and B into slivers of
 * {@code nr} columns ({@code bp[sliver][k][j]}), zero-padded at the edges, the layouts the {@link MicroKernel}s read with
 * every stride a constant. Each operand's layout (row-major, transposed, strided) has a small method of its own.
 */
final class GemmPacking {
    /** The float lanes of the kernels' vectors (0: plain Java), for packing a transposed A a vector per k. */
    private static final int LANES = Kernels.PROVIDER.vectorLanes();
    /** Whether packing transposes in vector registers ({@link VectorTranspose}, written for 16-float vectors). */
    private static final boolean TRANSPOSE = LANES == 16;

    private GemmPacking() {
    }

    /**
     * Rows [0, mc) and columns [0, kc) of A into slivers of mr rows: ap[sliver][k][r], zero-padded. Each
     * row is read along its smaller stride: a row-major A is copied row by row (unit-stride reads,
     * writes mr apart), a transposed one k by k.
     */
    static void packA(float[] a, int ao, int ars, int acs, int mc, int kc, int mr, float[] ap) {
        packA(a, ao, ars, acs, mc, kc, mr, ap, 0);
    }

    /** {@link #packA} into {@code ap} from {@code at} on. */
    static void packA(float[] a, int ao, int ars, int acs, int mc, int kc, int mr, float[] ap, int at) {
        int base = at;
        for (int ir = 0; ir < mc; ir += mr) {
            int rows = Math.min(mr, mc - ir);
            int src = ao + ir * ars;
            // Each layout is a small method of its own, compiled on its own terms: as branches of one method, the
            // row-major copy was compiled worse, and differently from one JVM to the next (docs/performance.md).
            if (rows == 5 && mr == 5) {
                packFive(a, src, ars, acs, kc, ap, base);
            } else if (acs == 1 && TRANSPOSE && rows <= 16 && mr >= 8) {
                // A row-major A: its rows side by side, 16 floats of each at a time in vector registers.
                VectorTranspose.lines(a, src, ars, rows, kc, ap, base, mr);
            } else if (acs == 1) {
                packRows(a, src, ars, rows, kc, mr, ap, base);
            } else if (ars == 1 && rows == mr && LANES > 0 && mr <= LANES && mr * 2 >= LANES) {
                // A transposed A (a weight's gradient, g^T x): each k's mr floats are contiguous, one vector each.
                VectorRows.gatherRuns(a, src, acs, kc, ap, base, mr);
            } else {
                packStrided(a, src, ars, acs, rows, kc, mr, ap, base);
            }
            for (int r = rows; r < mr; r++) {
                for (int kk = 0, dst = base + r; kk < kc; kk++, dst += mr) {
                    ap[dst] = 0f;
                }
            }
            base += mr * kc;
        }
    }

    /** Rows of a row-major A (unit column stride), each read along its length and written mr apart. */
    private static void packRows(float[] a, int src, int ars, int rows, int kc, int mr, float[] ap, int base) {
        for (int r = 0; r < rows; r++) {
            int from = src + r * ars;
            for (int kk = 0, dst = base + r; kk < kc; kk++, dst += mr) {
                ap[dst] = a[from + kk];
            }
        }
    }

    /** Any other layout: each row read along its smaller stride (a row-major A row by row, a transposed one k by k). */
    private static void packStrided(float[] a, int src, int ars, int acs, int rows, int kc, int mr, float[] ap, int base) {
        if (acs < ars) {
            for (int r = 0; r < rows; r++) {
                int from = src + r * ars;
                for (int kk = 0, dst = base + r; kk < kc; kk++, dst += mr) {
                    ap[dst] = a[from + kk * acs];
                }
            }
            return;
        }
        for (int kk = 0; kk < kc; kk++) {
            int from = src + kk * acs;
            int dst = base + kk * mr;
            for (int r = 0; r < rows; r++) {
                ap[dst + r] = a[from + r * ars];
            }
        }
    }

    /**
     * One whole sliver of five rows (AVX2's tile height), the five elements of each k written together: a row-major
     * A read along five rows at once, a transposed one five contiguous floats at a time. The general loops run a short
     * inner loop per element or per k, which made packing a sixth of a small attention step.
     */
    private static void packFive(float[] a, int src, int ars, int acs, int kc, float[] ap, int dst) {
        if (acs == 1) {
            int r1 = src + ars;
            int r2 = r1 + ars;
            int r3 = r2 + ars;
            int r4 = r3 + ars;
            for (int kk = 0; kk < kc; kk++, dst += 5) {
                ap[dst] = a[src + kk];
                ap[dst + 1] = a[r1 + kk];
                ap[dst + 2] = a[r2 + kk];
                ap[dst + 3] = a[r3 + kk];
                ap[dst + 4] = a[r4 + kk];
            }
        } else if (ars == 1) {
            for (int kk = 0; kk < kc; kk++, src += acs, dst += 5) {
                ap[dst] = a[src];
                ap[dst + 1] = a[src + 1];
                ap[dst + 2] = a[src + 2];
                ap[dst + 3] = a[src + 3];
                ap[dst + 4] = a[src + 4];
            }
        } else {
            for (int kk = 0; kk < kc; kk++, src += acs, dst += 5) {
                for (int r = 0; r < 5; r++) {
                    ap[dst + r] = a[src + r * ars];
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
        int whole = Math.min(sTo, p / nr) - sFrom;
        if (bcs == 1 && whole > 1 && LANES > 0 && nr % LANES == 0) {
            // A row-major B: each row of the panel read once, front to back, and dealt out to the slivers. Sliver by
            // sliver, the reads would go down the panel a row (a page, for a wide B) at a time, where no prefetcher
            // follows: on a 1024-wide product that made the packing twice as slow as the copy itself.
            for (int kk = 0; kk < kc; kk++) {
                VectorRows.copyRows(b, bo + kk * brs + sFrom * nr, nr, bp, (sFrom * kc + kk) * nr, nr * kc, whole, nr);
            }
            sFrom += whole;
        }
        int idx = sFrom * nr * kc;
        for (int jc = sFrom * nr; jc < Math.min(p, sTo * nr); jc += nr) {
            int cols = Math.min(nr, p - jc);
            // One small method per layout, as for A (packA).
            if (brs == 1 && bcs > 1 && TRANSPOSE && cols == nr && nr == 32) {
                // A transposed B, as a linear layer's weight: its columns side by side, 16 at a time in vector registers.
                VectorTranspose.lines(b, bo + jc * bcs, bcs, 16, kc, bp, idx, nr);
                VectorTranspose.lines(b, bo + (jc + 16) * bcs, bcs, 16, kc, bp, idx + 16, nr);
            } else if (brs == 1 && bcs > 1) {
                packBColumns(b, bo + jc * bcs, bcs, cols, kc, nr, bp, idx);
            } else if (bcs == 1 && cols == nr && LANES > 0 && nr % LANES == 0) {
                // A row-major B: nr contiguous floats per k, copied in whole vectors (a call of arraycopy per 32 floats
                // cost more than the copy).
                VectorRows.copyRows(b, bo + jc, brs, bp, idx, nr, kc, nr);
            } else if (bcs == 1 && cols == nr) {
                packBRows(b, bo + jc, brs, kc, nr, bp, idx);
            } else {
                packBStrided(b, bo + jc * bcs, brs, bcs, cols, kc, nr, bp, idx);
            }
            idx += nr * kc;
        }
    }

    /**
     * A sliver of a transposed B (its columns contiguous, as im2col's columns in a weight's gradient): each column
     * read along its length and written nr apart, instead of nr far-apart columns read per row; zeros past cols.
     */
    private static void packBColumns(float[] b, int src, int bcs, int cols, int kc, int nr, float[] bp, int idx) {
        for (int j = 0; j < cols; j++) {
            int from = src + j * bcs;
            for (int kk = 0, dst = idx + j; kk < kc; kk++, dst += nr) {
                bp[dst] = b[from + kk];
            }
        }
        for (int j = cols; j < nr; j++) {
            for (int kk = 0, dst = idx + j; kk < kc; kk++, dst += nr) {
                bp[dst] = 0f;
            }
        }
    }

    /** A whole sliver of a row-major B: nr contiguous floats per k. */
    private static void packBRows(float[] b, int src, int brs, int kc, int nr, float[] bp, int idx) {
        for (int kk = 0; kk < kc; kk++) {
            System.arraycopy(b, src + kk * brs, bp, idx + kk * nr, nr);
        }
    }

    /** Any other layout, or a row-major sliver cut by the right edge: zeros past cols. */
    private static void packBStrided(float[] b, int src, int brs, int bcs, int cols, int kc, int nr, float[] bp, int idx) {
        if (brs < bcs) {
            for (int j = 0; j < nr; j++) {
                int from = src + j * bcs;
                for (int kk = 0, dst = idx + j; kk < kc; kk++, dst += nr) {
                    bp[dst] = j < cols ? b[from + kk * brs] : 0f;
                }
            }
            return;
        }
        for (int kk = 0; kk < kc; kk++) {
            int from = src + kk * brs;
            int j = 0;
            for (; j < cols; j++) {
                bp[idx++] = b[from + j * bcs];
            }
            for (; j < nr; j++) {
                bp[idx++] = 0f;
            }
        }
    }
}
