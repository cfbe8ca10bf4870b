package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.internal.kernels.Parallel;
import dev.jgrad.tensor.internal.kernels.Tuning;

import static dev.jgrad.tensor.internal.TensorAccess.dense;
import static dev.jgrad.tensor.internal.TensorAccess.empty;
import static dev.jgrad.tensor.internal.TensorAccess.floats;
import static dev.jgrad.tensor.internal.TensorAccess.offset;

/**
 * Layer normalisation over the last dim in float32, forward and backward each in one pass over the rows, in place of
 * the composite's six passes forward (mean, subtract, square, mean, rsqrt, scale) and about twice that backward. The
 * forward keeps each row's mean and reciprocal standard deviation for the backward.
 */
public final class LayerNormKernels {
    private LayerNormKernels() {
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
        Parallel.forRange(rows, Math.max(1, Tuning.PARALLEL_MIN / Math.max(1, 4 * c)), (lo, hi) -> {
            for (int r = lo; r < hi; r++) {
                int row = ao + r * c;
                double s = 0;
                for (int j = 0; j < c; j++) {
                    s += a[row + j];
                }
                float m = (float) (s / c);
                double v = 0;
                for (int j = 0; j < c; j++) {
                    float d = a[row + j] - m;
                    v += d * d;
                }
                float inv = (float) (1.0 / Math.sqrt(v / c + eps));
                mu[r] = m;
                rs[r] = inv;
                int orow = r * c;
                for (int j = 0; j < c; j++) {
                    float y = (a[row + j] - m) * inv;
                    if (wv != null) {
                        y *= wv[wo + j];
                    }
                    if (bv != null) {
                        y += bv[bo + j];
                    }
                    o[orow + j] = y;
                }
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
            Parallel.forRange(rows, Math.max(1, Tuning.PARALLEL_MIN / Math.max(1, 4 * c)), (lo, hi) -> {
                for (int r = lo; r < hi; r++) {
                    int row = ao + r * c;
                    int grow = go + r * c;
                    float m = mu[r];
                    float inv = rs[r];
                    double sumG = 0;
                    double sumGx = 0;
                    for (int j = 0; j < c; j++) {
                        float gw = wv == null ? gv[grow + j] : gv[grow + j] * wv[wo + j];
                        sumG += gw;
                        sumGx += gw * ((a[row + j] - m) * inv);
                    }
                    float meanG = (float) (sumG / c);
                    float meanGx = (float) (sumGx / c);
                    int orow = r * c;
                    for (int j = 0; j < c; j++) {
                        float gw = wv == null ? gv[grow + j] : gv[grow + j] * wv[wo + j];
                        float xhat = (a[row + j] - m) * inv;
                        o[orow + j] = inv * (gw - meanG - xhat * meanGx);
                    }
                }
            });
        }
        Tensor dw = null;
        Tensor db = null;
        boolean wantW = needs.length > 1 && needs[1];
        boolean wantB = needs.length > 2 && needs[2];
        if (wantW || wantB) {
            double[] sw = new double[c];
            double[] sb = new double[c];
            for (int r = 0; r < rows; r++) {
                int row = ao + r * c;
                int grow = go + r * c;
                float m = mu[r];
                float inv = rs[r];
                for (int j = 0; j < c; j++) {
                    float gj = gv[grow + j];
                    sw[j] += gj * ((a[row + j] - m) * inv);
                    sb[j] += gj;
                }
            }
            dw = wantW ? Tensor.fromDoubles(sw, DType.FLOAT32, c) : null;
            db = wantB ? Tensor.fromDoubles(sb, DType.FLOAT32, c) : null;
        }
        return new Gradients(dx, dw, db);
    }
}
