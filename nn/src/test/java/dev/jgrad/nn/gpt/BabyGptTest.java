package dev.jgrad.nn.gpt;

import dev.jgrad.nn.optim.AdamW;
import dev.jgrad.nn.optim.LrScheduler;
import dev.jgrad.tensor.Generator;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The baby GPT recipe against what nanoGPT's CPU run prints and does. */
class BabyGptTest {
    /** nanoGPT prints "number of parameters: 0.80M" for this model on Tiny Shakespeare's 65 symbols: 795,904 without wpe. */
    @Test
    void theModelHasNanoGptsParameterCount() {
        GPT model = new GPT(BabyGpt.config(65), new Generator(1));
        assertEquals(795_904, model.nonEmbeddingParameterCount());
        assertEquals(64, model.config().blockSize());
    }

    /** train.py's get_lr at the warm-up's first step and end, half way through the decay, at its end and past it. */
    @Test
    void theScheduleIsTrainPysGetLr() {
        GPT model = new GPT(BabyGpt.config(11), new Generator(2));
        AdamW opt = BabyGpt.optimizer(model);
        LrScheduler schedule = BabyGpt.schedule(opt);
        double[] want = new double[2101];
        for (int it = 0; it < want.length; it++) {
            if (it < 100) {
                want[it] = 1e-3 * (it + 1) / 101;
            } else if (it > 2000) {
                want[it] = 1e-4;
            } else {
                double ratio = (it - 100) / 1900.0;
                want[it] = 1e-4 + 0.5 * (1 + Math.cos(Math.PI * ratio)) * (1e-3 - 1e-4);
            }
        }
        for (int it = 0; it < want.length; it++) {
            if (it > 0) {
                schedule.step();
            }
            if (it == 0 || it == 99 || it == 100 || it == 1050 || it == 2000 || it == 2100) {
                assertEquals(want[it], opt.lr(), 1e-15, "learning rate at iteration " + it);
            }
        }
        assertEquals(1e-3 / 101, want[0], 0.0);
        assertEquals(5.5e-4, want[1050], 1e-15);
    }
}
