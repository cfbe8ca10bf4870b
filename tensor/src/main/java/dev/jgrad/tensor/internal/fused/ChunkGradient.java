package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.internal.kernels.Kernels;

import static dev.jgrad.tensor.internal.TensorAccess.floats;
import static dev.jgrad.tensor.internal.TensorAccess.offset;

/**
 * A chunk of samples' output gradient laid out as a convolution's backward products read it, {@code (OC, G P)}, with
 * each channel's sum for the bias's gradient taken on the way. The gradient may have any strides: a dense one is
 * copied a row at a time, and a broadcast one ({@code y.sum().backward()} hands the convolution ones expanded to
 * its output's shape) is filled from its one value per row, not copied whole into a dense tensor first.
 */
final class ChunkGradient {
    private ChunkGradient() {
    }

    /**
     * Writes samples {@code [s0, s0 + g)} of the float32 {@code grad (N, OC, OH, OW)} into {@code gy} as {@code (OC, G P)}
     * and, where {@code sums} is not null, adds each channel's sum into {@code sums[at + c]}.
     */
    static void gather(Tensor grad, int s0, int g, float[] gy, double[] sums, int at) {
        int oc = grad.size(1);
        int ow = grad.size(3);
        int p = grad.size(2) * ow;
        int gp = g * p;
        float[] src = floats(grad);
        int[] st = grad.strides();
        boolean rows = st[3] == 1 && st[2] == ow;
        boolean constant = st[2] == 0 && st[3] == 0;
        for (int s = 0; s < g; s++) {
            for (int c = 0; c < oc; c++) {
                int from = offset(grad) + (s0 + s) * st[0] + c * st[1];
                int to = c * gp + s * p;
                double sum;
                if (rows) {
                    sum = Kernels.REDUCTIONS.copySum(src, from, gy, to, p);
                } else if (constant) {
                    java.util.Arrays.fill(gy, to, to + p, src[from]);
                    sum = (double) src[from] * p;
                } else {
                    sum = 0;
                    for (int i = 0, d = to; i < grad.size(2); i++) {
                        for (int j = 0; j < ow; j++, d++) {
                            gy[d] = src[from + i * st[2] + j * st[3]];
                            sum += gy[d];
                        }
                    }
                }
                if (sums != null) {
                    sums[at + c] += sum;
                }
            }
        }
    }
}
