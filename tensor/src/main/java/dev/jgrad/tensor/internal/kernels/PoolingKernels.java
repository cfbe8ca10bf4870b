package dev.jgrad.tensor.internal.kernels;

/**
 * Max pooling's 2x2 windows at stride 2 over float32 planes, and their gradient: the windows tile the plane (an odd
 * last row or column is left out, as floor mode does). Each maximum's position is kept as its offset from its window's
 * top-left element, a float (0, 1, w or w + 1). A value replaces the maximum when it is larger or NaN, in window order,
 * so the gradient goes where PyTorch sends it.
 */
public interface PoolingKernels {
    /**
     * Planes {@code [lo, hi)} of {@code (h, w)} floats from {@code x[xo]}: the maxima into {@code out} and their offsets
     * into {@code off}, {@code outH * outW} a plane, from the plane's index times that.
     */
    void maxPool2x2(float[] x, int xo, int h, int w, int outH, int outW, float[] out, float[] off, int lo, int hi);

    /**
     * The input's gradient of planes {@code [lo, hi)}: each window's gradient {@code g[go + ...]} written at its maximum's
     * offset, zeros elsewhere (every element of {@code gx}'s planes is written, so it need not be zeroed first).
     */
    void maxPool2x2Backward(float[] g, int go, float[] off, int offAt, float[] gx, int h, int w, int outH, int outW, int lo, int hi);
}
