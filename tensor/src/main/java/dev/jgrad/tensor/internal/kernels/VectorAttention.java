package dev.jgrad.tensor.internal.kernels;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link AttentionKernels} with the Vector API: four rows by two vectors of columns at a time (eight accumulators; each
 * load of B feeds four rows), then four rows by one vector, then the last rows one at a time; columns past the last
 * whole vector run the plain loop. The same fused multiply-adds in the same order as {@link PlainAttention}, so the
 * same bits. Heads are transposed sixteen rows at a time in vector registers. Loaded only where jdk.incubator.vector
 * is present.
 */
final class VectorAttention implements AttentionKernels {
    private static final VectorSpecies<Float> S = VectorMath.S;
    private static final int L = VectorMath.L;

    @Override
    public void rowsTimes(float[] a, int ao, int ars, int acs, int rows, int lo, int hi, float[] b, int bo, int brs, int n,
                          float[] out, int oo, int ors, boolean accumulate) {
        int bound = S.loopBound(n);
        int r = 0;
        for (; r + 4 <= rows; r += 4) {
            int j = 0;
            for (; j + 2 * L <= bound; j += 2 * L) {
                fourRowsTwoVectors(a, ao + r * ars, ars, acs, lo, hi, b, bo + j, brs, out, oo + r * ors + j, ors, accumulate);
            }
            if (j < bound) {
                fourRowsOneVector(a, ao + r * ars, ars, acs, lo, hi, b, bo + j, brs, out, oo + r * ors + j, ors, accumulate);
            }
        }
        for (; r < rows; r++) {
            for (int j = 0; j < bound; j += L) {
                oneRowOneVector(a, ao + r * ars, acs, lo, hi, b, bo + j, brs, out, oo + r * ors + j, accumulate);
            }
        }
        if (bound < n) {
            tail(a, ao, ars, acs, rows, lo, hi, b, bo, brs, bound, n, out, oo, ors, accumulate);
        }
    }

    /** Sixteen rows at a time in vector registers ({@link VectorTranspose}), the rest one float at a time. */
    @Override
    public void transpose(float[] src, int so, int rs, int rows, int cols, float[] dst, int dOff) {
        int j = 0;
        if (VectorTranspose.AVAILABLE) {
            for (; j + 16 <= rows; j += 16) {
                VectorTranspose.lines(src, so + j * rs, rs, 16, cols, dst, dOff + j, rows);
            }
        }
        AttentionKernels.transposeRows(src, so, rs, j, rows, cols, dst, dOff);
    }

    private static void fourRowsTwoVectors(float[] a, int ao, int ars, int acs, int lo, int hi, float[] b, int bo, int brs,
                                           float[] out, int oo, int ors, boolean accumulate) {
        FloatVector c00 = init(out, oo, accumulate);
        FloatVector c01 = init(out, oo + L, accumulate);
        FloatVector c10 = init(out, oo + ors, accumulate);
        FloatVector c11 = init(out, oo + ors + L, accumulate);
        FloatVector c20 = init(out, oo + 2 * ors, accumulate);
        FloatVector c21 = init(out, oo + 2 * ors + L, accumulate);
        FloatVector c30 = init(out, oo + 3 * ors, accumulate);
        FloatVector c31 = init(out, oo + 3 * ors + L, accumulate);
        int a1 = ao + ars;
        int a2 = a1 + ars;
        int a3 = a2 + ars;
        for (int t = lo; t < hi; t++) {
            int bt = bo + t * brs;
            int at = t * acs;
            FloatVector b0 = FloatVector.fromArray(S, b, bt);
            FloatVector b1 = FloatVector.fromArray(S, b, bt + L);
            FloatVector x = FloatVector.broadcast(S, a[ao + at]);
            c00 = x.fma(b0, c00);
            c01 = x.fma(b1, c01);
            x = FloatVector.broadcast(S, a[a1 + at]);
            c10 = x.fma(b0, c10);
            c11 = x.fma(b1, c11);
            x = FloatVector.broadcast(S, a[a2 + at]);
            c20 = x.fma(b0, c20);
            c21 = x.fma(b1, c21);
            x = FloatVector.broadcast(S, a[a3 + at]);
            c30 = x.fma(b0, c30);
            c31 = x.fma(b1, c31);
        }
        c00.intoArray(out, oo);
        c01.intoArray(out, oo + L);
        c10.intoArray(out, oo + ors);
        c11.intoArray(out, oo + ors + L);
        c20.intoArray(out, oo + 2 * ors);
        c21.intoArray(out, oo + 2 * ors + L);
        c30.intoArray(out, oo + 3 * ors);
        c31.intoArray(out, oo + 3 * ors + L);
    }

    private static void fourRowsOneVector(float[] a, int ao, int ars, int acs, int lo, int hi, float[] b, int bo, int brs,
                                          float[] out, int oo, int ors, boolean accumulate) {
        FloatVector c0 = init(out, oo, accumulate);
        FloatVector c1 = init(out, oo + ors, accumulate);
        FloatVector c2 = init(out, oo + 2 * ors, accumulate);
        FloatVector c3 = init(out, oo + 3 * ors, accumulate);
        int a1 = ao + ars;
        int a2 = a1 + ars;
        int a3 = a2 + ars;
        for (int t = lo; t < hi; t++) {
            FloatVector bt = FloatVector.fromArray(S, b, bo + t * brs);
            int at = t * acs;
            c0 = FloatVector.broadcast(S, a[ao + at]).fma(bt, c0);
            c1 = FloatVector.broadcast(S, a[a1 + at]).fma(bt, c1);
            c2 = FloatVector.broadcast(S, a[a2 + at]).fma(bt, c2);
            c3 = FloatVector.broadcast(S, a[a3 + at]).fma(bt, c3);
        }
        c0.intoArray(out, oo);
        c1.intoArray(out, oo + ors);
        c2.intoArray(out, oo + 2 * ors);
        c3.intoArray(out, oo + 3 * ors);
    }

    private static void oneRowOneVector(float[] a, int ao, int acs, int lo, int hi, float[] b, int bo, int brs, float[] out, int oo,
                                        boolean accumulate) {
        FloatVector c = init(out, oo, accumulate);
        for (int t = lo; t < hi; t++) {
            c = FloatVector.broadcast(S, a[ao + t * acs]).fma(FloatVector.fromArray(S, b, bo + t * brs), c);
        }
        c.intoArray(out, oo);
    }

    private static FloatVector init(float[] out, int oo, boolean accumulate) {
        return accumulate ? FloatVector.fromArray(S, out, oo) : FloatVector.zero(S);
    }

    /** Columns [from, n) element by element, as the plain kernel. */
    private static void tail(float[] a, int ao, int ars, int acs, int rows, int lo, int hi, float[] b, int bo, int brs, int from, int n,
                             float[] out, int oo, int ors, boolean accumulate) {
        for (int r = 0; r < rows; r++) {
            int ar = ao + r * ars;
            int or = oo + r * ors;
            for (int j = from; j < n; j++) {
                float s = accumulate ? out[or + j] : 0f;
                for (int t = lo; t < hi; t++) {
                    s = Math.fma(a[ar + t * acs], b[bo + t * brs + j], s);
                }
                out[or + j] = s;
            }
        }
    }
}
