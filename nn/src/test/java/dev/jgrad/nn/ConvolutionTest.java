package dev.jgrad.nn;

import dev.jgrad.autograd.GradCheck;
import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Convolution against a direct loop over random geometries, gradients against central differences. */
class ConvolutionTest {
    /** The definition: y[n, o, i, j] = b[o] + sum over the group's channels and the kernel of x_padded * w. */
    static double[] naiveConv2d(Tensor x, Tensor w, Tensor b, int[] s, int[] p, int[] d, int groups, int[] outShape) {
        int n = x.size(0), c = x.size(1), h = x.size(2), wd = x.size(3);
        int oc = w.size(0), cg = w.size(1), kh = w.size(2), kw = w.size(3);
        int oh = outShape[2], ow = outShape[3];
        double[] y = new double[n * oc * oh * ow];
        int ocg = oc / groups;
        for (int a = 0; a < n; a++) {
            for (int o = 0; o < oc; o++) {
                int g = o / ocg;
                for (int i = 0; i < oh; i++) {
                    for (int j = 0; j < ow; j++) {
                        double acc = b == null ? 0 : b.getDouble(o);
                        for (int ci = 0; ci < cg; ci++) {
                            for (int u = 0; u < kh; u++) {
                                for (int v = 0; v < kw; v++) {
                                    int r = i * s[0] - p[0] + u * d[0];
                                    int q = j * s[1] - p[1] + v * d[1];
                                    if (r >= 0 && r < h && q >= 0 && q < wd) {
                                        acc += x.getDouble(a, g * cg + ci, r, q) * w.getDouble(o, ci, u, v);
                                    }
                                }
                            }
                        }
                        y[((a * oc + o) * oh + i) * ow + j] = acc;
                    }
                }
            }
        }
        return y;
    }

    @Test
    void conv2dMatchesTheDefinitionOverRandomGeometries() {
        Generator gen = new Generator(7);
        for (int trial = 0; trial < 40; trial++) {
            int groups = 1 + gen.nextInt(3);
            int cg = 1 + gen.nextInt(3);
            int ocg = 1 + gen.nextInt(3);
            int[] k = {1 + gen.nextInt(3), 1 + gen.nextInt(4)};
            int[] s = {1 + gen.nextInt(3), 1 + gen.nextInt(2)};
            int[] d = {1 + gen.nextInt(2), 1 + gen.nextInt(3)};
            int[] p = {gen.nextInt(3), gen.nextInt(2)};
            int h = d[0] * (k[0] - 1) + 1 + gen.nextInt(5);
            int w = d[1] * (k[1] - 1) + 1 + gen.nextInt(6);
            int n = 1 + gen.nextInt(3);
            Tensor x = Tensor.randn(gen, n, groups * cg, h, w).to(DType.FLOAT64);
            Tensor wt = Tensor.randn(gen, groups * ocg, cg, k[0], k[1]).to(DType.FLOAT64);
            Tensor b = trial % 2 == 0 ? Tensor.randn(gen, groups * ocg).to(DType.FLOAT64) : null;
            Variable y = Convolution.conv2d(Variable.of(x), Variable.of(wt), b == null ? null : Variable.of(b), s, p, d, groups);
            int oh = (h + 2 * p[0] - d[0] * (k[0] - 1) - 1) / s[0] + 1;
            int ow = (w + 2 * p[1] - d[1] * (k[1] - 1) - 1) / s[1] + 1;
            int[] shape = {n, groups * ocg, oh, ow};
            assertArrayEquals(shape, y.shape(), "trial " + trial);
            double[] want = naiveConv2d(x, wt, b, s, p, d, groups, shape);
            assertArrayEquals(want, y.data().contiguous().toDoubleArray(), 1e-10, "trial " + trial);
        }
    }

