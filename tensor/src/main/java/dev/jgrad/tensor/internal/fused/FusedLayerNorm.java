package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.Parallel;
import dev.jgrad.tensor.internal.kernels.Tuning;

import static dev.jgrad.tensor.internal.TensorAccess.dense;
import static dev.jgrad.tensor.internal.TensorAccess.empty;
import static dev.jgrad.tensor.internal.TensorAccess.floats;
import static dev.jgrad.tensor.internal.TensorAccess.offset;

/**
 * Layer normalisation over the last dim in float32, forward and backward each in one pass over the rows, in place of
 * the composite's six passes forward (mean, subtract, square, mean, rsqrt, scale) and about twice that backward. The
 * forward keeps each row's mean and reciprocal standard deviation for the backward. The rows run on the threads through
 * the kernels in use ({@link Kernels#NORM}: Vector API or plain); the weight's and bias's gradients are summed in fixed
 * blocks of rows, so no result depends on the thread count.
 */
public final class FusedLayerNorm {
    private FusedLayerNorm() {
    }

    /** The output, and per row the mean and 1 / sqrt(var + eps). */
    public record Forward(Tensor output, Tensor mean, Tensor rstd) {
    }

    /** The gradients of the input, the weight and the bias (null where not asked). */
    public record Gradients(Tensor input, Tensor weight, Tensor bias) {
    }

    /** {@code (x - mean) / sqrt(var + eps) * w + b} over the last dim of a float32 x; w and b (the last dim's size) may be null. */
    public static Forward forward(Tensor x, Tensor w, Tensor b, double eps) {
        Tensor in = dense(x);
        int c = x.size(-1);
        int rows = c == 0 ? 0 : x.numel() / c;
        Tensor out = empty(DType.FLOAT32, x.shape());
        Tensor mean = empty(DType.FLOAT32, rows);
        Tensor rstd = empty(DType.FLOAT32, rows);
        float[] a = floats(in);
        int ao = offset(in);
        float[] o = floats(out);
        float[] mu = floats(mean);
        float[] rs = floats(rstd);
        float[] wv = w == null ? null : floats(dense(w));
        int wo = w == null ? 0 : offset(dense(w));
        float[] bv = b == null ? null : floats(dense(b));
        int bo = b == null ? 0 : offset(dense(b));
        Parallel.forRange(rows, grain(c), (lo, hi) -> {
            for (int r = lo; r < hi; r++) {
                Kernels.NORM.forwardRow(a, ao + r * c, c, wv, wo, bv, bo, eps, o, r * c, mu, rs, r);
            }
        });
        return new Forward(out, mean, rstd);
    }

    /**
     * From the output's gradient g: {@code dx = rstd (g w - mean(g w) - xhat mean(g w xhat))} per row, {@code dw} the column
     * sums of {@code g xhat}, {@code db} those of g.
     */
    public static Gradients backward(Tensor g, Tensor x, Tensor w, Forward saved, boolean[] needs) {
        Tensor gd = dense(g);
        Tensor in = dense(x);
        int c = x.size(-1);
        int rows = c == 0 ? 0 : x.numel() / c;
        float[] gv = floats(gd);
        int go = offset(gd);
        float[] a = floats(in);
        int ao = offset(in);
        float[] mu = floats(saved.mean());
        float[] rs = floats(saved.rstd());
        float[] wv = w == null ? null : floats(dense(w));
        int wo = w == null ? 0 : offset(dense(w));
        Tensor dx = needs[0] ? empty(DType.FLOAT32, x.shape()) : null;
        if (dx != null) {
            float[] o = floats(dx);
            Parallel.forRange(rows, grain(c), (lo, hi) -> {
                for (int r = lo; r < hi; r++) {
                    Kernels.NORM.backwardRow(gv, go + r * c, a, ao + r * c, c, wv, wo, mu[r], rs[r], o, r * c);
                }
            });
        }
        Tensor dw = null;
        Tensor db = null;
        boolean wantW = needs.length > 1 && needs[1];
        boolean wantB = needs.length > 2 && needs[2];
        if (wantW || wantB) {
            double[] sw = wantW ? new double[c] : null;
            double[] sb = wantB ? new double[c] : null;
            paramGradients(gv, go, a, ao, rows, c, mu, rs, sw, sb);
            dw = wantW ? Tensor.fromDoubles(sw, DType.FLOAT32, c) : null;
            db = wantB ? Tensor.fromDoubles(sb, DType.FLOAT32, c) : null;
        }
        return new Gradients(dx, dw, db);
    }

    /** Rows per block of {@link #paramGradients}: fixed, so the sums do not depend on the thread count. */
    static final int PARAM_BLOCK_ROWS = 64;

    /**
     * The column sums of {@code g xhat} into sw and of g into sb (either may be null): each block of
     * {@link #PARAM_BLOCK_ROWS} rows summed in float (one vector add per element and row), on the threads, into its own
     * partial sums; the partials added in double in block order.
     */
    private static void paramGradients(float[] gv, int go, float[] a, int ao, int rows, int c, float[] mu, float[] rs, double[] sw,
                                       double[] sb) {
        int blocks = (rows + PARAM_BLOCK_ROWS - 1) / PARAM_BLOCK_ROWS;
        float[][] pw = sw == null ? null : new float[blocks][c];
        float[][] pb = sb == null ? null : new float[blocks][c];
        Parallel.forRange(blocks, Math.max(1, grain(c) / PARAM_BLOCK_ROWS), (lo, hi) -> {
            for (int k = lo; k < hi; k++) {
                float[] w = pw == null ? null : pw[k];
                float[] b = pb == null ? null : pb[k];
                for (int r = k * PARAM_BLOCK_ROWS, end = Math.min(rows, r + PARAM_BLOCK_ROWS); r < end; r++) {
                    Kernels.NORM.paramRow(gv, go + r * c, a, ao + r * c, c, mu[r], rs[r], w, b);
                }
            }
        });
        for (int k = 0; k < blocks; k++) {
            for (int j = 0; j < c; j++) {
                if (sw != null) {
                    sw[j] += pw[k][j];
                }
                if (sb != null) {
                    sb[j] += pb[k][j];
                }
            }
        }
    }

    /** Rows per thread at the least: enough elements to pay for waking a thread. */
    private static int grain(int c) {
        return Math.max(1, Tuning.parallelMin() / Math.max(1, 4 * c));
    }
}
