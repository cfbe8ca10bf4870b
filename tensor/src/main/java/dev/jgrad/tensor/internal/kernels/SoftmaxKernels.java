package dev.jgrad.tensor.internal.kernels;

/** Softmax over rows of floats: the Vector API loop where it is in use and the row is contiguous, else the plain one. */
public final class SoftmaxKernels {
    private SoftmaxKernels() {
    }

    /** Softmax (or log-softmax) of one row of {@code n} floats, each operand with its own stride. */
    public static void softmaxRowF(float[] a, int ao, int as, float[] o, int oo, int os, int n, boolean log) {
        if (Simd.ENABLED && as == 1 && os == 1 && n >= 16) {
            VectorElementwise.softmaxRow(a, ao, o, oo, n, log);
            return;
        }
        double m = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < n; k++) {
            m = Math.max(m, a[ao + k * as]);
        }
        double sum = 0;
        for (int k = 0; k < n; k++) {
            sum += Math.exp(a[ao + k * as] - m);
        }
        if (log) {
            double lse = m + Math.log(sum);
            for (int k = 0; k < n; k++) {
                o[oo + k * os] = (float) (a[ao + k * as] - lse);
            }
        } else {
            double inv = 1.0 / sum;
            for (int k = 0; k < n; k++) {
                o[oo + k * os] = (float) (Math.exp(a[ao + k * as] - m) * inv);
            }
        }
    }
}
