package dev.jgrad.tensor.internal.kernels;

/**
 * Dense matrix products {@code C += A B} on strided operands, C row-major with row stride {@code crs}: a
 * product into zeros, or into a start such as a bias (a convolution's, a linear layer's). A is (n, k) with
 * row/column strides (ars, acs), B is (k, p) with (brs, bcs).
 */
public final class Gemm {
    private Gemm() {
    }


    public static void sgemm(int n, int k, int p, float[] a, int ao, int ars, int acs, float[] b, int bo, int brs, int bcs,
                      float[] c, int co, int crs) {
        sgemm(false, n, k, p, a, ao, ars, acs, b, bo, brs, bcs, c, co, crs);
    }

    /**
     * {@code C = A B}: C's old values are never read, so a new result (or a recycled array) needs no zeroing
     * first; the packed kernels zero each tile of C just before they add into it, while it is in cache.
     */
    public static void sgemmInto(int n, int k, int p, float[] a, int ao, int ars, int acs, float[] b, int bo, int brs, int bcs,
                          float[] c, int co, int crs) {
        sgemm(true, n, k, p, a, ao, ars, acs, b, bo, brs, bcs, c, co, crs);
    }

    /** {@code C = A B} when {@code overwrite}, else {@code C += A B}. */
    public static void sgemm(boolean overwrite, int n, int k, int p, float[] a, int ao, int ars, int acs, float[] b, int bo, int brs,
                      int bcs, float[] c, int co, int crs) {
        if ((long) n * k * p >= Tuning.GEMM_SMALL) {
            PackedGemm.sgemm(Kernels.gemmFor(n), overwrite, n, k, p, a, ao, ars, acs, b, bo, brs, bcs, c, co, crs);
            return;
        }
        if (overwrite) {
            PackedGemm.zero(c, co, crs, n, p);
        }
        small(n, k, p, a, ao, ars, acs, b, bo, brs, bcs, c, co, crs);
    }

    /** The unpacked product for small operands: rows of C from rows of B, unit stride in the inner loop. */
    static void small(int n, int k, int p, float[] a, int ao, int ars, int acs, float[] b, int bo, int brs, int bcs,
                      float[] c, int co, int crs) {
        if (bcs != 1) {
            // Make B's rows contiguous so the inner loop runs over unit strides.
            float[] bc = new float[k * p];
            for (int kk = 0; kk < k; kk++) {
                for (int j = 0; j < p; j++) {
                    bc[kk * p + j] = b[bo + kk * brs + j * bcs];
                }
            }
            b = bc;
            bo = 0;
            brs = p;
        }
        for (int i = 0; i < n; i++) {
            int ci = co + i * crs;
            int ai = ao + i * ars;
            for (int kk = 0; kk < k; kk++) {
                float aik = a[ai + kk * acs];
                int bk = bo + kk * brs;
                for (int j = 0; j < p; j++) {
                    c[ci + j] += aik * b[bk + j];
                }
            }
        }
    }

    public static void dgemm(int n, int k, int p, double[] a, int ao, int ars, int acs, double[] b, int bo, int brs, int bcs,
                      double[] c, int co, int crs) {
        for (int i = 0; i < n; i++) {
            int ci = co + i * crs;
            int ai = ao + i * ars;
            for (int kk = 0; kk < k; kk++) {
                double aik = a[ai + kk * acs];
                int bk = bo + kk * brs;
                for (int j = 0; j < p; j++) {
                    c[ci + j] += aik * b[bk + j * bcs];
                }
            }
        }
    }
}
