package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The fused layer norm, forward and backward, against its definition in float64 over random row counts and widths
 * (shorter and longer than a vector, one element), with and without a weight and a bias, on dense and strided inputs.
 * Runs at the machine's vector width, at 256 bits and with the plain kernels (tensor's pom.xml).
 */
class FusedLayerNormTest {
    @Test
    void forwardAndBackwardMatchTheDefinition() {
        Random r = new Random(3);
        Generator gen = new Generator(3);
        for (int trial = 0; trial < 40; trial++) {
            int rows = 1 + r.nextInt(trial % 5 == 0 ? 300 : 17);
            int c = 1 + r.nextInt(trial % 3 == 0 ? 130 : 23);
            boolean affine = trial % 4 != 3;
            double eps = trial % 2 == 0 ? 1e-5 : 1e-3;
            Tensor x = trial % 3 == 2 ? Tensor.randn(gen, c, rows).mul(2).add(0.5).transpose(0, 1) : Tensor.randn(gen, rows, c).mul(2).add(0.5);
            Tensor w = affine ? Tensor.randn(gen, c) : null;
            Tensor b = affine ? Tensor.randn(gen, c) : null;
            String what = "trial " + trial + ": rows=" + rows + " c=" + c + (affine ? "" : " no affine") + (x.isContiguous() ? "" : " strided");
            FusedLayerNorm.Forward f = FusedLayerNorm.forward(x, w, b, eps);

            Tensor xd = x.to(DType.FLOAT64);
            Tensor mean = xd.mean(-1, true);
            Tensor centred = xd.sub(mean);
            Tensor rstd = centred.square().mean(-1, true).add(eps).rsqrt();
            Tensor xhat = centred.mul(rstd);
            Tensor y = affine ? xhat.mul(w.to(DType.FLOAT64)).add(b.to(DType.FLOAT64)) : xhat;
            FusedAttentionTest.close(y, f.output(), 2e-5, what + ": output");
            FusedAttentionTest.close(mean.reshape(-1), f.mean(), 2e-6, what + ": mean");
            FusedAttentionTest.close(rstd.reshape(-1), f.rstd(), 2e-5, what + ": rstd");

            Tensor g = Tensor.randn(gen, rows, c);
            FusedLayerNorm.Gradients got = FusedLayerNorm.backward(g, x, w, f, new boolean[] {true, affine, affine});
            Tensor gd = g.to(DType.FLOAT64);
            Tensor gw = affine ? gd.mul(w.to(DType.FLOAT64)) : gd;
            Tensor dx = rstd.mul(gw.sub(gw.mean(-1, true)).sub(xhat.mul(gw.mul(xhat).mean(-1, true))));
            FusedAttentionTest.close(dx, got.input(), 5e-5, what + ": dx");
            if (affine) {
                FusedAttentionTest.close(gd.mul(xhat).sum(0), got.weight(), 5e-5, what + ": dw");
                FusedAttentionTest.close(gd.sum(0), got.bias(), 5e-5, what + ": db");
            } else {
                assertNull(got.weight(), what);
            }
        }
    }
}
