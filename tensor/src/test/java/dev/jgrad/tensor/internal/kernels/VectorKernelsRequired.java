package dev.jgrad.tensor.internal.kernels;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Tests of the Vector API kernels: skipped in the test execution that switches them off
 * ({@code -Djgrad.vector=false}), and failing in any other where they did not load, since the build
 * adds jdk.incubator.vector to every test JVM.
 */
final class VectorKernelsRequired {
    private VectorKernelsRequired() {
    }

    static void check() {
        assumeTrue(!"false".equals(System.getProperty("jgrad.vector")), "plain-kernel execution");
        assertTrue(Simd.enabled(), "the build runs tests with jdk.incubator.vector; the vector kernels must be in use");
        assertTrue(Kernels.GEMM instanceof VectorMicroKernel, "the vector micro-kernel must be in use, not " + Kernels.GEMM.getClass().getSimpleName());
    }
}
