package dev.jgrad.tensor.internal.kernels;

/**
 * The kernels in use, chosen once: the Vector API implementation where the {@code jdk.incubator.vector} module is
 * present and not switched off with {@code -Djgrad.vector=false} ({@link Simd}), else the plain one. The families are
 * constants, so the JIT calls the chosen implementation directly.
 */
public final class Kernels {
    public static final KernelProvider PROVIDER = choose();
    public static final ElementwiseKernels ELEMENTWISE = PROVIDER.elementwise();
    public static final ReductionKernels REDUCTIONS = PROVIDER.reductions();
    public static final SoftmaxKernels SOFTMAX = PROVIDER.softmax();
    public static final OptimizerKernels OPTIMIZER = PROVIDER.optimizer();
    public static final PoolingKernels POOLING = PROVIDER.pooling();
    public static final NormKernels NORM = PROVIDER.norm();
    public static final AttentionKernels ATTENTION = PROVIDER.attention();
    public static final ConvolutionKernels CONVOLUTION = PROVIDER.convolution();
    /** The matrix product's usual micro-kernel. */
    public static final MicroKernel GEMM = PROVIDER.gemm();
    private static final MicroKernel GEMM_8 = PROVIDER.gemm8();

    private Kernels() {
    }

    /**
     * The micro-kernel for a product of n rows: the usual one, or the 8-row one where n is a multiple of 8 that the usual
     * 12-row tiles would cover with more than 5% of padding (n = 64: a sixth tile of 4 rows, which costs as much as a
     * whole one; a 64-row product took as long as a 72-row one).
     */
    public static MicroKernel gemmFor(int n) {
        int mr = GEMM.mr();
        int padding = (n + mr - 1) / mr * mr - n;
        return GEMM_8 != GEMM && n % 8 == 0 && padding * 20 > n ? GEMM_8 : GEMM;
    }

    private static KernelProvider choose() {
        if (!Simd.enabled()) {
            return PlainKernels.PROVIDER;
        }
        try {
            // By name: the vector classes load only where the Vector API is present.
            return (KernelProvider) Class.forName(Kernels.class.getPackageName() + ".VectorKernels").getField("PROVIDER").get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("jgrad's Vector API kernels did not load: " + e, e);
        }
    }
}
