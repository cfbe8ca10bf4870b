package dev.jgrad.tensor;

/**
 * Dense matrix products {@code C = A B} on strided operands, C row-major with row stride {@code crs}
 * and zero on entry. A is (n, k) with row/column strides (ars, acs), B is (k, p) with (brs, bcs).
 */
final class Gemm {
    private Gemm() {
    }

    static void sgemm(int n, int k, int p, float[] a, int ao, int ars, int acs, float[] b, int bo, int brs, int bcs,
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
        float[] bb = b;
        int bOff = bo;
        int bRow = brs;
        // Rows of C are independent: split them across threads when the product is large enough to pay.
        int grain = Math.max(1, (1 << 16) / Math.max(1, k * p));
        Parallel.forRange(n, grain, (lo, hi) -> {
            for (int i = lo; i < hi; i++) {
                int ci = co + i * crs;
                int ai = ao + i * ars;
                for (int kk = 0; kk < k; kk++) {
                    float aik = a[ai + kk * acs];
                    int bk = bOff + kk * bRow;
                    for (int j = 0; j < p; j++) {
                        c[ci + j] += aik * bb[bk + j];
                    }
                }
            }
        });
    }

    static void dgemm(int n, int k, int p, double[] a, int ao, int ars, int acs, double[] b, int bo, int brs, int bcs,
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
