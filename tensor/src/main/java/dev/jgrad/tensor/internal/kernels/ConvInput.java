package dev.jgrad.tensor.internal.kernels;

/**
 * What a window-reading convolution piece reads for a chunk of samples: the contiguous float32 input
 * {@code x (N, C, H, W)} whose samples start at {@code s0}, and the geometry over it, which has no padding (a padded
 * input is handed over with its padding written out).
 */
public record ConvInput(float[] x, int c, int h, int w, ConvGeometry geo, int s0) {
}
