package dev.jgrad.examples.train;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.examples.UserError;
import dev.jgrad.nn.data.CharTokenizer;
import dev.jgrad.nn.gpt.GPT;
import dev.jgrad.nn.gpt.BabyGpt;
import dev.jgrad.nn.gpt.GPTConfig;
import dev.jgrad.nn.io.AtomicFile;
import dev.jgrad.nn.io.BoundedFiles;
import dev.jgrad.nn.optim.AdamW;
import dev.jgrad.nn.optim.LrScheduler;
import dev.jgrad.nn.optim.ParamGroup;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Memory;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.train.Batches;
import dev.jgrad.train.Evaluation;
import dev.jgrad.train.Fit;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * nanoGPT's character-level Shakespeare run on the CPU: a GPT trained on a text file's characters with AdamW (decay on
 * the 2-d weights only), nanoGPT's warm-up and cosine schedule and gradient clipping, evaluated on a 90/10 split every
 * {@code evalInterval} iterations, with a sample printed at each evaluation. The checkpoint and the tokenizer are
 * written whenever the validation loss improves, each atomically.
 */
public final class GptExample {
    /** The largest text read: 256 MB of characters is far beyond what a CPU run gets through. */
    static final long MAX_TEXT_BYTES = 256L << 20;
    static final String TOKENIZER = "tokenizer.json";

    /** nanoGPT's flags, with its CPU run ({@link BabyGpt}) as the defaults. */
    public static final class Settings {
        public int blockSize = BabyGpt.BLOCK_SIZE;
        public int batchSize = BabyGpt.BATCH_SIZE;
        public int nLayer = BabyGpt.N_LAYER;
        public int nHead = BabyGpt.N_HEAD;
        public int nEmbd = BabyGpt.N_EMBD;
        public double dropout = 0.0;
        public boolean bias = false;
        public int maxIters = BabyGpt.MAX_ITERS;
        public int lrDecayIters = BabyGpt.LR_DECAY_ITERS;
        public int warmupIters = BabyGpt.WARMUP_ITERS;
        public double learningRate = BabyGpt.LEARNING_RATE;
        public double minLr = BabyGpt.MIN_LR;
        public double beta1 = BabyGpt.BETA1;
        public double beta2 = BabyGpt.BETA2;
        public double weightDecay = BabyGpt.WEIGHT_DECAY;
        public double gradClip = BabyGpt.GRAD_CLIP;
        public int evalInterval = 250;
        public int evalIters = 20;
        public int sampleTokens = 200;
    }

    public record Outcome(double trainLoss, double valLoss, int iterations, Path dir) {
    }

    private GptExample() {
    }

    public static Outcome run(Path data, Settings s, TrainOptions o, PrintStream out) {
        String text = readText(data);
        CharTokenizer tok = CharTokenizer.fromText(text);
        long[] all = tok.encode(text);
        int n = (int) (0.9 * all.length);
        long[] train = java.util.Arrays.copyOfRange(all, 0, n);
        long[] val = java.util.Arrays.copyOfRange(all, n, all.length);
        if (!splits(all.length, s.blockSize)) {
            throw new UserError(data + ": " + all.length + " characters are too few for a block of " + s.blockSize + ": the 90/10 split"
                    + " needs more than " + s.blockSize + " in the validation part, so at least " + minimumLength(s.blockSize)
                    + " characters (or a smaller --block-size)");
        }
        GPTConfig config = new GPTConfig(s.blockSize, tok.vocabSize(), s.nLayer, s.nHead, s.nEmbd, s.dropout, s.bias);
        HeapCheck.require("a GPT of " + s.nLayer + " layers, width " + s.nEmbd + ", block " + s.blockSize + ", batch " + s.batchSize,
                trainingBytes(config, s.batchSize), "smaller sizes (--n-layer, --n-embd, --block-size, --batch-size)");
        GPT model = new GPT(config, new Generator(o.seed() + 1));
        AdamW opt = new AdamW(ParamGroup.decayMatrices(model.parameters(), s.weightDecay), s.learningRate, s.beta1, s.beta2, BabyGpt.EPS);
        LrScheduler schedule = LrScheduler.warmupCosineNanoGpt(opt, s.warmupIters, s.lrDecayIters, s.minLr);
        out.printf(Locale.ROOT, "jgrad train gpt: %s, %d characters (vocabulary %d), %d for training, %d held out; GPT %d layers, %d heads,"
                        + " width %d, block %d (%.2fM parameters); batch %d, AdamW lr %s (warm-up %d, cosine to %s at %d), %d iterations%n",
                data, all.length, tok.vocabSize(), train.length, val.length, s.nLayer, s.nHead, s.nEmbd, s.blockSize,
                model.nonEmbeddingParameterCount() / 1e6, s.batchSize, s.learningRate, s.warmupIters, s.minLr, s.lrDecayIters, s.maxIters);
        Generator batches = new Generator(o.seed());
        Generator evalBatches = new Generator(o.seed() + 2);
        Generator sampling = new Generator(o.seed() + 3);
        double[] last = {Double.NaN, Double.NaN};
        double[] meanStep = {Double.NaN};
        Fit.Result r = o.applyTo(Fit.of(model, opt, Batches.drawn(batches, g -> List.of(batch(train, s, g)))), "gpt")
                .series("gpt")
                .periodName("round")
                .loss(b -> model.loss(b.get(0), b.get(1)))
                .steps(s.maxIters)
                .itemsPerStep((long) s.batchSize * s.blockSize, "tokens")
                .evaluateEvery(s.evalInterval)
                .evaluateAtStart()
                .saveBest()
                .clipGradNorm(s.gradClip)
                .schedule(schedule)
                .state("eval", evalBatches)
                .state("sampling", sampling)
                .evaluate(() -> {
                    // nanoGPT's estimate_loss: both splits on random batches, then a sample of what the model writes now.
                    last[0] = estimate(model, train, s, evalBatches);
                    last[1] = estimate(model, val, s, evalBatches);
                    Evaluation ev = Evaluation.of(last[1]).train(last[0]);
                    return s.sampleTokens == 0 ? ev : ev.text("sample", oneLine(tok.decode(sample(model, tok, s.sampleTokens, sampling))));
                })
                .metadata(config.toMetadata())
                .file(TOKENIZER, tok.toJson())
                .title("gpt: character-level language model, cross-entropy")
                .atEnd(end -> {
                    meanStep[0] = end.meanStepLoss("gpt");
                    end.subtitle(String.format(Locale.ROOT, "val loss %.4f at iteration %d; saved: iteration %d, val %.4f  (seed %d)", last[1],
                            end.steps(), end.bestStep(), end.bestHeldOut(), o.seed()));
                    end.summary("gpt", "train_loss", last[0]).summary("gpt", "iterations", end.steps())
                            .summary("gpt", "mean_step_loss", meanStep[0]);
                })
                .run(out);
        return new Outcome(last[0], last[1], (int) r.steps(), r.dir());
    }

