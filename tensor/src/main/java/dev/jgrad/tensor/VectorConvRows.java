package dev.jgrad.tensor;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The row copies of a convolution's im2col and col2im in whole vectors. Their rows are short (a 3 x 3
 * convolution over 13 x 13 planes copies rows of 11 floats, two million of them a step), so the call and
 * tail of a general copy cost more than the floats. Loaded only where jdk.incubator.vector is present.
 */
final class VectorConvRows {
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length();

    private VectorConvRows() {
    }

    /** {@code len} rounded up to whole vectors: how far {@link #copyWhole} reads and writes. */
    static int span(int len) {
        return (len + L - 1) / L * L;
    }

    /**
     * Copies {@code src[from, from + len)} to {@code dst[to, ...)} in whole vectors: it reads and writes up to
     * {@code L - 1} floats past {@code len}. The caller keeps both inside their arrays and writes what lies past
     * the row in {@code dst} afterwards.
     */
    static void copyWhole(float[] src, int from, float[] dst, int to, int len) {
        for (int j = 0; j < len; j += L) {
            FloatVector.fromArray(S, src, from + j).intoArray(dst, to + j);
        }
    }

    /** {@code dst[to + j] += src[from + j]} for {@code j < len}. */
    static void add(float[] src, int from, float[] dst, int to, int len) {
        int j = 0;
        for (; j <= len - L; j += L) {
            FloatVector.fromArray(S, dst, to + j).add(FloatVector.fromArray(S, src, from + j)).intoArray(dst, to + j);
        }
        for (; j < len; j++) {
            dst[to + j] += src[from + j];
        }
    }
}
