package dev.jgrad.tensor.internal.kernels;

/**
 * The Vector API kernels, one family per class ({@link VectorElementwise}, {@link VectorReductions},
 * {@link VectorSoftmax}, {@link VectorOptimizer}, {@link VectorNorm}, {@link VectorAttention}, {@link VectorConvolution},
 * {@link VectorMicroKernel}, pooling below), one preferred vector shape for the whole process
 * ({@link VectorMath}). Each family vectorizes the ops and lengths where vectors pay and hands the rest to
 * {@link PlainKernels}: short rows, strided operands, ops without a vector loop. Loaded by name, and only where the
 * {@code jdk.incubator.vector} module is present.
 */
public final class VectorKernels {
    public static final KernelProvider PROVIDER = new KernelProvider("Vector API, " + VectorMath.S.vectorBitSize() + "-bit",
            VectorMath.L, new VectorElementwise(), new VectorReductions(), new VectorSoftmax(), new Pooling(), new VectorOptimizer(), new VectorNorm(),
            new VectorAttention(), VectorConvolution.INSTANCE, new VectorMicroKernel(), eightRows());

    private VectorKernels() {
    }

    /** The 8-row tile where the usual one has 12 rows (AVX-512's 32 registers); with narrower vectors the usual one. */
    private static MicroKernel eightRows() {
        VectorMicroKernel usual = new VectorMicroKernel();
        return usual.mr() == 12 ? new VectorMicroKernel(8) : usual;
    }

    /**
     * Rows of at least half a vector of windows ({@link VectorPoolKernels#halvesByPairs}) read with plain loads and split
     * by shuffles; narrower planes gather their windows' corners from a table made once a call. The gradient is spread
     * by shuffles over rows of that width, else by the plain loop.
     */
    private static final class Pooling implements PoolingKernels {
        private static final PoolingKernels PLAIN = PlainKernels.PROVIDER.pooling();

        @Override
        public void maxPool2x2(float[] x, int xo, int h, int w, int outH, int outW, float[] out, float[] off, int lo, int hi) {
            int per = outH * outW;
            boolean byRows = outW >= VectorPoolKernels.L / 2;
            int[] corners = byRows ? null : VectorPoolKernels.corners(w, outH, outW);
            float[] lanes = new float[VectorPoolKernels.L];
            for (int p = lo; p < hi; p++) {
                if (byRows) {
                    VectorPoolKernels.halvesByPairs(x, xo + p * h * w, w, outH, outW, out, off, p * per, lanes);
                } else {
                    VectorPoolKernels.halves(x, xo + p * h * w, w, corners, per, out, off, p * per, lanes);
                }
            }
        }

        @Override
        public void maxPool2x2Backward(float[] g, int go, float[] off, int offAt, float[] gx, int h, int w, int outH, int outW, int lo, int hi) {
            if (outW < VectorPoolKernels.L / 2) {
                PLAIN.maxPool2x2Backward(g, go, off, offAt, gx, h, w, outH, outW, lo, hi);
                return;
            }
            int per = outH * outW;
            for (int p = lo; p < hi; p++) {
                VectorPoolKernels.tiledByPairs(g, go + p * per, off, offAt + p * per, gx, p * h * w, h, w, outH, outW);
            }
        }
    }
}
