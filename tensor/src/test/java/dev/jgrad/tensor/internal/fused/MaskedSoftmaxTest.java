package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Attention's fused masked softmax, forward and backward, against the definition in float64 (scale, masked positions
 * at -inf, softmax; a row with every position masked gives zeros), with padding masks that broadcast, causal masks,
 * both and neither, over rows shorter and longer than a vector.
 */
class MaskedSoftmaxTest {
    @Test
    void forwardAndBackwardMatchTheDefinition() {
        Random r = new Random(5);
        Generator gen = new Generator(5);
        for (int trial = 0; trial < 24; trial++) {
            int b = 1 + r.nextInt(3);
            int heads = 1 + r.nextInt(3);
            int t = 1 + r.nextInt(trial % 3 == 0 ? 40 : 9);
            int keys = trial % 2 == 0 ? t : 1 + r.nextInt(37);
            boolean causal = trial % 4 < 2 && keys == t;
            double scale = 0.125 + r.nextDouble();
            Tensor x = Tensor.randn(gen, b, heads, t, keys);
            Tensor mask = trial % 3 == 2 ? null : Tensor.rand(gen, b, 1, 1, keys).gt(0.7);
            Tensor y = MaskedSoftmax.forward(x, mask, causal, scale);
            double[] xs = x.toDoubleArray();
            boolean[] ms = mask == null ? null : mask.toBooleanArray();
            double[] want = new double[xs.length];
            for (int row = 0; row < xs.length / keys; row++) {
                int query = row % t;
                int batch = row / (heads * t);
                double max = Double.NEGATIVE_INFINITY;
                for (int j = 0; j < keys; j++) {
                    if (!masked(ms, batch, keys, j, causal, query)) {
                        max = Math.max(max, xs[row * keys + j] * scale);
                    }
                }
                double sum = 0;
                for (int j = 0; j < keys; j++) {
                    sum += masked(ms, batch, keys, j, causal, query) ? 0 : Math.exp(xs[row * keys + j] * scale - max);
                }
                for (int j = 0; j < keys; j++) {
                    want[row * keys + j] = sum == 0 || masked(ms, batch, keys, j, causal, query) ? 0
                            : Math.exp(xs[row * keys + j] * scale - max) / sum;
                }
            }
            String what = "trial " + trial + " t=" + t + " keys=" + keys + " causal=" + causal + " mask=" + (mask != null);
            double[] got = y.toDoubleArray();
            for (int i = 0; i < want.length; i++) {
                assertEquals(want[i], got[i], 2e-6, what + ": weight " + i);
            }
            Tensor g = Tensor.randn(gen, b, heads, t, keys);
            double[] gs = g.toDoubleArray();
            double[] dx = MaskedSoftmax.backward(g, y, scale).toDoubleArray();
            for (int row = 0; row < xs.length / keys; row++) {
                double dot = 0;
                for (int j = 0; j < keys; j++) {
                    dot += gs[row * keys + j] * want[row * keys + j];
                }
                for (int j = 0; j < keys; j++) {
                    double expected = scale * want[row * keys + j] * (gs[row * keys + j] - dot);
                    assertEquals(expected, dx[row * keys + j], 2e-5 * (1 + Math.abs(expected)), what + ": gradient " + row + "," + j);
                }
            }
        }
    }

    private static boolean masked(boolean[] ms, int batch, int keys, int j, boolean causal, int query) {
        return (ms != null && ms[batch * keys + j]) || (causal && j > query);
    }
}
