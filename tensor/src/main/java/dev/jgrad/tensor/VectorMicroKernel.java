package dev.jgrad.tensor;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API micro-kernel: a tile of C held in vector registers, one broadcast of A and two loads
 * of B per step of k, two fused multiply-adds per row. With AVX-512 (32 vector registers) the tile is
 * 12 x 32 floats in 24 accumulators; with AVX2 (16 registers) 6 x 16 in 12. Loaded only where
 * jdk.incubator.vector is present.
 *
 * <p>A is always a packed sliver, and B either a packed sliver or rows read in place: one method for
 * each, so that every address is {@code base + k * stride + constant} with as many strides as possible
 * known to the JIT: with A's strides as arguments, the bounds checks of twelve strided reads would stay
 * in the loop.
 *
 * <p>The accumulators start from C's tile and are stored back as they are. Adding the tile at the end
 * instead ({@code fromArray(c).add(acc).intoArray(c)}) made the JIT, in some runs and not others,
 * compile the stores as calls (a species it could not prove constant): the same product ran 20% slower
 * depending on the run.
 *
 * <p>(Generated once with a small script and kept as source: the accumulators must be separate locals.)
 */
final class VectorMicroKernel implements MicroKernel {
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length();
    static final int MR = L >= 16 ? 12 : 6;
    static final int NR = 2 * L;
    private static final ThreadLocal<float[]> SCRATCH = ThreadLocal.withInitial(() -> new float[MR * NR]);

    @Override
    public int mr() {
        return MR;
    }

    @Override
    public int nr() {
        return NR;
    }

    @Override
    public void run(int kc, float[] ap, int ao, float[] bp, int bo, int bk, float[] c, int co, int crs, int rows, int cols) {
        if (rows == MR && cols == NR) {
            full(kc, ap, ao, bp, bo, bk, c, co, crs);
            return;
        }
        // A tile cut by an edge: compute it whole into a scratch buffer (A's rows past the edge were
        // packed as zeros), then add the part inside C. The kernels themselves have no branch on the
        // tile's size: one the JIT had never seen taken would send them back to the interpreter.
        float[] t = SCRATCH.get();
        java.util.Arrays.fill(t, 0f);
        full(kc, ap, ao, bp, bo, bk, t, 0, NR);
        for (int r = 0; r < rows; r++) {
            int row = co + r * crs;
            for (int j = 0; j < cols; j++) {
                c[row + j] += t[r * NR + j];
            }
        }
    }

    private static void full(int kc, float[] ap, int ao, float[] bp, int bo, int bk, float[] c, int co, int crs) {
        if (MR == 12) {
            if (bk == NR) {
                k12Packed(kc, ap, ao, bp, bo, c, co, crs);
            } else {
                k12InPlaceB(kc, ap, ao, bp, bo, bk, c, co, crs);
            }
        } else if (bk == NR) {
            k6Packed(kc, ap, ao, bp, bo, c, co, crs);
        } else {
            k6InPlaceB(kc, ap, ao, bp, bo, bk, c, co, crs);
        }
    }


