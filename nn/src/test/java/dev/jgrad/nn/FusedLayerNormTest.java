package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The fused float32 layer norm (one pass forward, one backward) against its composite in float64, over shapes with a
 * size of their own on every axis, with and without weight and bias.
 */
class FusedLayerNormTest {
    private static void close(Tensor want, Tensor got, double tol, String what) {
        double[] w = want.toDoubleArray();
        double[] g = got.toDoubleArray();
        assertEquals(w.length, g.length, what);
        for (int i = 0; i < w.length; i++) {
            assertEquals(w[i], g[i], tol * (1 + Math.abs(w[i])), what + " at " + i);
        }
    }

    @Test
    void forwardAndBackwardMatchTheCompositeInFloat64() {
        Generator gen = new Generator(21);
        int[][] shapes = {{3, 5, 7}, {11, 16}, {2, 1, 3, 37}, {4, 128}};
        for (int[] shape : shapes) {
            int c = shape[shape.length - 1];
            for (int mode = 0; mode < 3; mode++) {
                Tensor x = Tensor.randn(gen, shape).mul(3.0).add(1.5);
                Tensor w = mode == 0 ? null : Tensor.randn(gen, c);
                Tensor b = mode == 2 ? Tensor.randn(gen, c) : null;
                Tensor up = Tensor.randn(gen, shape);
                Tensor[] fused = run(x, w, b, up, DType.FLOAT32);
                Tensor[] reference = run(x, w, b, up, DType.FLOAT64);
                String what = java.util.Arrays.toString(shape) + " mode " + mode;
                for (int i = 0; i < fused.length; i++) {
                    if (reference[i] != null) {
                        close(reference[i], fused[i], 2e-4, what + " output " + i);
                    }
                }
            }
        }
    }

    /** The output and the gradients of x, w and b for the upstream gradient {@code up}, in {@code dtype}. */
    private static Tensor[] run(Tensor x, Tensor w, Tensor b, Tensor up, DType dtype) {
        Variable xv = Variable.of(x.to(dtype), true);
        Variable wv = w == null ? null : Variable.of(w.to(dtype), true);
        Variable bv = b == null ? null : Variable.of(b.to(dtype), true);
        Variable y = Functional.layerNorm(xv, new int[] {x.size(-1)}, wv, bv, 1e-5);
        y.backward(up.to(dtype));
        return new Tensor[] {y.data(), xv.grad(), wv == null ? null : wv.grad(), bv == null ? null : bv.grad()};
    }
}
