package dev.jgrad.nn.gpt;

import dev.jgrad.nn.optim.AdamW;
import dev.jgrad.nn.optim.LrScheduler;
import dev.jgrad.nn.optim.ParamGroup;

/**
 * nanoGPT's CPU run, the "baby GPT" its README trains on Tiny Shakespeare on a laptop: the sizes, the AdamW and the
 * learning-rate schedule of that run in one place. {@code jgrad train gpt} takes its defaults from here, and the
 * benchmarks (W12) and the twin run beside PyTorch train with them, so none of them drifts from the others.
 */
public final class BabyGpt {
    public static final int BLOCK_SIZE = 64;
    public static final int BATCH_SIZE = 12;
    public static final int N_LAYER = 4;
    public static final int N_HEAD = 4;
    public static final int N_EMBD = 128;
    public static final int MAX_ITERS = 2000;
    public static final int LR_DECAY_ITERS = 2000;
    public static final int WARMUP_ITERS = 100;
    public static final double LEARNING_RATE = 1e-3;
    public static final double MIN_LR = 1e-4;
    public static final double BETA1 = 0.9;
    public static final double BETA2 = 0.99;
    public static final double WEIGHT_DECAY = 0.1;
    public static final double GRAD_CLIP = 1.0;
    /** AdamW's epsilon: PyTorch's default, which nanoGPT keeps. */
    public static final double EPS = 1e-8;

    private BabyGpt() {
    }

    /** The model's config for a vocabulary of {@code vocabSize} symbols: no dropout, no biases. */
    public static GPTConfig config(int vocabSize) {
        return new GPTConfig(BLOCK_SIZE, vocabSize, N_LAYER, N_HEAD, N_EMBD, 0.0, false);
    }

    /** AdamW as nanoGPT's {@code configure_optimizers} makes it: weight decay on the matrices, none on the rest. */
    public static AdamW optimizer(GPT model) {
        return new AdamW(ParamGroup.decayMatrices(model.parameters(), WEIGHT_DECAY), LEARNING_RATE, BETA1, BETA2, EPS);
    }

    /** train.py's {@code get_lr}: a linear warm-up, then a cosine decay to {@link #MIN_LR}. */
    public static LrScheduler schedule(AdamW opt) {
        return LrScheduler.warmupCosineNanoGpt(opt, WARMUP_ITERS, LR_DECAY_ITERS, MIN_LR);
    }
}
