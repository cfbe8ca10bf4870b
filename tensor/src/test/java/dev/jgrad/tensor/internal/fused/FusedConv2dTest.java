package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.internal.kernels.ConvGeometry;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The fused float32 convolution, forward and every combination of gradients, against the definition computed in
 * float64 by direct loops, over random geometries (kernel, stride, padding and dilation per axis, batches of one chunk
 * and of many). It runs in each of the build's executions, so every {@link ConvPlan} path meets the reference: vector
 * ones at 512 and 256 bits, plain ones with {@code -Djgrad.vector=false}. (nn's ConvolutionTest holds the layer to its
 * differentiable composite.)
 */
class FusedConv2dTest {
    private static final double TOLERANCE = 2e-4;

    /** The output, and the gradients of input, weight and bias for the output gradient g, by the definition, in float64. */
    private static double[][] reference(double[] x, int n, int c, int h, int w, double[] wt, int oc, double[] b, ConvGeometry g,
                                        double[] gy) {
        double[] y = new double[n * oc * g.oh() * g.ow()];
        double[] dx = new double[x.length];
        double[] dw = new double[wt.length];
        double[] db = new double[oc];
        for (int s = 0; s < n; s++) {
            for (int o = 0; o < oc; o++) {
                for (int i = 0; i < g.oh(); i++) {
                    for (int j = 0; j < g.ow(); j++) {
                        int yo = ((s * oc + o) * g.oh() + i) * g.ow() + j;
                        double sum = b == null ? 0 : b[o];
                        for (int ch = 0; ch < c; ch++) {
                            for (int ki = 0; ki < g.kh(); ki++) {
                                int r = i * g.sh() - g.ph() + ki * g.dh();
                                for (int kj = 0; kj < g.kw(); kj++) {
                                    int q = j * g.sw() - g.pw() + kj * g.dw();
                                    if (r < 0 || r >= h || q < 0 || q >= w) {
                                        continue;
                                    }
                                    int xi = ((s * c + ch) * h + r) * w + q;
                                    int wi = ((o * c + ch) * g.kh() + ki) * g.kw() + kj;
                                    sum += wt[wi] * x[xi];
                                    dw[wi] += gy[yo] * x[xi];
                                    dx[xi] += gy[yo] * wt[wi];
                                }
                            }
                        }
                        y[yo] = sum;
                        db[o] += gy[yo];
                    }
                }
            }
        }
        return new double[][] {y, dx, dw, db};
    }

    private static void assertClose(double[] expected, Tensor actual, String what) {
        double[] a = actual.toDoubleArray();
        assertEquals(expected.length, a.length, what);
        double scale = 1;
        for (double e : expected) {
            scale = Math.max(scale, Math.abs(e));
        }
        for (int i = 0; i < a.length; i++) {
            assertEquals(expected[i], a[i], TOLERANCE * scale, what + " at " + i);
        }
    }

    @Test
    void everyPathMatchesTheDefinitionOverRandomGeometries() {
        Random r = new Random(7);
        Generator gen = new Generator(7);
        for (int trial = 0; trial < 40; trial++) {
            int kh = 1 + r.nextInt(3);
            int kw = 1 + r.nextInt(3);
            int sh = 1 + r.nextInt(2);
            int sw = trial % 3 == 0 ? 1 : 1 + r.nextInt(2);
            int ph = r.nextInt(3);
            int pw = r.nextInt(3);
            int dh = 1 + r.nextInt(2);
            int dw = 1 + r.nextInt(2);
            int h = (kh - 1) * dh + 1 + r.nextInt(12);
            int w = (kw - 1) * dw + 1 + r.nextInt(14);
            if (trial % 4 == 1) {
                kh = 3;
                kw = 3;
                sh = 1;
                sw = 1;
                dh = 1;
                dw = 1;
                h = 5 + r.nextInt(10);
                w = 5 + r.nextInt(12);
            }
            int c = 1 + r.nextInt(trial % 5 == 2 ? 12 : 4);
            int oc = 1 + r.nextInt(trial % 3 == 1 ? 40 : 6);
            int n = 1 + r.nextInt(trial % 6 == 0 ? 40 : 5);
            int oh = (h + 2 * ph - (kh - 1) * dh - 1) / sh + 1;
            int ow = (w + 2 * pw - (kw - 1) * dw - 1) / sw + 1;
            ConvGeometry g = new ConvGeometry(kh, kw, sh, sw, ph, pw, dh, dw, oh, ow);
            Tensor x = Tensor.randn(gen, n, c, h, w);
            Tensor wt = Tensor.randn(gen, oc, c, kh, kw);
            Tensor b = trial % 2 == 0 ? Tensor.randn(gen, oc) : null;
            Tensor gy = Tensor.randn(gen, n, oc, oh, ow);
            double[][] want = reference(x.toDoubleArray(), n, c, h, w, wt.toDoubleArray(), oc, b == null ? null : b.toDoubleArray(), g,
                    gy.toDoubleArray());
            String what = "trial " + trial + " " + g + " n=" + n + " c=" + c + " oc=" + oc + " " + ConvPlan.backward(g, n, c, oc, w,
                    new boolean[] {true, true, true});
            assertClose(want[0], FusedConv2d.conv2d(x, wt, b, g), what + ": output");
            for (int needs = 1; needs < 8; needs++) {
                boolean[] asked = {(needs & 1) != 0, (needs & 2) != 0, (needs & 4) != 0};
                FusedConv2d.ConvGradients d = FusedConv2d.conv2dBackward(gy, x, wt, g, asked);
                if (asked[0]) {
                    assertClose(want[1], d.input(), what + ": input gradient");
                }
                if (asked[1]) {
                    assertClose(want[2], d.weight(), what + ": weight gradient");
                }
                if (asked[2]) {
                    assertClose(want[3], d.bias(), what + ": bias gradient");
                }
                assertEquals(asked[0], d.input() != null);
                assertEquals(asked[1], d.weight() != null);
                assertEquals(asked[2], d.bias() != null);
            }
        }
    }

    /** An output gradient that is a strided view (a transpose, an expanded ones) is read through its strides. */
    @Test
    void stridedOutputGradientsAreReadThroughTheirStrides() {
        Generator gen = new Generator(3);
        ConvGeometry g = new ConvGeometry(3, 3, 1, 1, 1, 1, 1, 1, 9, 11);
        Tensor x = Tensor.randn(gen, 6, 5, 9, 11);
        Tensor wt = Tensor.randn(gen, 7, 5, 3, 3);
        Tensor ones = Tensor.ones(1).expand(6, 7, 9, 11);
        Tensor swapped = Tensor.randn(gen, 7, 6, 9, 11).transpose(0, 1);
        for (Tensor gy : new Tensor[] {ones, swapped}) {
            double[][] want = reference(x.toDoubleArray(), 6, 5, 9, 11, wt.toDoubleArray(), 7, null, g, gy.contiguous().toDoubleArray());
            FusedConv2d.ConvGradients d = FusedConv2d.conv2dBackward(gy, x, wt, g, new boolean[] {true, true, true});
            assertClose(want[1], d.input(), "input gradient");
            assertClose(want[2], d.weight(), "weight gradient");
            assertClose(want[3], d.bias(), "bias gradient");
        }
        assertEquals(DType.FLOAT32, FusedConv2d.conv2d(x, wt, null, g).dtype());
    }
}
