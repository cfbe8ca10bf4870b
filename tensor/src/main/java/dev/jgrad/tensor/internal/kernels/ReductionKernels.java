package dev.jgrad.tensor.internal.kernels;

/** Sums over rows of float32 elements. */
public interface ReductionKernels {
    /** The sum of n elements {@code stride} apart, accumulated in double. */
    double sum(float[] a, int off, int stride, int n);

    /** The sum of the squares of n contiguous elements (a gradient's share of a norm), accumulated as {@link #sum}. */
    double sumOfSquares(float[] a, int off, int n);

    /** {@code dst[to + j] += src[from + j]} for {@code j < len}. */
    void addRow(float[] src, int from, float[] dst, int to, int len);

    /** Copies {@code len} floats and returns their sum. */
    double copySum(float[] src, int from, float[] dst, int to, int len);
}
