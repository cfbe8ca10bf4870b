package dev.jgrad.tensor.internal.kernels;

/** Reductions over rows of floats: the Vector API loop where it is in use and the row is contiguous, else the plain one. */
public final class ReductionKernels {
    private ReductionKernels() {
    }

    /** Sum with four accumulators: C2 will not reorder a single floating sum, so this runs four adds at a time. */
    public static double sumFloats(float[] a, int off, int stride, int n) {
        if (Simd.ENABLED && stride == 1 && n >= 16) {
            return VectorElementwise.sum(a, off, n);
        }
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int i = 0;
        if (stride == 1) {
            for (; i + 3 < n; i += 4) {
                s0 += a[off + i];
                s1 += a[off + i + 1];
                s2 += a[off + i + 2];
                s3 += a[off + i + 3];
            }
        }
        for (; i < n; i++) {
            s0 += a[off + i * stride];
        }
        return (s0 + s1) + (s2 + s3);
    }
}