    /** A full 6 x (2 vectors) tile from a packed sliver of A and a packed sliver of B: every stride a constant. */
    private static void k6Packed(int kc, float[] ap, int ao, float[] bp, int bo, float[] c, int co, int crs) {
        FloatVector c00 = FloatVector.fromArray(S, c, co); FloatVector c01 = FloatVector.fromArray(S, c, co + L);
        FloatVector c10 = FloatVector.fromArray(S, c, co + 1 * crs); FloatVector c11 = FloatVector.fromArray(S, c, co + 1 * crs + L);
        FloatVector c20 = FloatVector.fromArray(S, c, co + 2 * crs); FloatVector c21 = FloatVector.fromArray(S, c, co + 2 * crs + L);
        FloatVector c30 = FloatVector.fromArray(S, c, co + 3 * crs); FloatVector c31 = FloatVector.fromArray(S, c, co + 3 * crs + L);
        FloatVector c40 = FloatVector.fromArray(S, c, co + 4 * crs); FloatVector c41 = FloatVector.fromArray(S, c, co + 4 * crs + L);
        FloatVector c50 = FloatVector.fromArray(S, c, co + 5 * crs); FloatVector c51 = FloatVector.fromArray(S, c, co + 5 * crs + L);
        for (int k = 0; k < kc; k++) {
            int a = ao + k * 6;
            int b = bo + k * NR;
            FloatVector b0 = FloatVector.fromArray(S, bp, b);
            FloatVector b1 = FloatVector.fromArray(S, bp, b + L);
            FloatVector a0 = FloatVector.broadcast(S, ap[a]);
            c00 = a0.fma(b0, c00); c01 = a0.fma(b1, c01);
            FloatVector a1 = FloatVector.broadcast(S, ap[a + 1]);
            c10 = a1.fma(b0, c10); c11 = a1.fma(b1, c11);
            FloatVector a2 = FloatVector.broadcast(S, ap[a + 2]);
            c20 = a2.fma(b0, c20); c21 = a2.fma(b1, c21);
            FloatVector a3 = FloatVector.broadcast(S, ap[a + 3]);
            c30 = a3.fma(b0, c30); c31 = a3.fma(b1, c31);
            FloatVector a4 = FloatVector.broadcast(S, ap[a + 4]);
            c40 = a4.fma(b0, c40); c41 = a4.fma(b1, c41);
            FloatVector a5 = FloatVector.broadcast(S, ap[a + 5]);
            c50 = a5.fma(b0, c50); c51 = a5.fma(b1, c51);
        }
        // Written out, not a helper: a vector passed to a method the JIT does not inline is boxed.
        c00.intoArray(c, co);
        c01.intoArray(c, co + L);
        c10.intoArray(c, co + 1 * crs);
        c11.intoArray(c, co + 1 * crs + L);
        c20.intoArray(c, co + 2 * crs);
        c21.intoArray(c, co + 2 * crs + L);
        c30.intoArray(c, co + 3 * crs);
        c31.intoArray(c, co + 3 * crs + L);
        c40.intoArray(c, co + 4 * crs);
        c41.intoArray(c, co + 4 * crs + L);
        c50.intoArray(c, co + 5 * crs);
        c51.intoArray(c, co + 5 * crs + L);
    }

    /** A full 6 x (2 vectors) tile from a packed sliver of A and rows of B read in place, {@code bk} apart. */
    private static void k6InPlaceB(int kc, float[] ap, int ao, float[] bp, int bo, int bk, float[] c, int co, int crs) {
        FloatVector c00 = FloatVector.fromArray(S, c, co); FloatVector c01 = FloatVector.fromArray(S, c, co + L);
        FloatVector c10 = FloatVector.fromArray(S, c, co + 1 * crs); FloatVector c11 = FloatVector.fromArray(S, c, co + 1 * crs + L);
        FloatVector c20 = FloatVector.fromArray(S, c, co + 2 * crs); FloatVector c21 = FloatVector.fromArray(S, c, co + 2 * crs + L);
        FloatVector c30 = FloatVector.fromArray(S, c, co + 3 * crs); FloatVector c31 = FloatVector.fromArray(S, c, co + 3 * crs + L);
        FloatVector c40 = FloatVector.fromArray(S, c, co + 4 * crs); FloatVector c41 = FloatVector.fromArray(S, c, co + 4 * crs + L);
        FloatVector c50 = FloatVector.fromArray(S, c, co + 5 * crs); FloatVector c51 = FloatVector.fromArray(S, c, co + 5 * crs + L);
        for (int k = 0; k < kc; k++) {
            int a = ao + k * 6;
            int b = bo + k * bk;
            FloatVector b0 = FloatVector.fromArray(S, bp, b);
            FloatVector b1 = FloatVector.fromArray(S, bp, b + L);
            FloatVector a0 = FloatVector.broadcast(S, ap[a]);
            c00 = a0.fma(b0, c00); c01 = a0.fma(b1, c01);
            FloatVector a1 = FloatVector.broadcast(S, ap[a + 1]);
            c10 = a1.fma(b0, c10); c11 = a1.fma(b1, c11);
            FloatVector a2 = FloatVector.broadcast(S, ap[a + 2]);
            c20 = a2.fma(b0, c20); c21 = a2.fma(b1, c21);
            FloatVector a3 = FloatVector.broadcast(S, ap[a + 3]);
            c30 = a3.fma(b0, c30); c31 = a3.fma(b1, c31);
            FloatVector a4 = FloatVector.broadcast(S, ap[a + 4]);
            c40 = a4.fma(b0, c40); c41 = a4.fma(b1, c41);
            FloatVector a5 = FloatVector.broadcast(S, ap[a + 5]);
            c50 = a5.fma(b0, c50); c51 = a5.fma(b1, c51);
        }
        // Written out, not a helper: a vector passed to a method the JIT does not inline is boxed.
        c00.intoArray(c, co);
        c01.intoArray(c, co + L);
        c10.intoArray(c, co + 1 * crs);
        c11.intoArray(c, co + 1 * crs + L);
        c20.intoArray(c, co + 2 * crs);
        c21.intoArray(c, co + 2 * crs + L);
        c30.intoArray(c, co + 3 * crs);
        c31.intoArray(c, co + 3 * crs + L);
        c40.intoArray(c, co + 4 * crs);
        c41.intoArray(c, co + 4 * crs + L);
        c50.intoArray(c, co + 5 * crs);
        c51.intoArray(c, co + 5 * crs + L);
    }

