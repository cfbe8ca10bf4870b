package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Index;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The masks do their job: what a mask hides cannot change any output it must not reach. B=2, T=5, E=8, H=2. */
class AttentionMaskTest {
    private static final int B = 2;
    private static final int T = 5;
    private static final int E = 8;

    private final MultiheadAttention mha = new MultiheadAttention(E, 2, new Generator(3));
    private final Generator gen = new Generator(9);

    /** Batch 0 has 5 real tokens, batch 1 has 3 (positions 3 and 4 are padding). */
    private static Tensor padding() {
        return Tensor.of(new boolean[] {false, false, false, false, false, false, false, false, true, true}, B, T);
    }

    private Tensor run(Tensor x, Tensor kpm, boolean causal) {
        return mha.forward(Variable.of(x), kpm, causal).data();
    }

    @Test
    void changingAPaddedKeyChangesNoOutput() {
        Tensor x = Tensor.randn(gen, B, T, E);
        Tensor y = run(x, padding(), false);
        Tensor x2 = x.clone();
        x2.index(Index.at(1), Index.slice(3, 5)).copyFrom(Tensor.randn(gen, 2, E).mul(10));
        Tensor y2 = run(x2, padding(), false);
        // the real positions of batch 1 and all of batch 0 are unchanged
        assertArrayEquals(y.index(Index.at(0)).toFloatArray(), y2.index(Index.at(0)).toFloatArray(), 1e-6f);
        assertArrayEquals(y.index(Index.at(1), Index.slice(0, 3)).toFloatArray(), y2.index(Index.at(1), Index.slice(0, 3)).toFloatArray(), 1e-6f);
    }

    @Test
    void changingAFutureTokenChangesNoEarlierOutput() {
        Tensor x = Tensor.randn(gen, B, T, E);
        Tensor y = run(x, null, true);
        for (int t = 1; t < T; t++) {
            Tensor x2 = x.clone();
            x2.index(Index.ALL, Index.at(t)).copyFrom(Tensor.randn(gen, B, E).mul(10));
            Tensor y2 = run(x2, null, true);
            assertArrayEquals(y.slice(1, 0, t).toFloatArray(), y2.slice(1, 0, t).toFloatArray(), 1e-6f, "position " + t + " leaked backwards");
            assertTrue(y.select(1, t).sub(y2.select(1, t)).abs().amax().item() > 1e-3, "position " + t + " sees itself");
        }
    }

    /** A padding mask over queries (B,1,T,1) instead of keys (B,1,1,S) is a different, wrong model. */
    @Test
    void aQueryMaskIsADifferentModel() {
        Variable q = Variable.of(Tensor.randn(gen, B, 2, T, 4));
        Variable k = Variable.of(Tensor.randn(gen, B, 2, T, 4));
        Variable v = Variable.of(Tensor.randn(gen, B, 2, T, 4));
        Tensor pad = padding();
        Tensor keys = pad.view(B, 1, 1, T);
        Tensor queries = pad.view(B, 1, T, 1);
        Tensor right = Attention.scaledDotProduct(q, k, v, keys, false, Double.NaN).data();
        Tensor wrong = Attention.scaledDotProduct(q, k, v, queries, false, Double.NaN).data();
        // the wrong mask lets real queries of batch 1 attend to the padded keys...
        assertTrue(right.index(Index.at(1), Index.ALL, Index.slice(0, 3)).sub(wrong.index(Index.at(1), Index.ALL, Index.slice(0, 3))).abs().amax().item() > 1e-3);
        // ...and with the right mask, changing the padded keys and values changes nothing
        Variable k2 = Variable.of(k.data().clone());
        k2.data().index(Index.at(1), Index.ALL, Index.slice(3, 5)).fill(50);
        Variable v2 = Variable.of(v.data().clone());
        v2.data().index(Index.at(1), Index.ALL, Index.slice(3, 5)).fill(-50);
        assertArrayEquals(right.toFloatArray(), Attention.scaledDotProduct(q, k2, v2, keys, false, Double.NaN).data().toFloatArray(), 1e-6f);
        assertTrue(Attention.scaledDotProduct(q, k2, v2, queries, false, Double.NaN).data().sub(wrong).abs().amax().item() > 1,
                "the query mask lets the padded keys through");
    }

    @Test
    void aQueryWithEveryKeyMaskedGivesZerosAndZeroGradientNotNan() {
        Variable x = Variable.of(Tensor.randn(gen, B, T, E), true);
        Tensor allPadded = Tensor.of(new boolean[] {false, false, false, false, false, true, true, true, true, true}, B, T);
        Variable y = mha.forward(x, allPadded, false);
        assertTrue(y.data().allFinite());
        y.sum().backward();
        assertTrue(x.grad().allFinite());
        for (Parameter p : mha.parameters()) {
            assertTrue(p.grad().allFinite(), "NaN gradient in a parameter");
        }
        // batch 1's attention output before out_proj is zero, so its output is out_proj's bias (zero at init)
        assertEquals(0.0, y.data().index(Index.at(1)).abs().amax().item(), 1e-6);
    }

    @Test
    void maskSizesAreCheckedWithClearMessages() {
        Variable x = Variable.of(Tensor.randn(gen, B, T, E));
        dev.jgrad.tensor.ShapeException e = org.junit.jupiter.api.Assertions.assertThrows(dev.jgrad.tensor.ShapeException.class,
                () -> mha.forward(x, padding().view(B, 1, 1, T), false));
        assertTrue(e.getMessage().startsWith("key_padding_mask must be bool (B, S) = [2, 5]"), e.getMessage());
    }

    /** A float mask is added to the scores, in the functional form and in the module: both go through one implementation. */
    @Test
    void aFloatMaskIsAddedToTheScores() {
        Variable q = Variable.of(Tensor.randn(gen, B, 2, T, 4));
        Variable k = Variable.of(Tensor.randn(gen, B, 2, T, 4));
        Variable v = Variable.of(Tensor.randn(gen, B, 2, T, 3));
        Tensor bias = Tensor.randn(gen, T, T);
        Tensor got = Attention.scaledDotProduct(q, k, v, bias, false, Double.NaN).data();
        Tensor expected = q.data().matmul(k.data().mT()).mul(0.5).add(bias).softmax(-1).matmul(v.data());
        assertArrayEquals(expected.toFloatArray(), got.toFloatArray(), 1e-6f);
        // -inf in a float mask hides what true hides in a bool one.
        Tensor hidden = Attention.causalMask(T, T);
        Tensor asFloat = Tensor.zeros(T, T).maskedFill(hidden, Double.NEGATIVE_INFINITY);
        assertArrayEquals(Attention.scaledDotProduct(q, k, v, hidden, false, Double.NaN).data().toFloatArray(),
                Attention.scaledDotProduct(q, k, v, asFloat, false, Double.NaN).data().toFloatArray(), 1e-6f);
        Variable x = Variable.of(Tensor.randn(gen, B, T, E));
        assertArrayEquals(mha.forward(x, x, x, padding(), hidden, false).data().toFloatArray(),
                mha.forward(x, x, x, padding(), asFloat, false).data().toFloatArray(), 1e-6f);
    }
}
