package dev.jgrad.nn.gpt;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Generation against its definition, nanoGPT's loop without a cache: run the whole cropped window, take the last
 * position's logits, pick. The cache, and the last block computing the last position alone, must change no token.
 */
class GptGenerateTest {
    /** Block 8, vocabulary 11, 2 layers of 2 heads of width 3 each: every axis a different size. */
    private static GPT model(boolean bias, long seed) {
        GPT m = new GPT(new GPTConfig(8, 11, 2, 2, 6, 0.0, bias), new Generator(seed));
        m.eval();
        return m;
    }

    /** nanoGPT's greedy {@code generate}: the whole window every step. */
    private static long[] naiveGreedy(GPT m, long[] prompt, int n) {
        long[] out = java.util.Arrays.copyOf(prompt, prompt.length + n);
        try (NoGrad g = NoGrad.enter()) {
            for (int len = prompt.length; len < out.length; len++) {
                int from = Math.max(0, len - m.config().blockSize());
                Tensor window = Tensor.of(java.util.Arrays.copyOfRange(out, from, len), 1, len - from);
                Tensor logits = m.forward(window).data().select(1, len - from - 1);
                out[len] = logits.argmax(-1, false).toLongArray()[0];
            }
        }
        return out;
    }

    @Test
    void greedyTokensEqualNanoGptsLoopWithoutACacheWellPastTheBlock() {
        for (boolean bias : new boolean[] {false, true}) {
            for (long seed = 1; seed <= 4; seed++) {
                GPT m = model(bias, seed);
                long[] prompt = {3, 7, 1};
                long[] want = naiveGreedy(m, prompt, 29);
                Tensor got = m.generate(Tensor.of(prompt, 1, 3), 29, 0.0, 0, new Generator(0), null);
                assertArrayEquals(want, got.toLongArray(), "bias " + bias + ", seed " + seed);
            }
        }
    }

    @Test
    void theLastPositionsLogitsAloneEqualTheLastRowOfTheWholeWindow() {
        GPT m = model(true, 9);
        Generator g = new Generator(5);
        for (int t = 1; t <= 8; t++) {
            long[] ids = new long[2 * t];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = g.nextInt(11);
            }
            Tensor idx = Tensor.of(ids, 2, t);
            try (NoGrad ng = NoGrad.enter()) {
                float[] whole = m.forward(idx).data().select(1, t - 1).toFloatArray();
                float[] last = m.lastPositionLogits(idx, new KvCache(m.config(), 2)).toFloatArray();
                assertEquals(whole.length, last.length);
                for (int i = 0; i < whole.length; i++) {
                    assertEquals(whole[i], last[i], 1e-5f * (1 + Math.abs(whole[i])), "t " + t + ", logit " + i);
                }
            }
        }
    }
}
