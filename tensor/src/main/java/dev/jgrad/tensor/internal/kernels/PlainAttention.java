package dev.jgrad.tensor.internal.kernels;

/** The reference {@link AttentionKernels}: one element at a time, by {@link Math#fma} in float. */
final class PlainAttention implements AttentionKernels {
    @Override
    public void rowsTimes(float[] a, int ao, int ars, int acs, int rows, int lo, int hi, float[] b, int bo, int brs, int n,
                          float[] out, int oo, int ors, boolean accumulate) {
        for (int r = 0; r < rows; r++) {
            int ar = ao + r * ars;
            int or = oo + r * ors;
            for (int j = 0; j < n; j++) {
                float s = accumulate ? out[or + j] : 0f;
                for (int t = lo; t < hi; t++) {
                    s = Math.fma(a[ar + t * acs], b[bo + t * brs + j], s);
                }
                out[or + j] = s;
            }
        }
    }
}
