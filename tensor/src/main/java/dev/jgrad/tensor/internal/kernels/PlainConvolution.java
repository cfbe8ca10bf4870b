package dev.jgrad.tensor.internal.kernels;

/**
 * The reference convolution pieces, computed the plain way: the columns laid out (im2col) and then packed, the weight
 * gradient as their product with the output gradient, col2im adding each kernel position's rows back. Where vectors
 * are absent the plans take none of the window-reading paths, so only {@link #col2im} runs in production; the
 * others are what {@link VectorConvolution}'s pieces are tested against.
 */
final class PlainConvolution implements ConvolutionKernels {
    static final PlainConvolution INSTANCE = new PlainConvolution();

    private PlainConvolution() {
    }

    @Override
    public String name() {
        return "plain Java";
    }

    @Override
    public boolean packsColumns(ConvGeometry g, int per) {
        return false;
    }

    @Override
    public int packedColumnsSize(int per, int gp, int nr) {
        return (gp + nr - 1) / nr * nr * per;
    }

    @Override
    public void packColumns(ConvInput in, int g, int nr, float[] bp) {
        int per = in.c() * in.geo().kh() * in.geo().kw();
        int gp = g * in.geo().positions();
        float[] cols = columns(in, g);
        for (int r = 0; r < per; r++) {
            for (int q = 0; q < gp; q++) {
                bp[(q / nr) * per * nr + r * nr + q % nr] = cols[r * gp + q];
            }
        }
    }

    @Override
    public boolean windowGradient(ConvGeometry g) {
        return false;
    }

    @Override
    public void addWindowGradient(ConvInput in, int g, float[] gy, int oc, float[] dWT, int at) {
        int per = in.c() * in.geo().kh() * in.geo().kw();
        int gp = g * in.geo().positions();
        // (C KH KW, G P) x (G P, OC), added into dWT.
        Gemm.sgemm(per, gp, oc, columns(in, g), 0, gp, 1, gy, 0, 1, gp, dWT, at, oc);
    }

    @Override
    public boolean rowCol2im(ConvGeometry g, int w, int front, int back) {
        return false;
    }

    @Override
    public void col2im(float[] cols, int at, int gp, ConvGeometry geo, float[] dst, int s0, int g, int c, int h, int w) {
        int kk = geo.kh() * geo.kw();
        int p = geo.positions();
        for (int s = 0; s < g; s++) {
            for (int ch = 0; ch < c; ch++) {
                plane(cols, at + ch * kk * gp + s * p, gp, geo, dst, ((s0 + s) * c + ch) * h * w, h, w);
            }
        }
    }

    /** One plane of {@link #col2im}: its kernel positions' column rows start {@code gp} apart at {@code cols[at]}. */
    private static void plane(float[] cols, int at, int gp, ConvGeometry geo, float[] dst, int plane, int h, int w) {
        java.util.Arrays.fill(dst, plane, plane + h * w, 0f);
        int kk = geo.kh() * geo.kw();
        for (int k = 0; k < kk; k++) {
            int ki = k / geo.kw();
            int kj = k % geo.kw();
            int colRow = at + k * gp;
            int x0 = kj * geo.dw() - geo.pw();
            int from = ConvGeometry.firstInside(x0, geo.sw());
            int to = ConvGeometry.endInside(x0, geo.sw(), w, geo.ow());
            // The output rows whose input row lies inside the plane, added in one tight loop.
            int y0 = ki * geo.dh() - geo.ph();
            int iLo = Math.min(geo.oh(), ConvGeometry.firstInside(y0, geo.sh()));
            int iHi = Math.max(iLo, ConvGeometry.endInside(y0, geo.sh(), h, geo.oh()));
            if (iHi > iLo && to > from) {
                int dstRow = plane + (iLo * geo.sh() + y0) * w + x0 + from * geo.sw();
                addRows(cols, colRow + iLo * geo.ow() + from, geo.ow(), dst, dstRow, geo.sh() * w, geo.sw(), iHi - iLo, to - from);
            }
        }
    }

    /** The columns {@code (C KH KW, G P)} of the samples {@code in} reads (its geometry has no padding). */
    private static float[] columns(ConvInput in, int g) {
        ConvGeometry geo = in.geo();
        int kk = geo.kh() * geo.kw();
        int per = in.c() * kk;
        int p = geo.positions();
        int gp = g * p;
        float[] cols = new float[per * gp];
        float[] x = in.x();
        int hw = in.h() * in.w();
        for (int r = 0; r < per; r++) {
            int ch = r / kk;
            int ki = (r % kk) / geo.kw();
            int kj = r % geo.kw();
            for (int q = 0; q < gp; q++) {
                int s = q / p;
                int oy = (q % p) / geo.ow();
                int ox = (q % p) % geo.ow();
                cols[r * gp + q] = x[((in.s0() + s) * in.c() + ch) * hw + (oy * geo.sh() + ki * geo.dh()) * in.w() + ox * geo.sw() + kj * geo.dw()];
            }
        }
        return cols;
    }

    /**
     * {@code dst[to + r dstStride + j sw] += src[from + r srcStride + j]} for {@code r < rows}, {@code j < len}: the column
     * gradients of one kernel position added back row after row.
     */
    static void addRows(float[] src, int from, int srcStride, float[] dst, int to, int dstStride, int sw, int rows, int len) {
        for (int r = 0; r < rows; r++) {
            if (sw == 1) {
                Kernels.REDUCTIONS.addRow(src, from + r * srcStride, dst, to + r * dstStride, len);
                continue;
            }
            for (int j = 0; j < len; j++) {
                dst[to + r * dstStride + j * sw] += src[from + r * srcStride + j];
            }
        }
    }
}