    /** A full 12 x (2 vectors) tile from a packed sliver of A and a packed sliver of B: every stride a constant. */
    private static void k12Packed(int kc, float[] ap, int ao, float[] bp, int bo, float[] c, int co, int crs) {
        FloatVector c00 = FloatVector.fromArray(S, c, co); FloatVector c01 = FloatVector.fromArray(S, c, co + L);
        FloatVector c10 = FloatVector.fromArray(S, c, co + 1 * crs); FloatVector c11 = FloatVector.fromArray(S, c, co + 1 * crs + L);
        FloatVector c20 = FloatVector.fromArray(S, c, co + 2 * crs); FloatVector c21 = FloatVector.fromArray(S, c, co + 2 * crs + L);
        FloatVector c30 = FloatVector.fromArray(S, c, co + 3 * crs); FloatVector c31 = FloatVector.fromArray(S, c, co + 3 * crs + L);
        FloatVector c40 = FloatVector.fromArray(S, c, co + 4 * crs); FloatVector c41 = FloatVector.fromArray(S, c, co + 4 * crs + L);
        FloatVector c50 = FloatVector.fromArray(S, c, co + 5 * crs); FloatVector c51 = FloatVector.fromArray(S, c, co + 5 * crs + L);
        FloatVector c60 = FloatVector.fromArray(S, c, co + 6 * crs); FloatVector c61 = FloatVector.fromArray(S, c, co + 6 * crs + L);
        FloatVector c70 = FloatVector.fromArray(S, c, co + 7 * crs); FloatVector c71 = FloatVector.fromArray(S, c, co + 7 * crs + L);
        FloatVector c80 = FloatVector.fromArray(S, c, co + 8 * crs); FloatVector c81 = FloatVector.fromArray(S, c, co + 8 * crs + L);
        FloatVector c90 = FloatVector.fromArray(S, c, co + 9 * crs); FloatVector c91 = FloatVector.fromArray(S, c, co + 9 * crs + L);
        FloatVector c100 = FloatVector.fromArray(S, c, co + 10 * crs); FloatVector c101 = FloatVector.fromArray(S, c, co + 10 * crs + L);
        FloatVector c110 = FloatVector.fromArray(S, c, co + 11 * crs); FloatVector c111 = FloatVector.fromArray(S, c, co + 11 * crs + L);
        for (int k = 0; k < kc; k++) {
            int a = ao + k * 12;
            int b = bo + k * NR;
            FloatVector b0 = FloatVector.fromArray(S, bp, b);
            FloatVector b1 = FloatVector.fromArray(S, bp, b + L);
            FloatVector a0 = FloatVector.broadcast(S, ap[a]);
            c00 = a0.fma(b0, c00); c01 = a0.fma(b1, c01);
            FloatVector a1 = FloatVector.broadcast(S, ap[a + 1]);
            c10 = a1.fma(b0, c10); c11 = a1.fma(b1, c11);
            FloatVector a2 = FloatVector.broadcast(S, ap[a + 2]);
            c20 = a2.fma(b0, c20); c21 = a2.fma(b1, c21);
            FloatVector a3 = FloatVector.broadcast(S, ap[a + 3]);
            c30 = a3.fma(b0, c30); c31 = a3.fma(b1, c31);
            FloatVector a4 = FloatVector.broadcast(S, ap[a + 4]);
            c40 = a4.fma(b0, c40); c41 = a4.fma(b1, c41);
            FloatVector a5 = FloatVector.broadcast(S, ap[a + 5]);
            c50 = a5.fma(b0, c50); c51 = a5.fma(b1, c51);
            FloatVector a6 = FloatVector.broadcast(S, ap[a + 6]);
            c60 = a6.fma(b0, c60); c61 = a6.fma(b1, c61);
            FloatVector a7 = FloatVector.broadcast(S, ap[a + 7]);
            c70 = a7.fma(b0, c70); c71 = a7.fma(b1, c71);
            FloatVector a8 = FloatVector.broadcast(S, ap[a + 8]);
            c80 = a8.fma(b0, c80); c81 = a8.fma(b1, c81);
            FloatVector a9 = FloatVector.broadcast(S, ap[a + 9]);
            c90 = a9.fma(b0, c90); c91 = a9.fma(b1, c91);
            FloatVector a10 = FloatVector.broadcast(S, ap[a + 10]);
            c100 = a10.fma(b0, c100); c101 = a10.fma(b1, c101);
            FloatVector a11 = FloatVector.broadcast(S, ap[a + 11]);
            c110 = a11.fma(b0, c110); c111 = a11.fma(b1, c111);
        }
        // Written out, not a helper: a vector passed to a method the JIT does not inline is boxed.
        c00.intoArray(c, co);
        c01.intoArray(c, co + L);
        c10.intoArray(c, co + 1 * crs);
        c11.intoArray(c, co + 1 * crs + L);
        c20.intoArray(c, co + 2 * crs);
        c21.intoArray(c, co + 2 * crs + L);
        c30.intoArray(c, co + 3 * crs);
        c31.intoArray(c, co + 3 * crs + L);
        c40.intoArray(c, co + 4 * crs);
        c41.intoArray(c, co + 4 * crs + L);
        c50.intoArray(c, co + 5 * crs);
        c51.intoArray(c, co + 5 * crs + L);
        c60.intoArray(c, co + 6 * crs);
        c61.intoArray(c, co + 6 * crs + L);
        c70.intoArray(c, co + 7 * crs);
        c71.intoArray(c, co + 7 * crs + L);
        c80.intoArray(c, co + 8 * crs);
        c81.intoArray(c, co + 8 * crs + L);
        c90.intoArray(c, co + 9 * crs);
        c91.intoArray(c, co + 9 * crs + L);
        c100.intoArray(c, co + 10 * crs);
        c101.intoArray(c, co + 10 * crs + L);
        c110.intoArray(c, co + 11 * crs);
        c111.intoArray(c, co + 11 * crs + L);
    }

