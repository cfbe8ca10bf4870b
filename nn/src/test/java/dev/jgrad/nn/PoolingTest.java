package dev.jgrad.nn;

import dev.jgrad.autograd.GradCheck;
import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Memory;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pooling against direct loops, gradients against central differences, ties and ceil mode as in PyTorch. */
class PoolingTest {
    @Test
    void maxPool2dMatchesTheDefinitionOverRandomGeometries() {
        Generator gen = new Generator(11);
        for (int trial = 0; trial < 40; trial++) {
            int[] k = {1 + gen.nextInt(3), 2 + gen.nextInt(2)};
            int[] s = {1 + gen.nextInt(3), 1 + gen.nextInt(2)};
            int[] p = {gen.nextInt(k[0] / 2 + 1), gen.nextInt(k[1] / 2 + 1)};
            boolean ceil = gen.nextInt(2) == 0;
            int h = k[0] + gen.nextInt(5);
            int w = k[1] + gen.nextInt(6);
            Tensor x = Tensor.randn(gen, 2, 3, h, w).to(DType.FLOAT64);
            Variable y = Pooling.maxPool2d(Variable.of(x), k, s, p, new int[] {1, 1}, ceil);
            int[] out = {outSize(h, k[0], s[0], p[0], ceil), outSize(w, k[1], s[1], p[1], ceil)};
            assertArrayEquals(new int[] {2, 3, out[0], out[1]}, y.shape(), "trial " + trial);
            for (int c = 0; c < 3; c++) {
                for (int i = 0; i < out[0]; i++) {
                    for (int j = 0; j < out[1]; j++) {
                        double m = Double.NEGATIVE_INFINITY;
                        for (int u = 0; u < k[0]; u++) {
                            for (int v = 0; v < k[1]; v++) {
                                int r = i * s[0] - p[0] + u;
                                int q = j * s[1] - p[1] + v;
                                if (r >= 0 && r < h && q >= 0 && q < w) {
                                    m = Math.max(m, x.getDouble(1, c, r, q));
                                }
                            }
                        }
                        assertEquals(m, y.data().getDouble(1, c, i, j), 0, "trial " + trial);
                    }
                }
            }
        }
    }

    /** PyTorch's pooling output size: the last window must start inside the input or left padding. */
    static int outSize(int size, int k, int s, int p, boolean ceil) {
        int room = size + 2 * p - k;
        int o = (ceil ? (room + s - 1) / s : room / s) + 1;
        if (ceil && (o - 1) * s >= size + p) {
            o--;
        }
        return o;
    }

    /** Float32 2x2/2 windows take a fast path (vector lanes where the Vector API is present); float64 the general one: both must pick the same elements. */
    @Test
    void theTwoByTwoFastPathPicksWhatTheGeneralKernelPicksWithTiesNaNAndCeilMode() {
        Generator gen = new Generator(3);
        for (boolean ceil : new boolean[] {false, true}) {
            // Planes whose windows fill several vectors and end in a partial one (26 x 26: 169 windows), and small ones.
            for (int[] hw : new int[][] {{6, 8}, {7, 9}, {5, 4}, {26, 26}, {12, 35}}) {
                float[] v = Tensor.randn(gen, 2 * 3 * hw[0] * hw[1]).toFloatArray();
                for (int i = 0; i < v.length; i += 7) {
                    v[i] = v.length % 2 == 0 ? Float.NaN : 0.5f;
                    v[(i + 3) % v.length] = 0.5f;
                    v[(i + 4) % v.length] = Float.NaN;
                }
                Variable fast = Variable.of(Tensor.of(v, 2, 3, hw[0], hw[1]), true);
                Variable general = Variable.of(fast.data().to(DType.FLOAT64), true);
                Variable a = Pooling.maxPool2d(fast, new int[] {2, 2}, null, new int[] {0, 0}, new int[] {1, 1}, ceil);
                Variable b = Pooling.maxPool2d(general, new int[] {2, 2}, null, new int[] {0, 0}, new int[] {1, 1}, ceil);
                assertArrayEquals(b.shape(), a.shape());
                assertArrayEquals(b.data().toDoubleArray(), a.data().toDoubleArray(), 0, "ceil " + ceil + ", " + hw[0] + "x" + hw[1]);
                a.sum().backward();
                b.sum().backward();
                assertArrayEquals(general.grad().toDoubleArray(), fast.grad().toDoubleArray(), 0);
            }
        }
    }

