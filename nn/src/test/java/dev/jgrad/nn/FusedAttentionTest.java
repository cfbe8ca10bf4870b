package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Float32 attention runs fused ops (the whole attention without a mask, the masked softmax with one), float64 the
 * composite of scale, masked fill and softmax: values and the gradients of q, k and v must agree for every kind of
 * bool mask, rows with every key masked included. B=2, H=3, d=4, with T=5 queries over S=7 keys (rows shorter than a vector), and 19 over 37 (two
 * vectors of keys and a tail).
 */
class FusedAttentionTest {
    private static final int B = 2;
    private static final int H = 3;
    private static final int D = 4;

    @Test
    void theFusedFloat32WeightsAgreeWithTheComposite() {
        for (int[] sizes : new int[][] {{5, 7}, {19, 37}}) {
            agree(sizes[0], sizes[1]);
        }
    }

    /**
     * Without a mask float32 attention is one fused op over q, k and v where they lie: heads cut out of one projection
     * {@code (B, T, 3C)} as nanoGPT does, values narrower than the keys, causal or not, T below, at and above S, more
     * queries and keys than a vector holds and than a block of four (70). Values and gradients agree with the float64
     * composite, and the output is laid out as the projection, so putting its heads back together copies nothing.
     */
    @Test
    void headsCutOutOfOneProjectionAgreeWithTheComposite() {
        Generator gen = new Generator(43);
        for (int[] sizes : new int[][] {{6, 6}, {5, 9}, {9, 5}, {70, 70}, {3, 70}, {1, 1}}) {
            int t = sizes[0];
            int s = sizes[1];
            int d = 6;
            int dv = 5;
            for (boolean causal : new boolean[] {true, false}) {
                Tensor qProj = Tensor.randn(gen, B, t, H * d);
                Tensor kvProj = Tensor.randn(gen, B, s, H * (d + dv));
                Tensor weights = Tensor.randn(gen, B, H, t, dv);
                Variable[] out = new Variable[2];
                Variable[][] in = new Variable[2][];
                for (int r = 0; r < 2; r++) {
                    DType dt = r == 0 ? DType.FLOAT32 : DType.FLOAT64;
                    in[r] = new Variable[] {Variable.of(qProj.to(dt), true), Variable.of(kvProj.to(dt), true)};
                    Variable q = in[r][0].reshape(B, t, H, d).transpose(1, 2);
                    Variable k = in[r][1].narrow(2, 0, H * d).reshape(B, s, H, d).transpose(1, 2);
                    Variable v = in[r][1].narrow(2, H * d, H * dv).reshape(B, s, H, dv).transpose(1, 2);
                    out[r] = Attention.scaledDotProduct(q, k, v, null, causal, Double.NaN);
                    out[r].mul(Variable.of(weights.to(dt))).sum().backward();
                }
                String label = t + " queries, " + s + " keys" + (causal ? ", causal" : "");
                assertArrayEquals(out[1].data().toDoubleArray(), out[0].data().toDoubleArray(), 1e-5, label);
                assertArrayEquals(in[1][0].grad().toDoubleArray(), in[0][0].grad().toDoubleArray(), 1e-4, label + ": gradient of q");
                assertArrayEquals(in[1][1].grad().toDoubleArray(), in[0][1].grad().toDoubleArray(), 1e-4, label + ": gradient of k and v");
                assertTrue(out[0].data().transpose(1, 2).isContiguous(), label + ": the output is laid out as (B, T, H, dv)");
            }
        }
    }

    /** The fused and composite weights for tq queries over sk keys. */
    private static void agree(int tq, int sk) {
        Generator gen = new Generator(41);
        boolean[] pad = new boolean[B * sk];
        for (int j = 4; j < sk; j++) {
            pad[j] = true; // batch 0: keys 4 and on are padding
        }
        for (int j = 0; j < sk; j++) {
            pad[sk + j] = true; // batch 1: every key is padding, so every row is empty
        }
        Tensor padding = Tensor.of(pad, B, 1, 1, sk);
        Tensor rowMask = Tensor.randn(gen, tq, sk).gt(0.8);
        Object[][] cases = {{null, false, Double.NaN}, {padding, false, Double.NaN}, {null, true, Double.NaN}, {padding, true, 0.3},
            {rowMask, false, Double.NaN}, {rowMask, true, 2.0}};
        for (Object[] c : cases) {
            Tensor mask = (Tensor) c[0];
            boolean causal = (Boolean) c[1];
            double scale = (Double) c[2];
            Tensor q = Tensor.randn(gen, B, H, tq, D);
            Tensor k = Tensor.randn(gen, B, H, sk, D);
            Tensor v = Tensor.randn(gen, B, H, sk, D);
            Tensor weights = Tensor.randn(gen, B, H, tq, D);
            Variable[][] in = new Variable[2][];
            Variable[] out = new Variable[2];
            for (int r = 0; r < 2; r++) {
                DType dt = r == 0 ? DType.FLOAT32 : DType.FLOAT64;
                in[r] = new Variable[] {Variable.of(q.to(dt), true), Variable.of(k.to(dt), true), Variable.of(v.to(dt), true)};
                out[r] = Attention.scaledDotProduct(in[r][0], in[r][1], in[r][2], mask, causal, scale);
                out[r].mul(Variable.of(weights.to(dt))).sum().backward();
            }
            String label = tq + " x " + sk + ", " + (mask == null ? "no mask" : mask == padding ? "padding" : "row mask") + (causal ? ", causal" : "")
                    + ", scale " + scale;
            assertArrayEquals(out[1].data().toDoubleArray(), out[0].data().toDoubleArray(), 1e-5, label);
            for (int i = 0; i < 3; i++) {
                assertArrayEquals(in[1][i].grad().toDoubleArray(), in[0][i].grad().toDoubleArray(), 1e-4, label + ": gradient " + "qkv".charAt(i));
            }
            if (mask == padding) {
                // batch 1 has no key to attend to: zero output, zero gradient for its queries
                assertEquals(0.0, out[0].data().select(0, 1).abs().sum().item(), 0.0, label);
                assertEquals(0.0, in[0][0].grad().select(0, 1).abs().sum().item(), 0.0, label);
            }
        }
    }
}
