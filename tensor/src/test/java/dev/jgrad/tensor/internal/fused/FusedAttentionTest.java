package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fused attention op, forward and backward, against its definition in float64 ({@code softmax(scale q k^T) v}, keys
 * past each query left out where causal), over random shapes with a distinct size for every axis, rows shorter and longer
 * than a vector, and q, k, v read where they lie in one projection (strided heads). Runs at the machine's vector width,
 * at 256 bits and with the plain kernels (tensor's pom.xml).
 */
class FusedAttentionTest {
    @Test
    void forwardAndBackwardMatchTheDefinition() {
        Random r = new Random(11);
        Generator gen = new Generator(11);
        for (int trial = 0; trial < 30; trial++) {
            int b = 1 + r.nextInt(2);
            int h = 1 + r.nextInt(3);
            int t = 1 + r.nextInt(trial % 3 == 0 ? 70 : 13);
            boolean causal = trial % 2 == 0;
            int s = causal ? t : 1 + r.nextInt(41);
            int d = 1 + r.nextInt(trial % 4 == 0 ? 40 : 9);
            int dv = 1 + r.nextInt(19);
            double scale = 1 / Math.sqrt(d) * (0.5 + r.nextDouble());
            Tensor q;
            Tensor k;
            Tensor v;
            if (trial % 3 == 1 && s == t && dv == d) {
                // Heads cut out of one projection (B, T, 3, H, D), as a transformer's attention reads them: strided, no copy.
                Tensor qkv = Tensor.randn(gen, b, t, 3, h, d);
                q = qkv.select(2, 0).permute(0, 2, 1, 3);
                k = qkv.select(2, 1).permute(0, 2, 1, 3);
                v = qkv.select(2, 2).permute(0, 2, 1, 3);
            } else {
                q = Tensor.randn(gen, b, h, t, d);
                k = Tensor.randn(gen, b, h, s, d);
                v = Tensor.randn(gen, b, h, s, dv);
            }
            String what = "trial " + trial + ": b=" + b + " h=" + h + " t=" + t + " s=" + s + " d=" + d + " dv=" + v.size(-1)
                    + " causal=" + causal + (q.isContiguous() ? "" : " strided");
            assertTrue(FusedAttention.applies(q, k, v), what);
            FusedAttention.Forward f = FusedAttention.forward(q, k, v, causal, scale);
            Tensor[] want = definition(q, k, v, causal, scale);
            close(want[0], f.output(), 2e-5, what + ": output");
            close(want[1], f.weights(), 2e-6, what + ": weights");

            Tensor g = Tensor.randn(gen, f.output().shape());
            Tensor[] got = FusedAttention.backward(g, q, k, v, f.weights(), causal, scale, new boolean[] {true, true, true});
            Tensor[] grads = definitionGradients(g, q, k, v, want[1], scale);
            close(grads[0], got[0], 5e-5, what + ": dq");
            close(grads[1], got[1], 5e-5, what + ": dk");
            close(grads[2], got[2], 5e-5, what + ": dv");
            Tensor[] onlyV = FusedAttention.backward(g, q, k, v, f.weights(), causal, scale, new boolean[] {false, false, true});
            assertTrue(onlyV[0] == null && onlyV[1] == null, what + ": gradients not asked for");
            close(grads[2], onlyV[2], 5e-5, what + ": dv alone");
        }
    }

    /** The output and the weights, in float64. */
    private static Tensor[] definition(Tensor q, Tensor k, Tensor v, boolean causal, double scale) {
        Tensor scores = q.to(DType.FLOAT64).matmul(k.to(DType.FLOAT64).transpose(-1, -2)).mul(scale);
        if (causal) {
            int t = q.size(-2);
            int s = k.size(-2);
            double[] m = new double[t * s];
            for (int i = 0; i < t; i++) {
                for (int j = i + 1; j < s; j++) {
                    m[i * s + j] = Double.NEGATIVE_INFINITY;
                }
            }
            scores = scores.add(Tensor.of(m, t, s));
        }
        Tensor w = scores.softmax(-1);
        return new Tensor[] {w.matmul(v.to(DType.FLOAT64)), w};
    }

    /** dq, dk, dv of {@code sum(g * softmax(scale q k^T) v)} by the chain rule, in float64. */
    private static Tensor[] definitionGradients(Tensor g, Tensor q, Tensor k, Tensor v, Tensor w, double scale) {
        Tensor gd = g.to(DType.FLOAT64);
        Tensor dv = w.transpose(-1, -2).matmul(gd);
        Tensor dw = gd.matmul(v.to(DType.FLOAT64).transpose(-1, -2));
        Tensor ds = w.mul(dw.sub(dw.mul(w).sum(-1, true)));
        Tensor dq = ds.matmul(k.to(DType.FLOAT64)).mul(scale);
        Tensor dk = ds.transpose(-1, -2).matmul(q.to(DType.FLOAT64)).mul(scale);
        return new Tensor[] {dq, dk, dv};
    }

    static void close(Tensor want, Tensor got, double tol, String what) {
        assertEquals(java.util.Arrays.toString(want.shape()), java.util.Arrays.toString(got.shape()), what + ": shape");
        double[] a = want.contiguous().toDoubleArray();
        double[] b = got.contiguous().toDoubleArray();
        for (int i = 0; i < a.length; i++) {
            assertEquals(a[i], b[i], tol * (1 + Math.abs(a[i])), what + " at " + i);
        }
    }
}
