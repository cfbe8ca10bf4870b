package dev.jgrad.tensor.internal.kernels;

/** Sums over rows of float32 elements. */
public interface ReductionKernels {
    /** The sum of n elements {@code stride} apart, accumulated in double. */
    double sum(float[] a, int off, int stride, int n);

    /**
     * The sum of the float products {@code a[ao + i] b[bo + i]}, each rounded to float and added as {@link #sum} adds n
     * contiguous floats: the bits of {@code sum} over an array of those products, without the array.
     */
    double sumOfProducts(float[] a, int ao, float[] b, int bo, int n);

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

    /**
     * {@code dst[j] = 0 + src[from + j] + src[from + stride + j] + ...} over {@code rows} rows, in float, the rows added
     * in their order (so a column of -0 sums to +0): {@link #addRow} into zeros, without storing the sums between rows.
     */
    void columnSums(float[] src, int from, int stride, int rows, float[] dst, int len);

    /** Copies {@code len} floats and returns their sum. */
    double copySum(float[] src, int from, float[] dst, int to, int len);

    /**
     * The largest of n contiguous floats, or with {@code min} the smallest, by Java's max and min: NaN where any is NaN,
     * +0 above -0, negative (positive) infinity for none. Those are associative and commutative, so the order the
     * elements are taken in, and the vector width, cannot change the result.
     */
    float extreme(float[] a, int off, int n, boolean min);

    /** How many of n contiguous flags are true (a mask's count, before its elements are picked). */
    int countTrue(boolean[] m, int off, int n);

    /**
     * The product of n contiguous floats in double, as {@link #productChains} takes it: the same bits in every
     * implementation and vector width.
     */
    double product(float[] a, int off, int n);

    /**
     * The product of n floats {@code stride} apart in double, by eight partial products over the elements' positions
     * modulo 8 (so that the multiplications overlap instead of waiting for each other), the elements past the last
     * whole eight multiplied into the first, the eight multiplied together at the end as
     * {@code ((p0 p1)(p2 p3))((p4 p5)(p6 p7))}.
     */
    static double productChains(float[] a, int off, int stride, int n) {
        return productChainsFrom(1, 1, 1, 1, 1, 1, 1, 1, a, off, stride, n);
    }

    /**
     * {@link #productChains} continued: the eight chains start at p0..p7 (what a vector kernel multiplied so far) and
     * take the next n elements, eight at a time, then the tail into p0.
     */
    static double productChainsFrom(double p0, double p1, double p2, double p3, double p4, double p5, double p6, double p7,
                                    float[] a, int off, int stride, int n) {
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            int at = off + i * stride;
            p0 *= a[at];
            p1 *= a[at + stride];
            p2 *= a[at + 2 * stride];
            p3 *= a[at + 3 * stride];
            p4 *= a[at + 4 * stride];
            p5 *= a[at + 5 * stride];
            p6 *= a[at + 6 * stride];
            p7 *= a[at + 7 * stride];
        }
        return productOf(p0, p1, p2, p3, p4, p5, p6, p7, a, off + i * stride, stride, n - i);
    }

    /** The tail of {@link #productChains}: the last {@code rest} elements into p0, then the eight multiplied out. */
    private static double productOf(double p0, double p1, double p2, double p3, double p4, double p5, double p6, double p7,
                                    float[] a, int at, int stride, int rest) {
        double first = p0;
        for (int k = 0; k < rest; k++) {
            first *= a[at + k * stride];
        }
        return ((first * p1) * (p2 * p3)) * ((p4 * p5) * (p6 * p7));
    }
}
