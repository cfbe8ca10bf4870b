package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.Tuning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ActivationBackwardTest {
    private enum Act {
        SIGMOID, TANH, SILU;

        /** What the backward reads: the output for sigmoid and tanh, the input for SiLU. */
        Tensor saved(Tensor x) {
            return this == SIGMOID ? x.sigmoid() : this == TANH ? x.tanh() : x;
        }

        /** The op form autograd wrote before the one pass: its definition, bit for bit. */
        Tensor byOps(Tensor g, Tensor v) {
            switch (this) {
                case SIGMOID: return g.mul(v.mul(v.rsub(1.0)));
                case TANH: return g.mul(v.square().rsub(1.0));
                default: {
                    Tensor s = v.sigmoid();
                    return g.mul(s.mul(v.mul(s.rsub(1.0)).add(1.0)));
                }
            }
        }

        Tensor fused(Tensor g, Tensor v) {
            return this == SIGMOID ? Tensor.sigmoidBackward(g, v) : this == TANH ? Tensor.tanhBackward(g, v) : Tensor.siluBackward(g, v);
        }

        /** The derivative of the activation at x, in double. */
        double derivative(double x) {
            double s = 1 / (1 + Math.exp(-x));
            double t = Math.tanh(x);
            return this == SIGMOID ? s * (1 - s) : this == TANH ? 1 - t * t : s * (1 + x * (1 - s));
        }
    }

    /**
     * Sizes under a vector, over a block (4096) and not a multiple of it, and one the threads share: the op form's bits,
     * on one thread and on two.
     */
    @Test
    @ExtendWith(AllThreads.class)
    void givesTheOpFormsBitsOnOneAndTwoThreads() {
        Generator gen = new Generator(21);
        int[][] shapes = {{7}, {3, 5, 11}, {4099}, {37, 301}, {2 * Tuning.parallelMin() + 4096 + 37}};
        for (int[] shape : shapes) {
            Tensor x = Tensor.randn(gen, shape).mul(4.0);
            Tensor g = Tensor.randn(gen, shape);
            for (Act act : Act.values()) {
                Tensor v = act.saved(x);
                Backend.setThreads(1);
                float[] want = act.byOps(g, v).toFloatArray();
                float[] one = act.fused(g, v).toFloatArray();
                Backend.setThreads(2);
                float[] two = act.fused(g, v).toFloatArray();
                String what = act + " backward of " + Shape.str(shape);
                assertArrayEquals(want, one, what + ", one thread");
                assertArrayEquals(want, two, what + ", two threads");
            }
        }
    }

    @Test
    void isTheDerivativeTimesTheGradient() {
        Generator gen = new Generator(22);
        Tensor x = Tensor.randn(gen, 5, 29).mul(3.0);
        Tensor g = Tensor.randn(gen, 5, 29);
        double[] xd = x.to(DType.FLOAT64).toDoubleArray();
        double[] gd = g.to(DType.FLOAT64).toDoubleArray();
        for (Act act : Act.values()) {
            float[] got = act.fused(g, act.saved(x)).toFloatArray();
            for (int i = 0; i < got.length; i++) {
                double want = gd[i] * act.derivative(xd[i]);
                assertEquals(want, got[i], 1e-5 * (1 + Math.abs(want)), act + " at " + i);
            }
        }
    }

    /** A transposed gradient and float64 take the op form; the numbers agree with the one pass. */
    @Test
    void otherLayoutsAndTypesTakeTheOps() {
        Generator gen = new Generator(23);
        Tensor x = Tensor.randn(gen, 9, 14);
        Tensor gt = Tensor.randn(gen, 14, 9).t();
        for (Act act : Act.values()) {
            Tensor v = act.saved(x);
            assertArrayEquals(act.fused(gt.contiguous(), v).toFloatArray(), act.fused(gt, v).toFloatArray(), 0f);
            Tensor vd = v.to(DType.FLOAT64);
            Tensor gd = gt.to(DType.FLOAT64);
            Tensor r = act.fused(gd, vd);
            assertEquals(DType.FLOAT64, r.dtype());
            assertArrayEquals(act.byOps(gd, vd).toDoubleArray(), r.toDoubleArray());
        }
    }

    @Test
    void namesMismatchedShapes() {
        ShapeException e = assertThrows(ShapeException.class, () -> Tensor.tanhBackward(Tensor.zeros(4, 3), Tensor.zeros(3, 4)));
        assertTrue(e.getMessage().contains("tanh_backward") && e.getMessage().contains("[4, 3]") && e.getMessage().contains("[3, 4]"),
                e.getMessage());
    }
}
