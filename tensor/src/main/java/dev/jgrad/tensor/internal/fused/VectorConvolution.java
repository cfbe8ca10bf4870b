package dev.jgrad.tensor.internal.fused;

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
    public boolean packsColumns(ConvKernels.Geometry g, int per) {
        return VectorPackedInput.fits(g, per);
    }

    @Override
    public int packedColumnsSize(int per, int gp, int nr) {
        return VectorPackedInput.size(per, gp, nr);
    }

    @Override
    public void packColumns(PaddedInput.Source in, int g, int nr, float[] bp) {
        VectorPackedInput.pack(in, g, nr, bp);
    }

    @Override
    public boolean windowGradient(ConvKernels.Geometry g) {
        return VectorWindowGradient.fits(g);
    }

    @Override
    public void addWindowGradient(PaddedInput.Source in, int g, float[] gy, int oc, float[] dWT, int at) {
        VectorWindowGradient.add(in, g, gy, oc, dWT, at);
    }

    @Override
    public boolean rowCol2im(ConvKernels.Geometry g, int w, int front, int back) {
        return VectorCol2im.fits(g, w, front, back);
    }

    /** Per thread, the lanes each kernel column writes for the geometry of the planes in hand, and a row's buffer. */
    private static final class Col2imState {
        ConvKernels.Geometry geometry;
        int width = -1;
        boolean[] written;
        final float[] row = new float[VectorCol2im.L];
    }

    private static final ThreadLocal<Col2imState> COL2IM = ThreadLocal.withInitial(Col2imState::new);

    @Override
    public void col2imPlane(float[] cols, int at, int gp, ConvKernels.Geometry g, float[] dst, int plane, int h, int w) {
        // A call's planes share a geometry: the lanes are worked out once for them, as before the family existed.
        Col2imState s = COL2IM.get();
        if (!g.equals(s.geometry) || s.width != w) {
            s.geometry = g;
            s.width = w;
            s.written = VectorCol2im.lanesWritten(g, w);
        }
        VectorCol2im.plane(cols, at, gp, g, dst, plane, h, w, s.written, s.row);
    }
}