    /** The shortest text whose 90/10 split leaves more than a block in both parts. */
    static long minimumLength(int blockSize) {
        // The validation part is about a tenth of the text: start just below ten blocks and count up (a few steps at most).
        long n = Math.max(blockSize + 1L, 10L * (blockSize + 1L) - 20);
        while (!splits(n, blockSize)) {
            n++;
        }
        return n;
    }

    static boolean splits(long length, int blockSize) {
        long train = (long) (0.9 * length);
        return train > blockSize && length - train > blockSize;
    }

    /**
     * About what training a GPT of {@code config} on batches of {@code batch} takes: the weights, their gradients and AdamW's
     * two moments, and each layer's activations kept for backward (a few tensors of the width, the attention weights, the
     * logits). An estimate within a factor of about two, to refuse at once a model the heap cannot hold.
     */
    static long trainingBytes(GPTConfig config, int batch) {
        // In double: the sizes of a hostile command line overflow a long.
        double tokens = (double) batch * config.blockSize();
        double perLayer = 16.0 * config.nEmbd() + 3.0 * config.nHead() * config.blockSize();
        double activations = tokens * (config.nLayer() * perLayer + 3.0 * config.vocabSize());
        double bytes = 4 * (4.0 * config.parameterCount() + activations);
        return bytes >= 0x1p63 ? Long.MAX_VALUE : (long) bytes;
    }

    private static String readText(Path data) {
        try {
            return BoundedFiles.readUtf8(data, MAX_TEXT_BYTES, "text");
        } catch (IOException e) {
            throw new UserError("--data " + data + ": " + AtomicFile.reason(e), e);
        }
    }

    /** nanoGPT's {@code get_batch}: random offsets, inputs and the same windows shifted by one. */
    static Tensor[] batch(long[] data, Settings s, Generator g) {
        long[] x = new long[s.batchSize * s.blockSize];
        long[] y = new long[s.batchSize * s.blockSize];
        for (int r = 0; r < s.batchSize; r++) {
            int i = g.nextInt(data.length - s.blockSize);
            System.arraycopy(data, i, x, r * s.blockSize, s.blockSize);
            System.arraycopy(data, i + 1, y, r * s.blockSize, s.blockSize);
        }
        return new Tensor[] {Tensor.of(x, s.batchSize, s.blockSize), Tensor.of(y, s.batchSize, s.blockSize)};
    }

    /** nanoGPT's {@code estimate_loss}: the mean loss of {@code evalIters} random batches, in eval mode, recording off. */
    static double estimate(GPT model, long[] data, Settings s, Generator g) {
        boolean training = model.isTraining();
        model.eval();
        double total = 0;
        try (NoGrad ng = NoGrad.enter()) {
            for (int k = 0; k < s.evalIters; k++) {
                try (Memory.Scope scope = Memory.scope()) {
                    Tensor[] b = batch(data, s, g);
                    total += model.loss(b[0], b[1]).item();
                }
            }
        } finally {
            model.train(training);
        }
        return total / s.evalIters;
    }

    private static long[] sample(GPT model, CharTokenizer tok, int tokens, Generator g) {
        if (tokens <= 0) {
            return new long[0];
        }
        long start = tok.contains('\n') ? tok.encode("\n")[0] : 0;
        Tensor out = model.generate(Tensor.of(new long[] {start}, 1, 1), tokens, 0.8, 200, g, null);
        long[] all = out.toLongArray();
        return java.util.Arrays.copyOfRange(all, 1, all.length);
    }

    private static String oneLine(String s) {
        return s.replace("\n", " / ");
    }
}
