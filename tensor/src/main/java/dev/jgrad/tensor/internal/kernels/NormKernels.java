package dev.jgrad.tensor.internal.kernels;

/**
 * Layer normalisation's rows over the last dim, for contiguous float32 rows of length {@code c}: the forward row with
 * its statistics, the input's gradient row, and one row's share of the weight's and bias's gradients. Each output
 * element is computed by the same float operations in every implementation; only the row sums (mean, variance, the
 * backward's two means) may be added in another order.
 */
public interface NormKernels {
    /**
     * Row {@code r}: {@code mean[r]} and {@code rstd[r] = 1 / sqrt(var + eps)} (biased variance), and
     * {@code out = (x - mean) * rstd * w + b} with w and b optional (null).
     */
    void forwardRow(float[] x, int xo, int c, float[] w, int wo, float[] b, int bo, double eps, float[] out, int oo,
                    float[] mean, float[] rstd, int r);

    /**
     * The input's gradient for one row, {@code dx = rstd (g w - mean(g w) - xhat mean(g w xhat))} with
     * {@code xhat = (x - m) rstd}; w optional.
     */
    void backwardRow(float[] g, int go, float[] x, int xo, int c, float[] w, int wo, float m, float rstd, float[] dx, int dxo);

    /**
     * Adds one row's {@code g xhat} into {@code sw} and its g into {@code sb} (either may be null), element by element in
     * float: a block of rows is summed so, and the blocks' sums in double by the caller.
     */
    void paramRow(float[] g, int go, float[] x, int xo, int c, float m, float rstd, float[] sw, float[] sb);
}
