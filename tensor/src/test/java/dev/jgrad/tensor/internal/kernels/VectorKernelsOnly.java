package dev.jgrad.tensor.internal.kernels;

/**
 * The JUnit tag of tests that compare the Vector API kernels with the plain ones: the test execution that switches the
 * vector kernels off ({@code -Djgrad.vector=false}) leaves them out (tensor's pom.xml) rather than skip them.
 */
public final class VectorKernelsOnly {
    public static final String TAG = "vector-kernels";

    private VectorKernelsOnly() {
    }
}
