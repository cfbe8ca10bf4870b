package dev.jgrad.tensor.internal.kernels;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Copies of short rows in whole vectors: a convolution's im2col and col2im (a 3 x 3 convolution over 13 x 13
 * planes copies rows of 11 floats, two million of them a step) and the packing of a transposed matrix's
 * columns for the matrix product (12 floats each). At such lengths the call and tail of a general copy
 * cost more than the floats. Loaded only where jdk.incubator.vector is present.
 */
public final class VectorRows {
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length();

    private VectorRows() {
    }

    /** {@code len} rounded up to whole vectors: how far {@link #copyRows} reads and writes in each row. */
    public static int span(int len) {
        return (len + L - 1) / L * L;
    }

    /**
     * Copies {@code rows} rows of {@code len} floats, {@code srcStride} and {@code dstStride} apart (a convolution's
     * output rows of one kernel position), each in whole vectors: it reads and writes up to {@code L - 1} floats past
     * each row. A row's overrun lands on the next row, which is written after it; the caller keeps the reads inside
     * {@code src} and writes what lies past the last row.
     */
    public static void copyRows(float[] src, int from, int srcStride, float[] dst, int to, int dstStride, int rows, int len) {
        for (int r = 0; r < rows; r++) {
            int s = from + r * srcStride;
            int d = to + r * dstStride;
            for (int j = 0; j < len; j += L) {
                FloatVector.fromArray(S, src, s + j).intoArray(dst, d + j);
            }
        }
    }

    /**
     * {@code dst[to + kk * width + r] = src[from + kk * stride + r]} for {@code r < width <= L} and {@code kk < count}:
     * {@code count} runs of {@code width} floats, {@code stride} apart, laid end to end (a sliver of a transposed A,
     * packed for the matrix product). Each run is one vector whose lanes past {@code width} are overwritten by the
     * next run's; the last run, and any vector that would read past {@code src}, are copied a float at a time.
     */
    static void gatherRuns(float[] src, int from, int stride, int count, float[] dst, int to, int width) {
        int kk = 0;
        for (; kk < count - 1 && from + kk * stride + L <= src.length; kk++) {
            FloatVector.fromArray(S, src, from + kk * stride).intoArray(dst, to + kk * width);
        }
        for (; kk < count; kk++) {
            System.arraycopy(src, from + kk * stride, dst, to + kk * width, width);
        }
    }
}
