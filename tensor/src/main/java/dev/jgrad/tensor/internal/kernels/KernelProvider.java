package dev.jgrad.tensor.internal.kernels;

/**
 * One implementation of jgrad's array kernels, a family per interface (after Lucene's VectorizationProvider): plain
 * Java ({@link PlainKernels#PROVIDER}, the reference) or the Vector API ({@code VectorKernels.PROVIDER}, tested against
 * the plain one), the matrix product's micro-kernels and the convolution's pieces among them. {@link Kernels} chooses
 * one when jgrad is first used; nothing else asks which.
 *
 * @param name        for reports: "plain Java", "Vector API, 512-bit"
 * @param vectorLanes the float lanes of one vector, for plans that choose vector paths by shape; 0 for plain Java
 * @param gemm        the matrix product's usual micro-kernel
 * @param gemm8       its 8-row kernel, for products whose rows the usual tile would pad by more than 5% (or {@code gemm})
 */
public record KernelProvider(String name, int vectorLanes, ElementwiseKernels elementwise, ReductionKernels reductions,
                             SoftmaxKernels softmax, PoolingKernels pooling, OptimizerKernels optimizer, NormKernels norm,
                             AttentionKernels attention, ConvolutionKernels convolution, MicroKernel gemm, MicroKernel gemm8) {
}