    /**
     * Float32 with groups 1 runs the fused convolution, float64 the composite of pad, unfold and matmul: the
     * outputs and the gradients of input, weight and bias must agree over random geometries, in 1-d and 2-d.
     */
    @Test
    void theFusedFloat32ConvolutionAgreesWithTheComposite() {
        Generator gen = new Generator(17);
        for (int trial = 0; trial < 60; trial++) {
            boolean twoD = trial % 3 != 0;
            // Every fourth trial has more than FusedConv2d.PER_SAMPLE_MAX_K columns per position: a product per chunk of samples.
            boolean wide = trial % 4 == 1;
            int c = wide ? 8 + gen.nextInt(5) : 1 + gen.nextInt(4);
            int oc = 1 + gen.nextInt(5);
            int[] k = {twoD ? (wide ? 3 : 1 + gen.nextInt(3)) : 1, wide ? 3 + gen.nextInt(2) : 1 + gen.nextInt(4)};
            int[] s = {twoD ? 1 + gen.nextInt(3) : 1, 1 + gen.nextInt(2)};
            int[] d = {twoD ? 1 + gen.nextInt(2) : 1, 1 + gen.nextInt(3)};
            int[] p = {twoD ? gen.nextInt(4) : 0, gen.nextInt(5)};
            int h = d[0] * (k[0] - 1) + 1 + gen.nextInt(5);
            int w = d[1] * (k[1] - 1) + 1 + gen.nextInt(6);
            int n = 1 + gen.nextInt(3);
            boolean bias = trial % 5 < 3;
            Tensor x = twoD ? Tensor.randn(gen, n, c, h, w) : Tensor.randn(gen, n, c, w);
            Tensor wt = twoD ? Tensor.randn(gen, oc, c, k[0], k[1]) : Tensor.randn(gen, oc, c, k[1]);
            Tensor b = Tensor.randn(gen, oc);
            String label = "trial " + trial + (twoD ? " 2-d" : " 1-d") + (bias ? " with bias" : "");
            assertFusedMatchesComposite(gen, x, trial % 7 != 3, wt, bias ? b : null, s, p, d, twoD, label);
        }
    }

    /**
     * Batches past one chunk of columns (FusedConv2d.CHUNK_FLOATS, 128K or 256K floats by the machine): chunks of one
     * or two samples with the weight's gradient summed in one part per chunk, and chunks of unequal sizes.
     */
    @Test
    void theFusedConvolutionAgreesWithTheCompositeOverBatchesOfManyChunks() {
        Generator gen = new Generator(23);
        int[] one = {1, 1};
        // 144 columns x 784 positions per sample (113K floats): one or two samples a chunk, 20 or 10 chunks.
        assertFusedMatchesComposite(gen, Tensor.randn(gen, 20, 16, 30, 30), true, Tensor.randn(gen, 5, 16, 3, 3), Tensor.randn(gen, 5),
                one, one, one, true, "20 samples of 113K column floats");
        // 72 columns x 676 positions per sample (padding 2 and 1, 49K floats): 11 samples in chunks of 1-2 or 3-4.
        assertFusedMatchesComposite(gen, Tensor.randn(gen, 11, 8, 24, 26), true, Tensor.randn(gen, 3, 8, 3, 3), null,
                one, new int[] {2, 1}, one, true, "11 samples in unequal chunks");
        // Input rows no wider than a vector (13 and 14 wide): col2im writes each input row once, from shifted column rows.
        assertFusedMatchesComposite(gen, Tensor.randn(gen, 17, 32, 13, 13), true, Tensor.randn(gen, 7, 32, 3, 3), Tensor.randn(gen, 7),
                one, new int[] {0, 0}, one, true, "13-wide rows, 17 samples");
        assertFusedMatchesComposite(gen, Tensor.randn(gen, 9, 32, 14, 14), true, Tensor.randn(gen, 5, 32, 3, 3), null,
                one, one, one, true, "14-wide rows padded by 1, 9 samples");
        assertFusedMatchesComposite(gen, Tensor.randn(gen, 5, 40, 9, 7), true, Tensor.randn(gen, 4, 40, 2, 3), null,
                one, new int[] {1, 3}, new int[] {3, 2}, true, "7-wide rows, dilated and padded unevenly");
        // 3 x 3 windows over more than PER_SAMPLE_MAX_K columns, unpadded: the weight's gradient read from the input in place,
        // in tiles of 32 output channels (one whole tile and a part of one), with and without an input gradient.
        assertFusedMatchesComposite(gen, Tensor.randn(gen, 6, 16, 10, 12), true, Tensor.randn(gen, 40, 16, 3, 3), Tensor.randn(gen, 40),
                one, new int[] {0, 0}, one, true, "3 x 3 windows, 40 output channels");
        assertFusedMatchesComposite(gen, Tensor.randn(gen, 5, 8, 9, 11), false, Tensor.randn(gen, 32, 8, 3, 3), Tensor.randn(gen, 32),
                one, new int[] {0, 0}, one, true, "3 x 3 windows, no input gradient");
        // A first layer (no input gradient): the weight's and bias's gradients per sample, in chunks of 16-37 samples.
        assertFusedMatchesComposite(gen, Tensor.randn(gen, 64, 1, 28, 28), false, Tensor.randn(gen, 6, 1, 3, 3), Tensor.randn(gen, 6),
                one, one, one, true, "first layer, 64 samples");
    }

