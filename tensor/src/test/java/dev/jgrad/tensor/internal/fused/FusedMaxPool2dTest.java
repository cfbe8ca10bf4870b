package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Max pooling, forward and backward, against the definition computed in float64 by scanning each window (a value
 * replaces the maximum when larger or NaN, in window order, as PyTorch picks), over random windows and planes, in
 * float32 and float64; in each of the build's executions, so the vector and plain kernels of every {@link PoolPlan}.
 */
class FusedMaxPool2dTest {
    /** Each window's maximum and the flat index in its plane it came from. */
    private static double[][] reference(double[] x, int planes, int h, int w, FusedMaxPool2d.Window win) {
        int per = win.outH() * win.outW();
        double[] values = new double[planes * per];
        double[] at = new double[planes * per];
        for (int p = 0; p < planes; p++) {
            for (int i = 0; i < win.outH(); i++) {
                for (int j = 0; j < win.outW(); j++) {
                    double max = Double.NEGATIVE_INFINITY;
                    int best = -1;
                    for (int ki = 0; ki < win.kernel()[0]; ki++) {
                        int r = i * win.stride()[0] - win.padding()[0] + ki * win.dilation()[0];
                        for (int kj = 0; kj < win.kernel()[1]; kj++) {
                            int q = j * win.stride()[1] - win.padding()[1] + kj * win.dilation()[1];
                            if (r < 0 || r >= h || q < 0 || q >= w) {
                                continue;
                            }
                            double v = x[p * h * w + r * w + q];
                            if (best < 0 || v > max || v != v) {
                                max = v;
                                best = r * w + q;
                            }
                        }
                    }
                    values[p * per + i * win.outW() + j] = max;
                    at[p * per + i * win.outW() + j] = best;
                }
            }
        }
        return new double[][] {values, at};
    }

    @Test
    void forwardAndBackwardMatchTheDefinition() {
        Random r = new Random(11);
        Generator gen = new Generator(11);
        for (int trial = 0; trial < 60; trial++) {
            boolean tiles = trial % 2 == 0;
            int k = tiles ? 2 : 1 + r.nextInt(3);
            int s = tiles ? 2 : 1 + r.nextInt(2);
            int pad = tiles ? 0 : r.nextInt(k / 2 + 1);
            int dil = tiles ? 1 : 1 + r.nextInt(2);
            int h = (k - 1) * dil + 1 + r.nextInt(trial % 4 == 0 ? 30 : 8);
            int w = (k - 1) * dil + 1 + r.nextInt(trial % 4 == 0 ? 40 : 8);
            int oh = (h + 2 * pad - (k - 1) * dil - 1) / s + 1;
            int ow = (w + 2 * pad - (k - 1) * dil - 1) / s + 1;
            FusedMaxPool2d.Window win = new FusedMaxPool2d.Window(new int[] {k, k}, new int[] {s, s}, new int[] {pad, pad},
                    new int[] {dil, dil}, oh, ow);
            DType dtype = trial % 5 == 4 ? DType.FLOAT64 : DType.FLOAT32;
            int planes = 1 + r.nextInt(6);
            Tensor x = Tensor.randn(gen, 2, planes, h, w).to(dtype);
            if (trial % 7 == 3) {
                x = x.mul(2.0).floor();
            }
            double[] xs = x.toDoubleArray();
            if (trial % 9 == 5) {
                xs[r.nextInt(xs.length)] = Double.NaN;
                x = Tensor.of(xs, 2, planes, h, w).to(dtype);
            }
            String what = "trial " + trial + " " + dtype + " k=" + k + " s=" + s + " pad=" + pad + " dil=" + dil + " " + h + "x" + w
                    + " " + PoolPlan.of(win, h, w, dtype);
            double[][] want = reference(xs, 2 * planes, h, w, win);
            FusedMaxPool2d.Pooled got = FusedMaxPool2d.maxPool2d(x, win);
            assertArrayEquals(want[0], got.values().toDoubleArray(), what + ": maxima");
            Tensor gy = Tensor.randn(gen, 2, planes, oh, ow).to(dtype);
            double[] g = gy.toDoubleArray();
            double[] dx = new double[xs.length];
            for (int o = 0; o < want[1].length; o++) {
                int plane = o / (oh * ow);
                dx[plane * h * w + (int) want[1][o]] += g[o];
            }
            Tensor gx = FusedMaxPool2d.maxPool2dBackward(gy, got.indices(), x.shape(), win);
            assertEquals(dtype, gx.dtype());
            double[] actual = gx.toDoubleArray();
            for (int i = 0; i < dx.length; i++) {
                assertEquals(dx[i], actual[i], dtype == DType.FLOAT32 ? 1e-6 * (1 + Math.abs(dx[i])) : 1e-12, what + ": gradient at " + i);
            }
        }
    }
}
