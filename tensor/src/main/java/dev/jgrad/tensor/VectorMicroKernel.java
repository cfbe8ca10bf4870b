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
        FloatVector c00 = FloatVector.zero(S); FloatVector c01 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S); FloatVector c11 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S); FloatVector c21 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S); FloatVector c31 = FloatVector.zero(S);
        FloatVector c40 = FloatVector.zero(S); FloatVector c41 = FloatVector.zero(S);
        FloatVector c50 = FloatVector.zero(S); FloatVector c51 = FloatVector.zero(S);
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
        FloatVector.fromArray(S, c, co).add(c00).intoArray(c, co);
        FloatVector.fromArray(S, c, co + L).add(c01).intoArray(c, co + L);
        FloatVector.fromArray(S, c, co + 1 * crs).add(c10).intoArray(c, co + 1 * crs);
        FloatVector.fromArray(S, c, co + 1 * crs + L).add(c11).intoArray(c, co + 1 * crs + L);
        FloatVector.fromArray(S, c, co + 2 * crs).add(c20).intoArray(c, co + 2 * crs);
        FloatVector.fromArray(S, c, co + 2 * crs + L).add(c21).intoArray(c, co + 2 * crs + L);
        FloatVector.fromArray(S, c, co + 3 * crs).add(c30).intoArray(c, co + 3 * crs);
        FloatVector.fromArray(S, c, co + 3 * crs + L).add(c31).intoArray(c, co + 3 * crs + L);
        FloatVector.fromArray(S, c, co + 4 * crs).add(c40).intoArray(c, co + 4 * crs);
        FloatVector.fromArray(S, c, co + 4 * crs + L).add(c41).intoArray(c, co + 4 * crs + L);
        FloatVector.fromArray(S, c, co + 5 * crs).add(c50).intoArray(c, co + 5 * crs);
        FloatVector.fromArray(S, c, co + 5 * crs + L).add(c51).intoArray(c, co + 5 * crs + L);
    }

    /** A full 6 x (2 vectors) tile from a packed sliver of A and rows of B read in place, {@code bk} apart. */
    private static void k6InPlaceB(int kc, float[] ap, int ao, float[] bp, int bo, int bk, float[] c, int co, int crs) {
        FloatVector c00 = FloatVector.zero(S); FloatVector c01 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S); FloatVector c11 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S); FloatVector c21 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S); FloatVector c31 = FloatVector.zero(S);
        FloatVector c40 = FloatVector.zero(S); FloatVector c41 = FloatVector.zero(S);
        FloatVector c50 = FloatVector.zero(S); FloatVector c51 = FloatVector.zero(S);
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
        FloatVector.fromArray(S, c, co).add(c00).intoArray(c, co);
        FloatVector.fromArray(S, c, co + L).add(c01).intoArray(c, co + L);
        FloatVector.fromArray(S, c, co + 1 * crs).add(c10).intoArray(c, co + 1 * crs);
        FloatVector.fromArray(S, c, co + 1 * crs + L).add(c11).intoArray(c, co + 1 * crs + L);
        FloatVector.fromArray(S, c, co + 2 * crs).add(c20).intoArray(c, co + 2 * crs);
        FloatVector.fromArray(S, c, co + 2 * crs + L).add(c21).intoArray(c, co + 2 * crs + L);
        FloatVector.fromArray(S, c, co + 3 * crs).add(c30).intoArray(c, co + 3 * crs);
        FloatVector.fromArray(S, c, co + 3 * crs + L).add(c31).intoArray(c, co + 3 * crs + L);
        FloatVector.fromArray(S, c, co + 4 * crs).add(c40).intoArray(c, co + 4 * crs);
        FloatVector.fromArray(S, c, co + 4 * crs + L).add(c41).intoArray(c, co + 4 * crs + L);
        FloatVector.fromArray(S, c, co + 5 * crs).add(c50).intoArray(c, co + 5 * crs);
        FloatVector.fromArray(S, c, co + 5 * crs + L).add(c51).intoArray(c, co + 5 * crs + L);
    }

    /** A full 12 x (2 vectors) tile from a packed sliver of A and a packed sliver of B: every stride a constant. */
    private static void k12Packed(int kc, float[] ap, int ao, float[] bp, int bo, float[] c, int co, int crs) {
        FloatVector c00 = FloatVector.zero(S); FloatVector c01 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S); FloatVector c11 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S); FloatVector c21 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S); FloatVector c31 = FloatVector.zero(S);
        FloatVector c40 = FloatVector.zero(S); FloatVector c41 = FloatVector.zero(S);
        FloatVector c50 = FloatVector.zero(S); FloatVector c51 = FloatVector.zero(S);
        FloatVector c60 = FloatVector.zero(S); FloatVector c61 = FloatVector.zero(S);
        FloatVector c70 = FloatVector.zero(S); FloatVector c71 = FloatVector.zero(S);
        FloatVector c80 = FloatVector.zero(S); FloatVector c81 = FloatVector.zero(S);
        FloatVector c90 = FloatVector.zero(S); FloatVector c91 = FloatVector.zero(S);
        FloatVector c100 = FloatVector.zero(S); FloatVector c101 = FloatVector.zero(S);
        FloatVector c110 = FloatVector.zero(S); FloatVector c111 = FloatVector.zero(S);
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
        FloatVector.fromArray(S, c, co).add(c00).intoArray(c, co);
        FloatVector.fromArray(S, c, co + L).add(c01).intoArray(c, co + L);
        FloatVector.fromArray(S, c, co + 1 * crs).add(c10).intoArray(c, co + 1 * crs);
        FloatVector.fromArray(S, c, co + 1 * crs + L).add(c11).intoArray(c, co + 1 * crs + L);
        FloatVector.fromArray(S, c, co + 2 * crs).add(c20).intoArray(c, co + 2 * crs);
        FloatVector.fromArray(S, c, co + 2 * crs + L).add(c21).intoArray(c, co + 2 * crs + L);
        FloatVector.fromArray(S, c, co + 3 * crs).add(c30).intoArray(c, co + 3 * crs);
        FloatVector.fromArray(S, c, co + 3 * crs + L).add(c31).intoArray(c, co + 3 * crs + L);
        FloatVector.fromArray(S, c, co + 4 * crs).add(c40).intoArray(c, co + 4 * crs);
        FloatVector.fromArray(S, c, co + 4 * crs + L).add(c41).intoArray(c, co + 4 * crs + L);
        FloatVector.fromArray(S, c, co + 5 * crs).add(c50).intoArray(c, co + 5 * crs);
        FloatVector.fromArray(S, c, co + 5 * crs + L).add(c51).intoArray(c, co + 5 * crs + L);
        FloatVector.fromArray(S, c, co + 6 * crs).add(c60).intoArray(c, co + 6 * crs);
        FloatVector.fromArray(S, c, co + 6 * crs + L).add(c61).intoArray(c, co + 6 * crs + L);
        FloatVector.fromArray(S, c, co + 7 * crs).add(c70).intoArray(c, co + 7 * crs);
        FloatVector.fromArray(S, c, co + 7 * crs + L).add(c71).intoArray(c, co + 7 * crs + L);
        FloatVector.fromArray(S, c, co + 8 * crs).add(c80).intoArray(c, co + 8 * crs);
        FloatVector.fromArray(S, c, co + 8 * crs + L).add(c81).intoArray(c, co + 8 * crs + L);
        FloatVector.fromArray(S, c, co + 9 * crs).add(c90).intoArray(c, co + 9 * crs);
        FloatVector.fromArray(S, c, co + 9 * crs + L).add(c91).intoArray(c, co + 9 * crs + L);
        FloatVector.fromArray(S, c, co + 10 * crs).add(c100).intoArray(c, co + 10 * crs);
        FloatVector.fromArray(S, c, co + 10 * crs + L).add(c101).intoArray(c, co + 10 * crs + L);
        FloatVector.fromArray(S, c, co + 11 * crs).add(c110).intoArray(c, co + 11 * crs);
        FloatVector.fromArray(S, c, co + 11 * crs + L).add(c111).intoArray(c, co + 11 * crs + L);
    }

    /** A full 12 x (2 vectors) tile from a packed sliver of A and rows of B read in place, {@code bk} apart. */
    private static void k12InPlaceB(int kc, float[] ap, int ao, float[] bp, int bo, int bk, float[] c, int co, int crs) {
        FloatVector c00 = FloatVector.zero(S); FloatVector c01 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S); FloatVector c11 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S); FloatVector c21 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S); FloatVector c31 = FloatVector.zero(S);
        FloatVector c40 = FloatVector.zero(S); FloatVector c41 = FloatVector.zero(S);
        FloatVector c50 = FloatVector.zero(S); FloatVector c51 = FloatVector.zero(S);
        FloatVector c60 = FloatVector.zero(S); FloatVector c61 = FloatVector.zero(S);
        FloatVector c70 = FloatVector.zero(S); FloatVector c71 = FloatVector.zero(S);
        FloatVector c80 = FloatVector.zero(S); FloatVector c81 = FloatVector.zero(S);
        FloatVector c90 = FloatVector.zero(S); FloatVector c91 = FloatVector.zero(S);
        FloatVector c100 = FloatVector.zero(S); FloatVector c101 = FloatVector.zero(S);
        FloatVector c110 = FloatVector.zero(S); FloatVector c111 = FloatVector.zero(S);
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
        FloatVector.fromArray(S, c, co).add(c00).intoArray(c, co);
        FloatVector.fromArray(S, c, co + L).add(c01).intoArray(c, co + L);
        FloatVector.fromArray(S, c, co + 1 * crs).add(c10).intoArray(c, co + 1 * crs);
        FloatVector.fromArray(S, c, co + 1 * crs + L).add(c11).intoArray(c, co + 1 * crs + L);
        FloatVector.fromArray(S, c, co + 2 * crs).add(c20).intoArray(c, co + 2 * crs);
        FloatVector.fromArray(S, c, co + 2 * crs + L).add(c21).intoArray(c, co + 2 * crs + L);
        FloatVector.fromArray(S, c, co + 3 * crs).add(c30).intoArray(c, co + 3 * crs);
        FloatVector.fromArray(S, c, co + 3 * crs + L).add(c31).intoArray(c, co + 3 * crs + L);
        FloatVector.fromArray(S, c, co + 4 * crs).add(c40).intoArray(c, co + 4 * crs);
        FloatVector.fromArray(S, c, co + 4 * crs + L).add(c41).intoArray(c, co + 4 * crs + L);
        FloatVector.fromArray(S, c, co + 5 * crs).add(c50).intoArray(c, co + 5 * crs);
        FloatVector.fromArray(S, c, co + 5 * crs + L).add(c51).intoArray(c, co + 5 * crs + L);
        FloatVector.fromArray(S, c, co + 6 * crs).add(c60).intoArray(c, co + 6 * crs);
        FloatVector.fromArray(S, c, co + 6 * crs + L).add(c61).intoArray(c, co + 6 * crs + L);
        FloatVector.fromArray(S, c, co + 7 * crs).add(c70).intoArray(c, co + 7 * crs);
        FloatVector.fromArray(S, c, co + 7 * crs + L).add(c71).intoArray(c, co + 7 * crs + L);
        FloatVector.fromArray(S, c, co + 8 * crs).add(c80).intoArray(c, co + 8 * crs);
        FloatVector.fromArray(S, c, co + 8 * crs + L).add(c81).intoArray(c, co + 8 * crs + L);
        FloatVector.fromArray(S, c, co + 9 * crs).add(c90).intoArray(c, co + 9 * crs);
        FloatVector.fromArray(S, c, co + 9 * crs + L).add(c91).intoArray(c, co + 9 * crs + L);
        FloatVector.fromArray(S, c, co + 10 * crs).add(c100).intoArray(c, co + 10 * crs);
        FloatVector.fromArray(S, c, co + 10 * crs + L).add(c101).intoArray(c, co + 10 * crs + L);
        FloatVector.fromArray(S, c, co + 11 * crs).add(c110).intoArray(c, co + 11 * crs);
        FloatVector.fromArray(S, c, co + 11 * crs + L).add(c111).intoArray(c, co + 11 * crs + L);
    }
}
