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

    private Kernels() {
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
