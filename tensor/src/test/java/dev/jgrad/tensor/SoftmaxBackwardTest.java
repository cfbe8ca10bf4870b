package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.Tuning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SoftmaxBackwardTest {
    /** The four ops the one pass stands for, as autograd wrote them: its definition, bit for bit. */
    private static Tensor byOps(Tensor g, Tensor y, int dim, boolean log) {
        return log ? g.sub(y.exp().mul(g.sum(dim, true))) : y.mul(g.sub(g.mul(y).sum(dim, true)));
    }

    private static Tensor fused(Tensor g, Tensor y, int dim, boolean log) {
        return log ? Tensor.logSoftmaxBackward(g, y, dim) : Tensor.softmaxBackward(g, y, dim);
    }

    /**
     * Rows whose length is no multiple of a vector (65 classes, 10, 33), one row, a row longer than a block, and a
     * tensor large enough to be shared by the threads whose blocks then start mid-vector unless aligned: the same bits
     * as the ops, on one thread and on two.
     */
    @Test
    @ExtendWith(AllThreads.class)
    void givesTheOpsBitsOnOneAndTwoThreads() {
        Generator gen = new Generator(11);
        int bigRows = Tuning.parallelMin() / 65 * 3 + 7;
        int[][] shapes = {{768, 65}, {7, 10}, {3, 5, 33}, {1, 1000}, {1000}, {2, 4099}, {bigRows, 65}, {bigRows / 8, 517}};
        for (int[] shape : shapes) {
            Tensor x = Tensor.randn(gen, shape).mul(4.0);
            Tensor g = Tensor.randn(gen, shape);
            for (boolean log : new boolean[] {false, true}) {
                Tensor y = log ? x.logSoftmax(-1) : x.softmax(-1);
                Backend.setThreads(1);
                float[] want = byOps(g, y, -1, log).toFloatArray();
                float[] one = fused(g, y, -1, log).toFloatArray();
                Backend.setThreads(2);
                float[] two = fused(g, y, -1, log).toFloatArray();
                String what = (log ? "log_softmax" : "softmax") + " backward of " + Shape.str(shape);
                assertArrayEquals(want, one, what + ", one thread");
                assertArrayEquals(want, two, what + ", two threads");
            }
        }
    }

    /** Against the formulas in float64 (the ops above are only the same arithmetic in float32). */
    @Test
    void matchesTheDerivativeInDouble() {
        Generator gen = new Generator(12);
        int rows = 6;
        int n = 37;
        Tensor x = Tensor.randn(gen, rows, n).mul(3.0);
        Tensor g = Tensor.randn(gen, rows, n);
        double[] gd = g.to(DType.FLOAT64).toDoubleArray();
        for (boolean log : new boolean[] {false, true}) {
            Tensor y = log ? x.logSoftmax(1) : x.softmax(1);
            double[] yd = y.to(DType.FLOAT64).toDoubleArray();
            float[] got = fused(g, y, 1, log).toFloatArray();
            for (int r = 0; r < rows; r++) {
                double s = 0;
                for (int j = 0; j < n; j++) {
                    s += log ? gd[r * n + j] : gd[r * n + j] * yd[r * n + j];
                }
                for (int j = 0; j < n; j++) {
                    int i = r * n + j;
                    double want = log ? gd[i] - Math.exp(yd[i]) * s : yd[i] * (gd[i] - s);
                    assertEquals(want, got[i], 1e-5 * (1 + Math.abs(want)), (log ? "log_softmax" : "softmax") + " at " + i);
                }
            }
        }
    }

    /** Another dim, a transposed gradient and float64 take the ops; the numbers agree with the one pass. */
    @Test
    void otherLayoutsAndTypesTakeTheOps() {
        Generator gen = new Generator(13);
        Tensor x = Tensor.randn(gen, 9, 14);
        Tensor gt = Tensor.randn(gen, 14, 9).t();
        for (boolean log : new boolean[] {false, true}) {
            Tensor y = log ? x.logSoftmax(1) : x.softmax(1);
            assertClose(fused(gt.contiguous(), y, 1, log), fused(gt, y, 1, log));
            Tensor y0 = log ? x.logSoftmax(0) : x.softmax(0);
            assertArrayEquals(byOps(gt, y0, 0, log).toFloatArray(), fused(gt, y0, 0, log).toFloatArray());
            Tensor yd = y.to(DType.FLOAT64);
            Tensor gd = gt.to(DType.FLOAT64);
            Tensor r = fused(gd, yd, -1, log);
            assertEquals(DType.FLOAT64, r.dtype());
            assertArrayEquals(byOps(gd, yd, -1, log).toDoubleArray(), r.toDoubleArray());
        }
    }

    @Test
    void namesMismatchedShapesAndBadDims() {
        Tensor y = Tensor.zeros(3, 4);
        ShapeException e = assertThrows(ShapeException.class, () -> Tensor.softmaxBackward(Tensor.zeros(4, 3), y, 1));
        assertTrue(e.getMessage().contains("[4, 3]") && e.getMessage().contains("[3, 4]"), e.getMessage());
        assertThrows(RuntimeException.class, () -> Tensor.logSoftmaxBackward(Tensor.zeros(3, 4), y, 2));
        assertArrayEquals(new float[] {0f}, Tensor.softmaxBackward(Tensor.scalar(2.0, DType.FLOAT32), Tensor.scalar(1.0, DType.FLOAT32), 0).reshape(1).toFloatArray());
    }

    private static void assertClose(Tensor want, Tensor got) {
        float[] w = want.toFloatArray();
        float[] g = got.toFloatArray();
        assertEquals(w.length, g.length);
        for (int i = 0; i < w.length; i++) {
            assertEquals(w[i], g[i], 1e-6 * (1 + Math.abs(w[i])), "at " + i);
        }
    }
}
