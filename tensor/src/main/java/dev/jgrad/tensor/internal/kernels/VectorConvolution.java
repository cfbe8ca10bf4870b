package dev.jgrad.tensor.internal.kernels;

/** The convolution pieces of the Vector API ({@link VectorPackedInput}, {@link VectorWindowGradient}, {@link VectorCol2im}). */
final class VectorConvolution implements ConvolutionKernels {
    static final VectorConvolution INSTANCE = new VectorConvolution();

    private VectorConvolution() {
    }

    @Override
    public String name() {
        return "Vector API";
    }

    @Override
    public boolean packsColumns(ConvGeometry g, int per) {
        return VectorPackedInput.fits(g, per);
    }

    @Override
    public int packedColumnsSize(int per, int gp, int nr) {
        return VectorPackedInput.size(per, gp, nr);
    }

    @Override
    public void packColumns(ConvInput in, int g, int nr, float[] bp) {
        VectorPackedInput.pack(in, g, nr, bp);
    }

    @Override
    public boolean windowGradient(ConvGeometry g) {
        return VectorWindowGradient.fits(g);
    }

    @Override
    public void addWindowGradient(ConvInput in, int g, float[] gy, int oc, float[] dWT, int at) {
        VectorWindowGradient.add(in, g, gy, oc, dWT, at);
    }

    @Override
    public boolean rowCol2im(ConvGeometry g, int w, int front, int back) {
        return VectorCol2im.fits(g, w, front, back);
    }

    @Override
    public void col2im(float[] cols, int at, int gp, ConvGeometry geo, float[] dst, int s0, int g, int c, int h, int w) {
        // The planes share a geometry: the lanes each kernel column writes are worked out once for them.
        boolean[] written = VectorCol2im.lanesWritten(geo, w);
        float[] row = new float[VectorCol2im.L];
        int kk = geo.kh() * geo.kw();
        int p = geo.positions();
        for (int s = 0; s < g; s++) {
            for (int ch = 0; ch < c; ch++) {
                VectorCol2im.plane(cols, at + ch * kk * gp + s * p, gp, geo, dst, ((s0 + s) * c + ch) * h * w, h, w, written, row);
            }
        }
    }
}
