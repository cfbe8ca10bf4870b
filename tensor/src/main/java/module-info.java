/**
 * Strided n-d arrays with NumPy/PyTorch broadcasting, zero-copy views, reductions, indexing and the kernels behind
 * them. The public API is {@code dev.jgrad.tensor}; the kernels live in {@code dev.jgrad.tensor.internal.*}, and only
 * the fused ops that jgrad's layers call are exported, to the nn module alone.
 */
module dev.jgrad.tensor {
    // The Vector API kernels where the JVM was started with --add-modules jdk.incubator.vector; plain Java otherwise.
    requires static jdk.incubator.vector;
    // The JIT compilers' time, so that the kernels leave them a processor while they compile (CompilerLoad).
    requires java.management;

    exports dev.jgrad.tensor;
    exports dev.jgrad.tensor.internal.fused to dev.jgrad.nn;
}
