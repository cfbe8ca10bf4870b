package dev.jgrad.tensor.internal.kernels;

/** Layer normalisation's rows in plain Java: the reference, row sums in double, element by element. */
final class PlainNorm implements NormKernels {
    @Override
    public void forwardRow(float[] x, int xo, int c, float[] w, int wo, float[] b, int bo, double eps, float[] out, int oo,
                           float[] mean, float[] rstd, int r) {
        double s = 0;
        for (int j = 0; j < c; j++) {
            s += x[xo + j];
        }
        float m = (float) (s / c);
        double v = 0;
        for (int j = 0; j < c; j++) {
            float d = x[xo + j] - m;
            v += d * d;
        }
        float inv = (float) (1.0 / Math.sqrt(v / c + eps));
        mean[r] = m;
        rstd[r] = inv;
        normalise(x, xo, c, w, wo, b, bo, m, inv, out, oo, 0);
    }

    /** Elements [from, c) of the forward row: {@code (x - m) * inv}, times w, plus b. */
    static void normalise(float[] x, int xo, int c, float[] w, int wo, float[] b, int bo, float m, float inv, float[] out, int oo,
                          int from) {
        for (int j = from; j < c; j++) {
            float y = (x[xo + j] - m) * inv;
            if (w != null) {
                y *= w[wo + j];
            }
            if (b != null) {
                y += b[bo + j];
            }
            out[oo + j] = y;
        }
    }

    @Override
    public void backwardRow(float[] g, int go, float[] x, int xo, int c, float[] w, int wo, float m, float rstd, float[] dx, int dxo) {
        double sumG = 0;
        double sumGx = 0;
        for (int j = 0; j < c; j++) {
            float gw = w == null ? g[go + j] : g[go + j] * w[wo + j];
            sumG += gw;
            sumGx += gw * ((x[xo + j] - m) * rstd);
        }
        inputGradient(g, go, x, xo, c, w, wo, m, rstd, (float) (sumG / c), (float) (sumGx / c), dx, dxo, 0);
    }

    /** Elements [from, c) of the input's gradient row, from the row's two means. */
    static void inputGradient(float[] g, int go, float[] x, int xo, int c, float[] w, int wo, float m, float rstd, float meanG,
                              float meanGx, float[] dx, int dxo, int from) {
        for (int j = from; j < c; j++) {
            float gw = w == null ? g[go + j] : g[go + j] * w[wo + j];
            float xhat = (x[xo + j] - m) * rstd;
            dx[dxo + j] = rstd * (gw - meanG - xhat * meanGx);
        }
    }

    @Override
    public void paramRow(float[] g, int go, float[] x, int xo, int c, float m, float rstd, float[] sw, float[] sb) {
        paramRange(g, go, x, xo, c, m, rstd, sw, sb, 0);
    }

    /** Elements [from, c) of {@link #paramRow}. */
    static void paramRange(float[] g, int go, float[] x, int xo, int c, float m, float rstd, float[] sw, float[] sb, int from) {
        for (int j = from; j < c; j++) {
            float gj = g[go + j];
            if (sw != null) {
                sw[j] += gj * ((x[xo + j] - m) * rstd);
            }
            if (sb != null) {
                sb[j] += gj;
            }
        }
    }
}