    /** A full 12 x (2 vectors) tile from a packed sliver of A and rows of B read in place, {@code bk} apart. */
    private static void k12InPlaceB(int kc, float[] ap, int ao, float[] bp, int bo, int bk, float[] c, int co, int crs) {
        FloatVector c00 = FloatVector.fromArray(S, c, co); FloatVector c01 = FloatVector.fromArray(S, c, co + L);
        FloatVector c10 = FloatVector.fromArray(S, c, co + 1 * crs); FloatVector c11 = FloatVector.fromArray(S, c, co + 1 * crs + L);
        FloatVector c20 = FloatVector.fromArray(S, c, co + 2 * crs); FloatVector c21 = FloatVector.fromArray(S, c, co + 2 * crs + L);
        FloatVector c30 = FloatVector.fromArray(S, c, co + 3 * crs); FloatVector c31 = FloatVector.fromArray(S, c, co + 3 * crs + L);
        FloatVector c40 = FloatVector.fromArray(S, c, co + 4 * crs); FloatVector c41 = FloatVector.fromArray(S, c, co + 4 * crs + L);
        FloatVector c50 = FloatVector.fromArray(S, c, co + 5 * crs); FloatVector c51 = FloatVector.fromArray(S, c, co + 5 * crs + L);
        FloatVector c60 = FloatVector.fromArray(S, c, co + 6 * crs); FloatVector c61 = FloatVector.fromArray(S, c, co + 6 * crs + L);
        FloatVector c70 = FloatVector.fromArray(S, c, co + 7 * crs); FloatVector c71 = FloatVector.fromArray(S, c, co + 7 * crs + L);
        FloatVector c80 = FloatVector.fromArray(S, c, co + 8 * crs); FloatVector c81 = FloatVector.fromArray(S, c, co + 8 * crs + L);
        FloatVector c90 = FloatVector.fromArray(S, c, co + 9 * crs); FloatVector c91 = FloatVector.fromArray(S, c, co + 9 * crs + L);
        FloatVector c100 = FloatVector.fromArray(S, c, co + 10 * crs); FloatVector c101 = FloatVector.fromArray(S, c, co + 10 * crs + L);
        FloatVector c110 = FloatVector.fromArray(S, c, co + 11 * crs); FloatVector c111 = FloatVector.fromArray(S, c, co + 11 * crs + L);
        for (int k = 0; k < kc; k++) {
            int a = ao + k * 12;
            int b = bo + k * bk;
            FloatVector b0 = FloatVector.fromArray(S, bp, b);
            FloatVector b1 = FloatVector.fromArray(S, bp, b + L);
            FloatVector a0 = FloatVector.broadcast(S, ap[a]);
            c00 = a0.fma(b0, c00); c01 = a0.fma(b1, c01);
            FloatVector a1 = FloatVector.broadcast(S, ap[a + 1]);
            c10 = a1.fma(b0, c10); c11 = a1.fma(b1, c11);
            FloatVector a2 = FloatVector.broadcast(S, ap[a + 2]);
            c20 = a2.fma(b0, c20); c21 = a2.fma(b1, c21);
            FloatVector a3 = FloatVector.broadcast(S, ap[a + 3]);
            c30 = a3.fma(b0, c30); c31 = a3.fma(b1, c31);
            FloatVector a4 = FloatVector.broadcast(S, ap[a + 4]);
            c40 = a4.fma(b0, c40); c41 = a4.fma(b1, c41);
            FloatVector a5 = FloatVector.broadcast(S, ap[a + 5]);
            c50 = a5.fma(b0, c50); c51 = a5.fma(b1, c51);
            FloatVector a6 = FloatVector.broadcast(S, ap[a + 6]);
            c60 = a6.fma(b0, c60); c61 = a6.fma(b1, c61);
            FloatVector a7 = FloatVector.broadcast(S, ap[a + 7]);
            c70 = a7.fma(b0, c70); c71 = a7.fma(b1, c71);
            FloatVector a8 = FloatVector.broadcast(S, ap[a + 8]);
            c80 = a8.fma(b0, c80); c81 = a8.fma(b1, c81);
            FloatVector a9 = FloatVector.broadcast(S, ap[a + 9]);
            c90 = a9.fma(b0, c90); c91 = a9.fma(b1, c91);
            FloatVector a10 = FloatVector.broadcast(S, ap[a + 10]);
            c100 = a10.fma(b0, c100); c101 = a10.fma(b1, c101);
            FloatVector a11 = FloatVector.broadcast(S, ap[a + 11]);
            c110 = a11.fma(b0, c110); c111 = a11.fma(b1, c111);
        }
        // Written out, not a helper: a vector passed to a method the JIT does not inline is boxed.
        c00.intoArray(c, co);
        c01.intoArray(c, co + L);
        c10.intoArray(c, co + 1 * crs);
        c11.intoArray(c, co + 1 * crs + L);
        c20.intoArray(c, co + 2 * crs);
        c21.intoArray(c, co + 2 * crs + L);
        c30.intoArray(c, co + 3 * crs);
        c31.intoArray(c, co + 3 * crs + L);
        c40.intoArray(c, co + 4 * crs);
        c41.intoArray(c, co + 4 * crs + L);
        c50.intoArray(c, co + 5 * crs);
        c51.intoArray(c, co + 5 * crs + L);
        c60.intoArray(c, co + 6 * crs);
        c61.intoArray(c, co + 6 * crs + L);
        c70.intoArray(c, co + 7 * crs);
        c71.intoArray(c, co + 7 * crs + L);
        c80.intoArray(c, co + 8 * crs);
        c81.intoArray(c, co + 8 * crs + L);
        c90.intoArray(c, co + 9 * crs);
        c91.intoArray(c, co + 9 * crs + L);
        c100.intoArray(c, co + 10 * crs);
        c101.intoArray(c, co + 10 * crs + L);
        c110.intoArray(c, co + 11 * crs);
        c111.intoArray(c, co + 11 * crs + L);
    }
}
