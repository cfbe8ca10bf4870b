package dev.jgrad.tensor.internal.kernels;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Float kernels that compute in double lanes, on every JDK at vector speed. Where a second vector shape is safe
 * ({@link VectorMath#SECOND_SHAPE}) a kernel reads half-width float vectors and converts each to a full-width double
 * vector, all in one pass. Elsewhere (JDK 17: a half-width vector there made C2 compile other kernels worse for the rest
 * of the process) no vector of another size may appear: blocks of floats are converted into a scratch array of doubles
 * (each full-width float vector's halves, parts 0 and 1), the kernel works on the scratch, and the doubles go back as
 * floats. A kernel is written once: it loads and stores its vectors from the one set of arrays or the other by the same
 * constant, whose untaken branch C2 drops, and its scalar fallbacks go through {@link #element} and {@link #put}. Every
 * element is converted exactly and rounded once on the way back: both ways give the same bits.
 */
final class DoubleLanes {
    private static final VectorSpecies<Float> S = VectorMath.S;
    private static final int L = S.length();
    private static final VectorSpecies<Double> D = VectorMath.D;
    private static final VectorSpecies<Float> HALF = VectorMath.HALF;
    private static final int DL = D.length();

    /** Doubles a block of the scratch path: 8 KB, so a block stays in L1 between its three passes. */
    private static final int BLOCK = 1024;

    /**
     * A kernel over {@code n} elements (a multiple of the double vector's length) from index 0: on the direct path its
     * inputs are {@code a} at {@code ao} (and {@code b} at {@code bo}, where it has a second) and its output {@code o} at
     * {@code oo}, with {@code d} and {@code e} null; on the scratch path its inputs are {@code d} (and {@code e}) and its
     * output goes back into {@code d}.
     */
    interface Kernel {
        void run(float[] a, int ao, float[] b, int bo, float[] o, int oo, double[] d, double[] e, int n);
    }

    private DoubleLanes() {
    }

    /**
     * Runs the kernel over the leading whole float vectors of n elements, inputs a (and b, or null) and output o, and
     * returns how many it covered: the rest are the caller's scalar tail.
     */
    static int run(float[] a, int ao, float[] b, int bo, float[] o, int oo, int n, Kernel kernel) {
        int covered = S.loopBound(n);
        if (VectorMath.SECOND_SHAPE) {
            kernel.run(a, ao, b, bo, o, oo, null, null, covered);
            return covered;
        }
        double[] d = new double[Math.min(BLOCK, covered)];
        double[] e = b == null ? null : new double[d.length];
        for (int i = 0; i < covered; i += BLOCK) {
            int len = Math.min(BLOCK, covered - i);
            toDoubles(a, ao + i, d, len);
            if (b != null) {
                toDoubles(b, bo + i, e, len);
            }
            kernel.run(null, 0, null, 0, null, 0, d, e, len);
            toFloats(d, o, oo + i, len);
        }
        return covered;
    }

    /** Element i of the input, as the float it was. */
    static float element(float[] a, int ao, double[] d, int i) {
        return VectorMath.SECOND_SHAPE ? a[ao + i] : (float) d[i];
    }

    /** Writes one float result for element i. */
    static void put(float v, float[] o, int oo, double[] d, int i) {
        if (VectorMath.SECOND_SHAPE) {
            o[oo + i] = v;
        } else {
            d[i] = v;
        }
    }

    /** {@code d[k] = a[ao + k]} for {@code k < n}, n a multiple of the float vector's length. */
    private static void toDoubles(float[] a, int ao, double[] d, int n) {
        for (int k = 0; k < n; k += L) {
            FloatVector v = FloatVector.fromArray(S, a, ao + k);
            ((DoubleVector) v.convertShape(VectorOperators.F2D, D, 0)).intoArray(d, k);
            ((DoubleVector) v.convertShape(VectorOperators.F2D, D, 1)).intoArray(d, k + DL);
        }
    }

    /**
     * {@code o[oo + k] = (float) d[k]} for {@code k < n}: a plain loop (C2 vectorises the conversion). The Vector API's
     * way back in one shape (D2F into the upper half of a float vector, part -1) is not compiled on JDK 17 with AVX2 and
     * its fallback turns a NaN's bits into the canonical NaN's.
     */
    private static void toFloats(double[] d, float[] o, int oo, int n) {
        for (int k = 0; k < n; k++) {
            o[oo + k] = (float) d[k];
        }
    }
}
