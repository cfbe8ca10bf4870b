package dev.jgrad.tensor.internal.kernels;

/** Sums over rows of float32 elements. */
public interface ReductionKernels {
    /** The sum of n elements {@code stride} apart, accumulated in double. */
    double sum(float[] a, int off, int stride, int n);

    /**
     * {@code out[outOff + r * outStride] = (float) s} for each of {@code rows} rows of n unit-stride floats
     * {@code rowStride} apart, s being the row's {@link #sum} (divided by n in double where {@code mean}): a reduction
     * over the last dim in one call, whose row loop is compiled with the sum inside it rather than a call per row.
     */
    default void rowSums(float[] a, int off, int rowStride, int rows, int n, boolean mean, float[] out, int outOff, int outStride) {
        for (int r = 0; r < rows; r++) {
            double s = sum(a, off + r * rowStride, 1, n);
            out[outOff + r * outStride] = (float) (mean ? s / n : s);
        }
    }

    /** The sum of the squares of n contiguous elements (a gradient's share of a norm), accumulated as {@link #sum}. */
    double sumOfSquares(float[] a, int off, int n);

    /** {@code dst[to + j] += src[from + j]} for {@code j < len}. */
    void addRow(float[] src, int from, float[] dst, int to, int len);

    /** Copies {@code len} floats and returns their sum. */
    double copySum(float[] src, int from, float[] dst, int to, int len);

    /**
     * The largest of n contiguous floats, or with {@code min} the smallest, by Java's max and min: NaN where any is NaN,
     * +0 above -0, negative (positive) infinity for none. Those are associative and commutative, so the order the
     * elements are taken in, and the vector width, cannot change the result.
     */
    float extreme(float[] a, int off, int n, boolean min);
}