    /**
     * The output's gradient as autograd hands it over, not only dense: {@code sum()} gives ones expanded (stride 0), a
     * transpose's backward a transposed view. Each chunk reads it through its strides; the float64 composite is the reference.
     */
    @Test
    void outputGradientsWithAnyStridesGiveTheSameGradients() {
        Generator gen = new Generator(29);
        Tensor x = Tensor.randn(gen, 9, 12, 10, 10);
        Tensor wt = Tensor.randn(gen, 20, 12, 3, 3);
        Tensor b = Tensor.randn(gen, 20);
        Tensor weights = Tensor.randn(gen, 9, 20, 8, 8);
        int[] one = {1, 1};
        int[] zero = {0, 0};
        assertFusedMatchesComposite(x, true, wt, b, one, zero, one, true, "sum()", Variable::sum);
        assertFusedMatchesComposite(x, true, wt, b, one, zero, one, true, "transposed",
                y -> y.transpose(2, 3).mul(Variable.of(weights.to(y.data().dtype()))).sum());
    }

    /**
     * Float32 (the fused op) and float64 (the composite) give the same output and gradients of x (if {@code xGrad}),
     * w and b (b null: none).
     */
    private static void assertFusedMatchesComposite(Generator gen, Tensor x, boolean xGrad, Tensor wt, Tensor b, int[] s, int[] p, int[] d, boolean twoD,
                                                    String label) {
        Tensor[] weights = new Tensor[1];
        assertFusedMatchesComposite(x, xGrad, wt, b, s, p, d, twoD, label, y -> {
            if (weights[0] == null) {
                weights[0] = Tensor.randn(gen, y.shape());
            }
            return y.mul(Variable.of(weights[0].to(y.data().dtype()))).sum();
        });
    }

    /** As above, with the loss whose gradient the convolution's output gets made by {@code loss} from the output. */
    private static void assertFusedMatchesComposite(Tensor x, boolean xGrad, Tensor wt, Tensor b, int[] s, int[] p, int[] d, boolean twoD,
                                                    String label, java.util.function.UnaryOperator<Variable> loss) {
        boolean bias = b != null;
        Tensor bb = bias ? b : Tensor.zeros(wt.size(0));
        Variable[][] runs = new Variable[2][];
        Variable[] ys = new Variable[2];
        for (int r = 0; r < 2; r++) {
            DType dt = r == 0 ? DType.FLOAT32 : DType.FLOAT64;
            Variable[] v = {Variable.of(x.to(dt), xGrad), Variable.of(wt.to(dt), true), Variable.of(bb.to(dt), true)};
            Variable y = twoD ? Convolution.conv2d(v[0], v[1], bias ? v[2] : null, s, p, d, 1)
                    : Convolution.conv1d(v[0], v[1], bias ? v[2] : null, s[1], p[1], d[1], 1);
            loss.apply(y).backward();
            runs[r] = v;
            ys[r] = y;
        }
        assertArrayEquals(ys[1].shape(), ys[0].shape(), label);
        assertArrayEquals(ys[1].data().toDoubleArray(), ys[0].data().toDoubleArray(), 1e-4, label);
        if (!xGrad) {
            assertNull(runs[0][0].grad(), label);
        }
        for (int i = xGrad ? 0 : 1; i < (bias ? 3 : 2); i++) {
            assertArrayEquals(runs[1][i].grad().toDoubleArray(), runs[0][i].grad().toDoubleArray(), 2e-4 * Math.max(1, Math.sqrt(x.size(0))),
                    label + ": gradient " + i);
        }
        if (!bias) {
            assertNull(runs[0][2].grad(), label);
        }
    }

