package dev.jgrad.tensor.internal.kernels;

/** Softmax over rows of float32 elements, and the pieces of it that a caller runs on threads of its own. */
public interface SoftmaxKernels {
    /** Softmax (or log-softmax) of one row of n elements, each operand with its own stride. */
    void row(float[] a, int ao, int as, float[] o, int oo, int os, int n, boolean log);

    /** The largest of n contiguous elements (NaN if any is NaN). */
    float max(float[] a, int off, int n);

    /** {@code o[i] = e^(a[i] - m) * factor} over n contiguous elements, and the sum of the powers. */
    double expShifted(float[] a, int ao, float[] o, int oo, int n, float m, double factor);

    /**
     * A row of softmax over a dim that is not the last, n columns side by side: {@code o[i] = e^(a[i] - max[i])}, each
     * power added into {@code sum[i]} in double. The powers are {@link #expShifted}'s.
     */
    void expShiftedColumns(float[] a, int ao, float[] max, float[] o, int oo, double[] sum, int n);

    /** {@code o[i] = a[i] + c} over n contiguous elements. */
    void addScalar(float[] a, int ao, float[] o, int oo, int n, double c);

    /**
     * Attention's scores before their softmax: {@code o[j] = a[j] * sc}, or -inf where {@code m[mo + j ms]} (m null: no
     * mask) or {@code j >= seen} (the causal mask's positions past the query's own). Whether any position is left.
     */
    boolean maskedScale(float[] a, int ao, boolean[] m, int mo, int ms, int seen, float sc, float[] o, int oo, int n);

    /**
     * Attention's causal softmax of one row of n contiguous scores, in place: {@link #maskedScale} without a mask, then
     * {@link #row}, with the same result (a kernel may do both in one pass over a short row).
     */
    default void causalRow(float[] a, int ao, int seen, float sc, int n) {
        maskedScale(a, ao, null, 0, 0, seen, sc, a, ao, n);
        row(a, ao, 1, a, ao, 1, n, false);
    }

    /** The gradient of a softmax row's input from its output y and the output's gradient g: {@code d = sc y (g - sum(g y))}. */
    void gradient(float[] g, int go, float[] y, int yo, float sc, float[] d, int dOff, int n);
}
