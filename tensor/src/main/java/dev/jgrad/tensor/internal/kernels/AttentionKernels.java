package dev.jgrad.tensor.internal.kernels;

/**
 * The products inside fused attention, one head at a time: a few rows of A (or of A transposed) times B over a range
 * of A's columns (and B's rows). The scores are rows of Q times K's transpose over all of d; the output is rows of the weights times V
 * over the keys a query sees, so that the causal mask's half of the work is never done. Every element's sum runs over
 * t in increasing order by fused multiply-adds in every implementation, so they write the same bits.
 */
public interface AttentionKernels {
    /**
     * {@code out[r][j] = init + sum over t in [lo, hi) of a[r][t] b[t][j]} for rows r < rows and columns j < n, where
     * {@code a[r][t] = a[ao + r ars + t acs]} (rows of A, or with {@code ars = 1} its columns: A transposed in place),
     * {@code b[t][j] = b[bo + t brs + j]}, {@code out[r][j] = out[oo + r ors + j]}, and init is the element's old value
     * with {@code accumulate}, else zero (an empty range then writes zeros).
     */
    void rowsTimes(float[] a, int ao, int ars, int acs, int rows, int lo, int hi, float[] b, int bo, int brs, int n,
                   float[] out, int oo, int ors, boolean accumulate);

    /**
     * {@code dst[dOff + c rows + j] = src[so + j rs + c]} for j < rows, c < cols: a head's (rows, cols) matrix, its rows
     * {@code rs} apart, as (cols, rows), so that the products can read it by rows.
     */
    default void transpose(float[] src, int so, int rs, int rows, int cols, float[] dst, int dOff) {
        transposeRows(src, so, rs, 0, rows, cols, dst, dOff);
    }

    /** {@link #transpose}'s rows from {@code from} on, one float at a time. */
    static void transposeRows(float[] src, int so, int rs, int from, int rows, int cols, float[] dst, int dOff) {
        for (int j = from; j < rows; j++) {
            int row = so + j * rs;
            for (int c = 0; c < cols; c++) {
                dst[dOff + c * rows + j] = src[row + c];
            }
        }
    }
}
