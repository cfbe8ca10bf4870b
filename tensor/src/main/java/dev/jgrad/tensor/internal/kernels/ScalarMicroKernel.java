package dev.jgrad.tensor.internal.kernels;

/**
 * The plain-Java micro-kernel, the fallback where the Vector API is not available, and the reference the
 * vector kernel is tested against. A 4 x 8 tile, accumulated in a per-thread buffer so that a
 * product makes no garbage per tile.
 */
final class ScalarMicroKernel implements MicroKernel {
    static final int MR = 4;
    static final int NR = 8;
    private static final ThreadLocal<float[]> ACC = ThreadLocal.withInitial(() -> new float[MR * NR]);

    @Override
    public int mr() {
        return MR;
    }

    @Override
    public int nr() {
        return NR;
    }

    @Override
    public void run(int kc, float[] ap, int ao, float[] bp, int bo, int bk, float[] c, int co, int crs, int rows, int cols, boolean overwrite) {
        float[] acc = ACC.get();
        java.util.Arrays.fill(acc, 0f);
        for (int k = 0; k < kc; k++) {
            int a = ao + k * MR;
            int b = bo + k * bk;
            for (int r = 0; r < rows; r++) {
                float av = ap[a + r];
                int base = r * NR;
                for (int j = 0; j < cols; j++) {
                    acc[base + j] += av * bp[b + j];
                }
            }
        }
        for (int r = 0; r < rows; r++) {
            int row = co + r * crs;
            for (int j = 0; j < cols; j++) {
                c[row + j] = overwrite ? acc[r * NR + j] : c[row + j] + acc[r * NR + j];
            }
        }
    }

    @Override
    public void dots(int kc, float[] a, int ao, int ars, int rows, float[] b, int bo, int bcs, int cols, float[] c, int co, int crs) {
        for (int r = 0; r < rows; r++) {
            for (int q = 0; q < cols; q++) {
                int ar = ao + r * ars;
                int bq = bo + q * bcs;
                float s = 0f;
                for (int k = 0; k < kc; k++) {
                    s += a[ar + k] * b[bq + k];
                }
                c[co + r * crs + q] += s;
            }
        }
    }
}
