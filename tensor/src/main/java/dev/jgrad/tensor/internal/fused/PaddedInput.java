package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.internal.kernels.ConvGeometry;
import dev.jgrad.tensor.internal.kernels.ConvInput;
import dev.jgrad.tensor.internal.kernels.ThreadBuffer;

import static dev.jgrad.tensor.internal.TensorAccess.floats;

/**
 * A chunk of samples' input with its padding written out as zeros, for the convolution paths that read windows
 * straight from the input (the vector pieces of {@link dev.jgrad.tensor.internal.kernels.ConvolutionKernels}): over the copy every window
 * lies inside its plane, so they need no test for the padding. The copy is the chunk's input again, small beside
 * its columns (four samples of a 32-channel 14 x 14 layer padded by 1: 33K floats, against 226K of columns).
 */
final class PaddedInput {
    private static final ThreadBuffer BUFFER = new ThreadBuffer();

    private PaddedInput() {
    }

    /**
     * Samples {@code [s0, s0 + g)} of the contiguous float32 {@code x} as the window-reading paths read them: the input
     * itself where the geometry has no padding, else {@link #chunk}'s copy with the same windows and no padding.
     */
    static ConvInput of(Tensor x, ConvGeometry geo, int s0, int g) {
        if (geo.ph() == 0 && geo.pw() == 0) {
            return new ConvInput(floats(x), x.size(1), x.size(2), x.size(3), geo, s0);
        }
        return new ConvInput(chunk(x, geo, s0, g), x.size(1), x.size(2) + 2 * geo.ph(), x.size(3) + 2 * geo.pw(), geo.unpadded(), 0);
    }

    /**
     * Samples {@code [s0, s0 + g)} of the contiguous float32 {@code x (N, C, H, W)} as {@code (g, C, H + 2 ph, W + 2 pw)},
     * zeros around each plane, in the calling thread's buffer (valid until its next call on this thread).
     */
    private static float[] chunk(Tensor x, ConvGeometry geo, int s0, int g) {
        int c = x.size(1);
        int h = x.size(2);
        int w = x.size(3);
        int hp = h + 2 * geo.ph();
        int wp = w + 2 * geo.pw();
        float[] src = floats(x);
        float[] out = BUFFER.get(g * c * hp * wp);
        java.util.Arrays.fill(out, 0, g * c * hp * wp, 0f);
        for (int plane = 0; plane < g * c; plane++) {
            int from = (s0 * c + plane) * h * w;
            int to = plane * hp * wp + geo.ph() * wp + geo.pw();
            for (int y = 0; y < h; y++) {
                System.arraycopy(src, from + y * w, out, to + y * wp, w);
            }
        }
        return out;
    }
}
