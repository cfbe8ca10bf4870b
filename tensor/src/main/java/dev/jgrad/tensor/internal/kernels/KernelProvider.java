package dev.jgrad.tensor.internal.kernels;

/**
 * One implementation of jgrad's array kernels, a family per interface (after Lucene's VectorizationProvider): plain
 * Java ({@link PlainKernels}, the reference) or the Vector API ({@code VectorKernels}, tested against the plain one).
 * {@link Kernels} chooses one when jgrad is first used; nothing else asks which.
 */
public interface KernelProvider {
    /** For reports: "plain Java", "Vector API, 512-bit". */
    String name();

    /** The float lanes of one vector, for plans that choose vector paths by shape; 0 for plain Java. */
    int vectorLanes();

    ElementwiseKernels elementwise();

    ReductionKernels reductions();

    SoftmaxKernels softmax();

    OptimizerKernels optimizer();

    PoolingKernels pooling();
}
