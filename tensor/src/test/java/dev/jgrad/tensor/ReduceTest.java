package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReduceTest {
    private static Tensor x234() {
        return Tensor.arange(0, 24, 1, DType.FLOAT64).reshape(2, 3, 4);
    }

    @Test
    void keepdimShapes() {
        Tensor x = x234();
        assertArrayEquals(new int[] {2, 1, 4}, x.sum(1, true).shape());
        assertArrayEquals(new int[] {2, 4}, x.sum(1, false).shape());
        assertArrayEquals(new int[] {1, 3, 1}, x.mean(new int[] {0, -1}, true).shape());
        assertArrayEquals(new int[] {}, x.sum().shape());
        assertEquals(276.0, x.sum().item());
    }

    /**
     * Sums and means over the leading dims of a contiguous float32 tensor (a bias's gradient) add runs of rows in
     * float: against a float64 reference over row counts around a run's length, kept widths below and above a vector,
     * and a transposed input (the general loop).
     */
    @Test
    void sumsOverLeadingDimsAgreeWithADoubleReference() {
        Generator g = new Generator(31);
        int[][] shapes = {{512, 384}, {3, 7, 40}, {65, 17}, {64, 129}, {130, 5, 6}, {1, 300}, {200, 15}};
        for (int[] shape : shapes) {
            Tensor x = Tensor.randn(g, shape);
            int lead = shape.length == 3 && shape[0] == 3 ? 2 : 1;
            int[] dims = lead == 2 ? new int[] {0, 1} : new int[] {0};
            Tensor ref = x.to(DType.FLOAT64).sum(dims, false);
            int rows = lead == 2 ? shape[0] * shape[1] : shape[0];
            double[] want = ref.toDoubleArray();
            double[] sum = x.sum(dims, false).toDoubleArray();
            double[] mean = x.mean(dims, true).toDoubleArray();
            for (int i = 0; i < want.length; i++) {
                double tol = 1e-6 * Math.sqrt(rows) * 4;
                assertEquals(want[i], sum[i], tol, java.util.Arrays.toString(shape) + " sum " + i);
                assertEquals(want[i] / rows, mean[i], tol / rows, java.util.Arrays.toString(shape) + " mean " + i);
            }
            assertArrayEquals(ref.shape(), x.sum(dims, false).shape());
        }
        Tensor t = Tensor.randn(g, 40, 70).t();
        assertArrayEquals(t.to(DType.FLOAT64).sum(0, false).toDoubleArray(), t.sum(0, false).to(DType.FLOAT64).toDoubleArray(), 1e-4);
    }

    /**
     * Float32 sums and means over the last dim, of a view whose rows are neither at offset 0 nor next to each other,
     * on one thread and on two (rows long enough to split), agree with a double reference and with each other bit for bit.
     */
    @Test
    @org.junit.jupiter.api.extension.ExtendWith(AllThreads.class)
    void lastDimSumsOfStridedFloatViewsMatchADoubleReference() {
        Tensor base = Tensor.randn(new Generator(11), 6, 70, 1100);
        Tensor x = base.slice(0, 1, 6, 2).slice(2, 3, 1100, 1);
        Tensor[][] got = new Tensor[2][];
        for (int threads = 1; threads <= 2; threads++) {
            Backend.setThreads(threads);
            got[threads - 1] = new Tensor[] {x.sum(new int[] {2}, true), x.mean(new int[] {-1}, false)};
        }
        assertArrayEquals(new int[] {3, 70, 1}, got[0][0].shape());
        assertArrayEquals(new int[] {3, 70}, got[0][1].shape());
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 70; j++) {
                double want = 0;
                for (int k = 0; k < 1097; k++) {
                    want += x.getDouble(i, j, k);
                }
                assertEquals(want, got[0][0].getDouble(i, j, 0), 1e-3, "sum of row " + i + ", " + j);
                assertEquals(want / 1097, got[0][1].getDouble(i, j), 1e-6, "mean of row " + i + ", " + j);
                assertEquals(got[0][0].getDouble(i, j, 0), got[1][0].getDouble(i, j, 0), 0.0, "two threads' sum");
                assertEquals(got[0][1].getDouble(i, j), got[1][1].getDouble(i, j), 0.0, "two threads' mean");
            }
        }
    }

    /** Reductions over random dim subsets agree with a reference that loops over every element. */
    @Test
    void randomDimSubsetsAgreeWithReference() {
        Random r = new Random(7);
        Tensor x = Tensor.randn(new Generator(3), 2, 3, 4, 5).to(DType.FLOAT64);
        for (int t = 0; t < 40; t++) {
            boolean[] red = new boolean[4];
            int count = 0;
            for (int d = 0; d < 4; d++) {
                red[d] = r.nextBoolean();
                count += red[d] ? 1 : 0;
            }
            if (count == 0) {
                continue;
            }
            int[] dims = new int[count];
            for (int d = 0, k = 0; d < 4; d++) {
                if (red[d]) {
                    dims[k++] = r.nextBoolean() ? d : d - 4;
                }
            }
            Tensor s = x.sum(dims, true);
            Tensor m = x.amax(dims, true);
            Tensor v = x.var(dims, 1, true);
            int[] idx = new int[4];
            for (int a = 0; a < 2; a++) {
                for (int b = 0; b < 3; b++) {
                    for (int c = 0; c < 4; c++) {
                        for (int d = 0; d < 5; d++) {
                            idx[0] = a;
                            idx[1] = b;
                            idx[2] = c;
                            idx[3] = d;
                            int[] o = idx.clone();
                            for (int k = 0; k < 4; k++) {
                                if (red[k]) {
                                    o[k] = 0;
                                }
                            }
                            assertTrue(x.getDouble(idx) <= m.getDouble(o));
                        }
                    }
                }
            }
            // sums of the keepdim result over the kept dims give the total
            assertEquals(x.sum().item(), s.sum().item(), 1e-9);
            assertTrue(v.ge(0.0).all());
        }
    }

    @Test
    void emptyReductionsFollowPyTorch() {
        Tensor e = Tensor.zeros(2, 0, 3);
        assertEquals(0.0, e.sum().item());
        assertTrue(Double.isNaN(e.mean().item()));
        assertEquals(1.0, e.prod().item());
        assertEquals(Double.NEGATIVE_INFINITY, e.logsumexp(1, false).getDouble(0, 0));
        ShapeException ex = assertThrows(ShapeException.class, () -> e.amax(1, false));
        assertEquals("amax(): Expected reduction dim 1 to have non-zero size.", ex.getMessage());
        assertArrayEquals(new int[] {2, 0}, e.amax(2, false).shape());
    }

    @Test
    void softmaxIsFiniteForHugeLogitsAndZeroAtMinusInfinity() {
        Tensor x = Tensor.of(new float[] {1000, 1001, 999, -1000, Float.NEGATIVE_INFINITY, -999}, 2, 3);
        Tensor p = x.softmax(-1);
        assertTrue(p.allFinite());
        assertEquals(0.0, p.getDouble(1, 1));
        assertArrayEquals(new float[] {1, 1}, p.sum(1, false).toFloatArray(), 1e-6f);
        Tensor lp = x.logSoftmax(-1);
        assertEquals(Double.NEGATIVE_INFINITY, lp.getDouble(1, 1));
        assertEquals(-0.40760596, lp.getDouble(0, 1), 1e-6);
        assertEquals(1001.40760596, x.logsumexp(1, false).getDouble(0), 1e-3);
    }

    @Test
    void maxWithIndicesTakesTheFirstTie() {
        Tensor x = Tensor.of(new float[] {3, 1, 3, 0, 2, 2}, 2, 3);
        ValuesIndices<Tensor> vi = x.max(1, false);
        assertArrayEquals(new float[] {3, 2}, vi.values().toFloatArray());
        assertArrayEquals(new long[] {0, 1}, vi.indices().toLongArray());
        assertArrayEquals(new long[] {0, 1, 0}, x.argmax(0, false).toLongArray());
    }

    @Test
    void sumToReducesBroadcastDims() {
        Tensor g = Tensor.ones(4, 3, 5);
        assertArrayEquals(new int[] {3, 1}, g.sumTo(3, 1).shape());
        assertArrayEquals(new float[] {20, 20, 20}, g.sumTo(3, 1).toFloatArray());
        assertEquals(60.0, g.sumTo().item());
        assertThrows(ShapeException.class, () -> g.sumTo(2, 5));
    }

    @Test
    void integerSumsStayExact() {
        Tensor i = Tensor.of(new long[] {(1L << 53) + 1, 1}, 2);
        assertEquals((1L << 53) + 2, i.sum().getLong());
        assertEquals(DType.INT64, Tensor.of(new boolean[] {true, true, false}, 3).sum().dtype());
        assertThrows(DTypeException.class, () -> i.mean());
    }

    /**
     * amax() and amin() of a large tensor, its pieces on the threads: Java's max and min of the elements, with NaN
     * winning wherever it is and +0 above -0, on one thread and on two (an offset view, an odd length).
     */
    @Test
    @org.junit.jupiter.api.extension.ExtendWith(AllThreads.class)
    void extremesOfALargeTensorAreJavasOnOneThreadAndOnTwo() {
        int n = 3 * dev.jgrad.tensor.internal.kernels.Tuning.parallelMin() + 101;
        Tensor base = Tensor.randn(new Generator(17), n + 3);
        Tensor x = base.narrow(0, 3, n);
        float[] v = x.toFloatArray();
        for (int plant = 0; plant < 4; plant++) {
            float[] w = v.clone();
            if (plant == 1) {
                java.util.Arrays.fill(w, -1f);
                w[n - 7] = 0f;
                w[n / 3] = -0f;
            } else if (plant == 2) {
                w[n - 2] = Float.NaN;
            } else if (plant == 3) {
                w[5] = Float.NaN;
                w[n / 2 + 1] = Float.POSITIVE_INFINITY;
            }
            Tensor t = Tensor.of(w, n);
            float max = Float.NEGATIVE_INFINITY;
            float min = Float.POSITIVE_INFINITY;
            for (float f : w) {
                max = Math.max(max, f);
                min = Math.min(min, f);
            }
            for (int threads = 1; threads <= 2; threads++) {
                Backend.setThreads(threads);
                assertEquals(Float.floatToRawIntBits(max), Float.floatToRawIntBits((float) t.amax().item()), "amax, plant " + plant + ", " + threads + " thread(s)");
                assertEquals(Float.floatToRawIntBits(min), Float.floatToRawIntBits((float) t.amin().item()), "amin, plant " + plant + ", " + threads + " thread(s)");
            }
        }
        Backend.setThreads(2);
        assertEquals(Float.floatToRawIntBits(x.contiguous().amax().toFloatArray()[0]), Float.floatToRawIntBits(x.amax().toFloatArray()[0]));
    }

    @Test
    @org.junit.jupiter.api.extension.ExtendWith(AllThreads.class)
    void softmaxOfLargeRowsIsTheSameOnOneThreadAndOnSeveral() {
        // (97, 515) from offset 515 of a bigger tensor: rows not a multiple of the vector length, a
        // storage offset, and enough elements that several threads share the rows (and overlap the
        // result's allocation with the rows' statistics).
        Tensor x = Tensor.randn(new Generator(9), 98, 515).mul(Tensor.scalar(6.0, DType.FLOAT32)).narrow(0, 1, 97);
        Backend.setThreads(1);
        float[] p1 = x.softmax(-1).toFloatArray();
        float[] l1 = x.logSoftmax(1).toFloatArray();
        Backend.setThreads(2);
        assertArrayEquals(p1, x.softmax(-1).toFloatArray(), 0f);
        assertArrayEquals(l1, x.logSoftmax(1).toFloatArray(), 0f);
        float[] p = x.softmax(-1).toFloatArray();
        float[] xv = x.toFloatArray();
        for (int r = 0; r < 97; r += 24) {
            double m = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < 515; j++) {
                m = Math.max(m, xv[r * 515 + j]);
            }
            double z = 0;
            for (int j = 0; j < 515; j++) {
                z += Math.exp(xv[r * 515 + j] - m);
            }
            for (int j = 0; j < 515; j++) {
                double want = Math.exp(xv[r * 515 + j] - m) / z;
                assertEquals(want, p[r * 515 + j], 1e-6 * want + 1e-12, "row " + r + " column " + j);
            }
        }
    }

    @Test
    void anyAndAllAlongEachDimMatchElementByElement() {
        Random rnd = new Random(12);
        boolean[] flags = new boolean[3 * 4 * 5];
        for (int i = 0; i < flags.length; i++) {
            flags[i] = rnd.nextInt(4) != 0;
        }
        flags[7] = true;
        Tensor x = Tensor.of(flags, 3, 4, 5);
        Tensor t = x.permute(2, 0, 1);
        for (int dim = 0; dim < 3; dim++) {
            for (Tensor v : new Tensor[] {x, t}) {
                boolean[] all = v.all(dim, false).toBooleanArray();
                boolean[] any = v.any(dim, true).toBooleanArray();
                int[] shape = v.shape();
                int[] rest = new int[2];
                for (int d = 0, k = 0; d < 3; d++) {
                    if (d != dim) {
                        rest[k++] = d;
                    }
                }
                for (int i = 0; i < shape[rest[0]]; i++) {
                    for (int j = 0; j < shape[rest[1]]; j++) {
                        boolean wantAll = true;
                        boolean wantAny = false;
                        for (int r = 0; r < shape[dim]; r++) {
                            int[] at = new int[3];
                            at[rest[0]] = i;
                            at[rest[1]] = j;
                            at[dim] = r;
                            boolean f = v.getDouble(at) != 0;
                            wantAll &= f;
                            wantAny |= f;
                        }
                        int k = i * shape[rest[1]] + j;
                        assertEquals(wantAll, all[k], "all over dim " + dim + " at " + i + "," + j);
                        assertEquals(wantAny, any[k], "any over dim " + dim + " at " + i + "," + j);
                    }
                }
            }
        }
        assertArrayEquals(new int[] {3, 1, 5}, x.any(1, true).shape());
    }
}