    /** The 2x2 backward writes every element itself, so it may start from a recycled array: one full of NaN from a closed scope. */
    @Test
    void theTwoByTwoGradientIsWholeInARecycledArray() {
        Tensor x = Tensor.randn(new Generator(8), 2, 3, 21, 19);
        for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64}) {
            Variable fresh = Variable.of(x.to(dt), true);
            Pooling.maxPool2d(fresh, new int[] {2, 2}, null, new int[] {0, 0}, new int[] {1, 1}, false).sum().backward();
            double[] got;
            try (Memory.Scope dirty = Memory.scope()) {
                Tensor.full(Double.NaN, dt, 2, 3, 21, 19);
            }
            try (Memory.Scope step = Memory.scope()) {
                Variable v = Variable.of(x.to(dt), true);
                Pooling.maxPool2d(v, new int[] {2, 2}, null, new int[] {0, 0}, new int[] {1, 1}, false).sum().backward();
                got = v.grad().toDoubleArray();
            }
            assertArrayEquals(fresh.grad().toDoubleArray(), got, 0, dt.toString());
        }
    }

    @Test
    void maxPoolSendsATiedWindowsGradientToItsFirstMaximum() {
        Variable x = Variable.of(Tensor.ones(1, 1, 2, 4), true);
        Pooling.maxPool2d(x, new int[] {2, 2}, null, new int[] {0, 0}, new int[] {1, 1}, false).sum().backward();
        assertArrayEquals(new double[] {1, 0, 1, 0, 0, 0, 0, 0}, x.grad().toDoubleArray(), 0);
    }

    @Test
    void poolingGradientsMatchCentralDifferences() {
        Generator gen = new Generator(5);
        Tensor x = Tensor.randn(gen, 2, 3, 7, 6);
        assertTrue(GradCheck.check(v -> Pooling.maxPool2d(v[0], new int[] {3, 2}, new int[] {2, 2}, new int[] {1, 1},
                new int[] {1, 1}, true), x).passed());
        assertTrue(GradCheck.check(v -> Pooling.maxPool1d(v[0].flatten(2, 3), 4, 3, 2, 2, false), x).passed());
        // 2x2 windows at stride 2 tile the plane (the backward writes each element once), here with a row and a column left over.
        Tensor odd = Tensor.randn(gen, 2, 3, 7, 9);
        assertTrue(GradCheck.check(v -> Pooling.maxPool2d(v[0], new int[] {2, 2}, null, new int[] {0, 0}, new int[] {1, 1}, false), odd).passed());
        for (boolean include : new boolean[] {true, false}) {
            GradCheck.Result r = GradCheck.check(v -> Pooling.avgPool2d(v[0], new int[] {3, 3}, new int[] {2, 2},
                    new int[] {1, 1}, true, include), x);
            assertTrue(r.passed(), r.toString());
        }
        assertTrue(GradCheck.check(v -> Pooling.adaptiveAvgPool2d(v[0], 3, 4), x).passed());
    }

    @Test
    void avgPoolDividesByTheWindowInsideTheInputWithoutCountIncludePad() {
        Variable x = Variable.of(Tensor.ones(1, 1, 3, 3));
        Tensor in = Pooling.avgPool2d(x, new int[] {2, 2}, new int[] {2, 2}, new int[] {1, 1}, false, false).data();
        Tensor pad = Pooling.avgPool2d(x, new int[] {2, 2}, new int[] {2, 2}, new int[] {1, 1}, false, true).data();
        assertArrayEquals(new double[] {1, 1, 1, 1}, in.toDoubleArray(), 1e-7);
        assertArrayEquals(new double[] {0.25, 0.5, 0.5, 1}, pad.toDoubleArray(), 1e-7);
    }

    @Test
    void adaptiveAvgPoolToOneIsTheSpatialMean() {
        Tensor x = Tensor.randn(new Generator(2), 2, 3, 5, 7);
        Tensor y = new AdaptiveAvgPool2d(1).forward(Variable.of(x)).data();
        assertArrayEquals(x.mean(new int[] {2, 3}, true).toDoubleArray(), y.toDoubleArray(), 1e-6);
    }

    @Test
    void badGeometryIsRefusedByName() {
        Variable x = Variable.of(Tensor.zeros(1, 2, 3, 3));
        IllegalArgumentException pad = assertThrows(IllegalArgumentException.class,
                () -> Pooling.maxPool2d(x, new int[] {2, 2}, null, new int[] {2, 2}, new int[] {1, 1}, false));
        assertTrue(pad.getMessage().contains("pad should be at most half"), pad.getMessage());
        ShapeException small = assertThrows(ShapeException.class,
                () -> Pooling.maxPool2d(x, new int[] {4, 4}, null, new int[] {0, 0}, new int[] {1, 1}, false));
        assertTrue(small.getMessage().contains("Output size is too small"), small.getMessage());
        assertThrows(ShapeException.class, () -> new MaxPool2d(2).forward(Variable.of(Tensor.zeros(3, 3))));
    }
}