    @Test
    void anEmptyBatchGivesAnEmptyOutputAndGradients() {
        Variable x = Variable.of(Tensor.zeros(0, 2, 5, 5), true);
        Variable w = Variable.of(Tensor.ones(3, 2, 3, 3), true);
        Variable y = Convolution.conv2d(x, w, null, new int[] {1, 1}, new int[] {0, 0}, new int[] {1, 1}, 1);
        assertArrayEquals(new int[] {0, 3, 3, 3}, y.shape());
        y.sum().backward();
        assertArrayEquals(new int[] {0, 2, 5, 5}, x.grad().shape());
        assertEquals(0.0, w.grad().abs().sum().item(), 0.0);
    }

    @Test
    void conv2dGradientsMatchCentralDifferences() {
        Generator gen = new Generator(3);
        Tensor x = Tensor.randn(gen, 2, 4, 5, 6);
        Tensor w = Tensor.randn(gen, 6, 2, 3, 2);
        Tensor b = Tensor.randn(gen, 6);
        GradCheck.Result r = GradCheck.check(v -> Convolution.conv2d(v[0], v[1], v[2], new int[] {2, 1}, new int[] {1, 0},
                new int[] {1, 2}, 2), x, w, b);
        assertTrue(r.passed(), r.toString());
    }

    @Test
    void conv1dGradientsMatchCentralDifferencesAndUnbatchedInputWorks() {
        Generator gen = new Generator(4);
        Tensor x = Tensor.randn(gen, 3, 4, 11);
        Tensor w = Tensor.randn(gen, 5, 4, 3);
        GradCheck.Result r = GradCheck.check(v -> Convolution.conv1d(v[0], v[1], null, 2, 1, 2, 1), x, w);
        assertTrue(r.passed(), r.toString());
        Variable batched = Convolution.conv1d(Variable.of(x), Variable.of(w), null, 1, 0, 1, 1);
        Variable single = Convolution.conv1d(Variable.of(x.select(0, 1)), Variable.of(w), null, 1, 0, 1, 1);
        assertArrayEquals(batched.data().select(0, 1).contiguous().toDoubleArray(), single.data().contiguous().toDoubleArray(), 1e-6);
    }

    @Test
    void badShapesGetPyTorchsMessages() {
        Variable x = Variable.of(Tensor.zeros(2, 3, 5, 5));
        ShapeException channels = assertThrows(ShapeException.class,
                () -> Convolution.conv2d(x, Variable.of(Tensor.zeros(4, 2, 3, 3)), null, new int[] {1, 1}, new int[] {0, 0}, new int[] {1, 1}, 1));
        assertTrue(channels.getMessage().contains("expected input[2, 3, 5, 5] to have 2 channels, but got 3 channels instead"),
                channels.getMessage());
        ShapeException big = assertThrows(ShapeException.class,
                () -> Convolution.conv2d(x, Variable.of(Tensor.zeros(4, 3, 6, 2)), null, new int[] {1, 1}, new int[] {0, 0}, new int[] {1, 1}, 1));
        assertTrue(big.getMessage().contains("Kernel size: (6 x 2)"), big.getMessage());
        assertThrows(ShapeException.class, () -> new Conv2d(3, 4, 3).forward(Variable.of(Tensor.zeros(2, 5, 5))));
        IllegalArgumentException stride = assertThrows(IllegalArgumentException.class, () -> new Conv2d(3, 4, 3, 0, 0));
        assertTrue(stride.getMessage().contains("stride"), stride.getMessage());
    }

    @Test
    void conv2dModuleHasPyTorchsNamesShapesAndInitBound() {
        Conv2d conv = new Conv2d(3, 8, new int[] {3, 5}, new int[] {1, 1}, new int[] {1, 2}, new int[] {1, 1}, 1, true, new Generator(1));
        assertEquals(java.util.List.of("weight", "bias"), java.util.List.copyOf(conv.stateDict().keySet()));
        assertArrayEquals(new int[] {8, 3, 3, 5}, conv.weight.shape());
        double bound = 1 / Math.sqrt(3 * 3 * 5);
        assertTrue(conv.weight.data().abs().amax().item() <= bound);
        assertTrue(conv.weight.data().abs().amax().item() > 0.8 * bound);
        assertArrayEquals(new int[] {2, 8, 7, 9}, conv.forward(Variable.of(Tensor.zeros(2, 3, 7, 9))).shape());
    }
}
