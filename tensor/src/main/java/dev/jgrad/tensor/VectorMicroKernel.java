package dev.jgrad.tensor;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API micro-kernel: a tile of C held in vector registers, one broadcast of A and two loads
 * of B per step of k, two fused multiply-adds per row. With AVX-512 (32 vector registers) the tile is
 * 12 x 32 floats in 24 accumulators; with AVX2 (16 registers) 6 x 16 in 12. Addresses are affine in k
 * so the JIT removes the bounds checks from the loop. Loaded only where jdk.incubator.vector is present.
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
    public void run(int kc, float[] ap, int ao, int ar, int ak, float[] bp, int bo, int bk, float[] c, int co, int crs, int rows, int cols) {
        if (cols == NR) {
            // Rows past the edge were packed as zeros (unpacked A only comes in whole slivers); their stores are skipped.
            full(kc, ap, ao, ar, ak, bp, bo, bk, c, co, crs, rows);
            return;
        }
        // A tile cut by the right edge: compute it whole into a scratch buffer, then add the part inside C.
        float[] t = SCRATCH.get();
        java.util.Arrays.fill(t, 0f);
        full(kc, ap, ao, ar, ak, bp, bo, bk, t, 0, NR, MR);
        for (int r = 0; r < rows; r++) {
            int row = co + r * crs;
            for (int j = 0; j < cols; j++) {
                c[row + j] += t[r * NR + j];
            }
        }
    }

    private static void full(int kc, float[] ap, int ao, int ar, int ak, float[] bp, int bo, int bk, float[] c, int co, int crs, int rows) {
        if (MR == 12) {
            k12(kc, ap, ao, ar, ak, bp, bo, bk, c, co, crs, rows);
        } else {
            k6(kc, ap, ao, ar, ak, bp, bo, bk, c, co, crs, rows);
        }
    }

    private static void add(float[] c, int off, FloatVector v) {
        FloatVector.fromArray(S, c, off).add(v).intoArray(c, off);
    }

    /** A full 6 x (2 vectors) tile: C[6][2L] += Ap[kc][6] x Bp[kc][2L]. */
    private static void k6(int kc, float[] ap, int ao, int ar, int ak, float[] bp, int bo, int bk, float[] c, int co, int crs, int rows) {
        FloatVector c00 = FloatVector.zero(S); FloatVector c01 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S); FloatVector c11 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S); FloatVector c21 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S); FloatVector c31 = FloatVector.zero(S);
        FloatVector c40 = FloatVector.zero(S); FloatVector c41 = FloatVector.zero(S);
        FloatVector c50 = FloatVector.zero(S); FloatVector c51 = FloatVector.zero(S);
        for (int k = 0; k < kc; k++) {
            int a = ao + k * ak;
            int b = bo + k * bk;
            FloatVector b0 = FloatVector.fromArray(S, bp, b);
            FloatVector b1 = FloatVector.fromArray(S, bp, b + 1 * L);
            FloatVector a0 = FloatVector.broadcast(S, ap[a]);
            c00 = a0.fma(b0, c00); c01 = a0.fma(b1, c01);
            FloatVector a1 = FloatVector.broadcast(S, ap[a + 1 * ar]);
            c10 = a1.fma(b0, c10); c11 = a1.fma(b1, c11);
            FloatVector a2 = FloatVector.broadcast(S, ap[a + 2 * ar]);
            c20 = a2.fma(b0, c20); c21 = a2.fma(b1, c21);
            FloatVector a3 = FloatVector.broadcast(S, ap[a + 3 * ar]);
            c30 = a3.fma(b0, c30); c31 = a3.fma(b1, c31);
            FloatVector a4 = FloatVector.broadcast(S, ap[a + 4 * ar]);
            c40 = a4.fma(b0, c40); c41 = a4.fma(b1, c41);
            FloatVector a5 = FloatVector.broadcast(S, ap[a + 5 * ar]);
            c50 = a5.fma(b0, c50); c51 = a5.fma(b1, c51);
        }
        add(c, co, c00); add(c, co + 1 * L, c01);
        if (rows > 1) {
            add(c, co + 1 * crs, c10); add(c, co + 1 * crs + 1 * L, c11);
        }
        if (rows > 2) {
            add(c, co + 2 * crs, c20); add(c, co + 2 * crs + 1 * L, c21);
        }
        if (rows > 3) {
            add(c, co + 3 * crs, c30); add(c, co + 3 * crs + 1 * L, c31);
        }
        if (rows > 4) {
            add(c, co + 4 * crs, c40); add(c, co + 4 * crs + 1 * L, c41);
        }
        if (rows > 5) {
            add(c, co + 5 * crs, c50); add(c, co + 5 * crs + 1 * L, c51);
        }
    }

    /** A full 12 x (2 vectors) tile: C[12][2L] += Ap[kc][12] x Bp[kc][2L]. */
    private static void k12(int kc, float[] ap, int ao, int ar, int ak, float[] bp, int bo, int bk, float[] c, int co, int crs, int rows) {
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
            int a = ao + k * ak;
            int b = bo + k * bk;
            FloatVector b0 = FloatVector.fromArray(S, bp, b);
            FloatVector b1 = FloatVector.fromArray(S, bp, b + 1 * L);
            FloatVector a0 = FloatVector.broadcast(S, ap[a]);
            c00 = a0.fma(b0, c00); c01 = a0.fma(b1, c01);
            FloatVector a1 = FloatVector.broadcast(S, ap[a + 1 * ar]);
            c10 = a1.fma(b0, c10); c11 = a1.fma(b1, c11);
            FloatVector a2 = FloatVector.broadcast(S, ap[a + 2 * ar]);
            c20 = a2.fma(b0, c20); c21 = a2.fma(b1, c21);
            FloatVector a3 = FloatVector.broadcast(S, ap[a + 3 * ar]);
            c30 = a3.fma(b0, c30); c31 = a3.fma(b1, c31);
            FloatVector a4 = FloatVector.broadcast(S, ap[a + 4 * ar]);
            c40 = a4.fma(b0, c40); c41 = a4.fma(b1, c41);
            FloatVector a5 = FloatVector.broadcast(S, ap[a + 5 * ar]);
            c50 = a5.fma(b0, c50); c51 = a5.fma(b1, c51);
            FloatVector a6 = FloatVector.broadcast(S, ap[a + 6 * ar]);
            c60 = a6.fma(b0, c60); c61 = a6.fma(b1, c61);
            FloatVector a7 = FloatVector.broadcast(S, ap[a + 7 * ar]);
            c70 = a7.fma(b0, c70); c71 = a7.fma(b1, c71);
            FloatVector a8 = FloatVector.broadcast(S, ap[a + 8 * ar]);
            c80 = a8.fma(b0, c80); c81 = a8.fma(b1, c81);
            FloatVector a9 = FloatVector.broadcast(S, ap[a + 9 * ar]);
            c90 = a9.fma(b0, c90); c91 = a9.fma(b1, c91);
            FloatVector a10 = FloatVector.broadcast(S, ap[a + 10 * ar]);
            c100 = a10.fma(b0, c100); c101 = a10.fma(b1, c101);
            FloatVector a11 = FloatVector.broadcast(S, ap[a + 11 * ar]);
            c110 = a11.fma(b0, c110); c111 = a11.fma(b1, c111);
        }
        add(c, co, c00); add(c, co + 1 * L, c01);
        if (rows > 1) {
            add(c, co + 1 * crs, c10); add(c, co + 1 * crs + 1 * L, c11);
        }
        if (rows > 2) {
            add(c, co + 2 * crs, c20); add(c, co + 2 * crs + 1 * L, c21);
        }
        if (rows > 3) {
            add(c, co + 3 * crs, c30); add(c, co + 3 * crs + 1 * L, c31);
        }
        if (rows > 4) {
            add(c, co + 4 * crs, c40); add(c, co + 4 * crs + 1 * L, c41);
        }
        if (rows > 5) {
            add(c, co + 5 * crs, c50); add(c, co + 5 * crs + 1 * L, c51);
        }
        if (rows > 6) {
            add(c, co + 6 * crs, c60); add(c, co + 6 * crs + 1 * L, c61);
        }
        if (rows > 7) {
            add(c, co + 7 * crs, c70); add(c, co + 7 * crs + 1 * L, c71);
        }
        if (rows > 8) {
            add(c, co + 8 * crs, c80); add(c, co + 8 * crs + 1 * L, c81);
        }
        if (rows > 9) {
            add(c, co + 9 * crs, c90); add(c, co + 9 * crs + 1 * L, c91);
        }
        if (rows > 10) {
            add(c, co + 10 * crs, c100); add(c, co + 10 * crs + 1 * L, c101);
        }
        if (rows > 11) {
            add(c, co + 11 * crs, c110); add(c, co + 11 * crs + 1 * L, c111);
        }
    }
}
