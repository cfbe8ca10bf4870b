package dev.jgrad.examples.train;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Variable;
import dev.jgrad.examples.UserError;
import dev.jgrad.examples.report.Metrics;
import dev.jgrad.nn.data.CharTokenizer;
import dev.jgrad.nn.gpt.GPT;
import dev.jgrad.nn.gpt.GPTConfig;
import dev.jgrad.nn.io.AtomicFile;
import dev.jgrad.nn.io.AtomicFileSet;
import dev.jgrad.nn.io.BoundedFiles;
import dev.jgrad.nn.optim.AdamW;
import dev.jgrad.nn.optim.ClipGrad;
import dev.jgrad.nn.optim.LrScheduler;
import dev.jgrad.nn.optim.ParamGroup;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Memory;
import dev.jgrad.tensor.Tensor;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

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

    /** nanoGPT's flags, with its CPU run as the defaults. */
    public static final class Settings {
        public int blockSize = 64;
        public int batchSize = 12;
        public int nLayer = 4;
        public int nHead = 4;
        public int nEmbd = 128;
        public double dropout = 0.0;
        public boolean bias = false;
        public int maxIters = 2000;
        public int lrDecayIters = 2000;
        public int warmupIters = 100;
        public double learningRate = 1e-3;
        public double minLr = 1e-4;
        public double beta1 = 0.9;
        public double beta2 = 0.99;
        public double weightDecay = 0.1;
        public double gradClip = 1.0;
        public int evalInterval = 250;
        public int evalIters = 20;
        public int sampleTokens = 200;
    }

    public record Outcome(double trainLoss, double valLoss, int iterations, Path dir) {
    }

    private GptExample() {
    }

    public static Outcome run(Path data, Settings s, TrainOptions o, PrintStream out) {
        long started = System.nanoTime();
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
        Path dir = RunDirectory.prepare(o, "gpt");
        GPT model = new GPT(config, new Generator(o.seed() + 1));
        AdamW opt = new AdamW(ParamGroup.decayMatrices(model.parameters(), s.weightDecay), s.learningRate, s.beta1, s.beta2, 1e-8);
        String resumed = RunFiles.resume(o.resume(), model, opt);
        // The optimizer's saved rate is where its schedule had taken it; the schedule starts from the configured one.
        opt.setLr(s.learningRate);
        LrScheduler schedule = LrScheduler.warmupCosineNanoGpt(opt, s.warmupIters, s.lrDecayIters, s.minLr);
        out.printf(Locale.ROOT, "jgrad train gpt: %s, %d characters (vocabulary %d), %d for training, %d held out; GPT %d layers, %d heads,"
                        + " width %d, block %d (%.2fM parameters); batch %d, AdamW lr %s (warm-up %d, cosine to %s at %d), %d iterations%s%n",
                data, all.length, tok.vocabSize(), train.length, val.length, s.nLayer, s.nHead, s.nEmbd, s.blockSize,
                model.nonEmbeddingParameterCount() / 1e6, s.batchSize, s.learningRate, s.warmupIters, s.minLr, s.lrDecayIters, s.maxIters,
                resumed == null ? "" : "; " + resumed);
        Generator batches = new Generator(o.seed());
        Generator evalBatches = new Generator(o.seed() + 2);
        Generator sampling = new Generator(o.seed() + 3);
        Metrics metrics = new Metrics();
        int rounds = Math.max(1, (s.maxIters + s.evalInterval - 1) / s.evalInterval);
        // A round is --eval-interval iterations, not a pass over the text: its line says "round", never "epoch".
        Progress progress = new Progress("gpt", "round", rounds, Math.min(s.evalInterval, Math.max(1, s.maxIters)));
        double bestVal = Double.POSITIVE_INFINITY;
        double[] last = {Double.NaN, Double.NaN};
        int lastEval = 0;
        int round = 0;
        double sum = 0;
        int count = 0;
        // The training loss every --log-every iterations (split train_step).
        int logEvery = Trainer.logEvery;
        StepLossWindow window = new StepLossWindow();
        RunPosition.clear();
        // A run resumed in its own folder goes on from its checkpoint (the best evaluation so far): the iteration, the
        // schedule, the random generators, the curves up to there; the iterations after it run again, drawing the same.
        Map<String, String> resumeMeta = RunFiles.continuingMetadata(o.resume(), dir);
        int startIt = 0;
        boolean evaluated = false;
        if (resumeMeta != null && resumeMeta.containsKey(ITERATION)) {
            try {
                startIt = Integer.parseInt(resumeMeta.get(ITERATION));
                batches.restore(resumeMeta.get(RNG_BATCHES));
                evalBatches.restore(resumeMeta.get(RNG_EVAL));
                sampling.restore(resumeMeta.get(RNG_SAMPLING));
                bestVal = Double.parseDouble(resumeMeta.get(BEST_VAL));
                sum = Double.parseDouble(resumeMeta.getOrDefault(STEP_LOSS_SUM, "0"));
                window = StepLossWindow.of(resumeMeta);
            } catch (RuntimeException e) {
                throw new UserError("--resume: " + o.resume() + " does not say where its run stood (" + e.getMessage() + ")");
            }
            count = startIt;
            for (int k = 0; k < startIt; k++) {
                schedule.step();
            }
            for (Metrics.Row r : RunFiles.readMetrics(dir)) {
                if (r.step() <= startIt) {
                    metrics.add(r.step(), r.epoch(), r.series(), r.split(), r.loss());
                }
            }
            last = new double[] {metrics.last("gpt", "train"), metrics.last("gpt", "val")};
            lastEval = startIt;
            round = startIt / s.evalInterval + 1;
            evaluated = true;
            out.printf(Locale.ROOT, "continuing at iteration %d (its evaluation: train %.4f, val %.4f)%n", startIt, last[0], last[1]);
            progress.startEpoch(round);
        }
        for (int it = startIt; it <= s.maxIters; it++) {
            if (Interrupt.requested()) {
                // The checkpoint of the best evaluation so far stays; the curves so far are written below.
                break;
            }
            if ((it % s.evalInterval == 0 || it == s.maxIters) && !(evaluated && it == startIt)) {
                last = new double[] {estimate(model, train, s, evalBatches), estimate(model, val, s, evalBatches)};
                lastEval = it;
                metrics.add(it, round, "gpt", "train", last[0]);
                metrics.add(it, round, "gpt", "val", last[1]);
                if (it > 0) {
                    progress.endEpoch(String.format(Locale.ROOT, "iteration %d: eval train %.4f, val %.4f", it, last[0], last[1]));
                } else {
                    out.printf(Locale.ROOT, "iteration 0: train loss %.4f, val loss %.4f%n", last[0], last[1]);
                }
                out.println("  sample: " + oneLine(tok.decode(sample(model, tok, s.sampleTokens, sampling))));
                if (last[1] < bestVal && it > 0) {
                    bestVal = last[1];
                    Map<String, String> position = new LinkedHashMap<>();
                    position.put(ITERATION, Integer.toString(it));
                    position.put(RNG_BATCHES, batches.state());
                    position.put(RNG_EVAL, evalBatches.state());
                    position.put(RNG_SAMPLING, sampling.state());
                    position.put(BEST_VAL, Double.toString(bestVal));
                    position.put(STEP_LOSS_SUM, Double.toString(sum));
                    window.writeTo(position);
                    save(dir, model, opt, tok, config, position, metrics);
                }
                if (it == s.maxIters) {
                    break;
                }
                round++;
                progress.startEpoch(round);
            }
            double loss;
            try (Memory.Scope scope = Memory.scope()) {
                Tensor[] b = batch(train, s, batches);
                opt.zeroGrad();
                Variable l = model.loss(b[0], b[1]);
                loss = l.item();
                if (!Double.isFinite(loss) && !o.allowNan()) {
                    throw new UserError(String.format(Locale.ROOT, "the gpt loss is %s at iteration %d: the run stopped, the checkpoint of the"
                            + " best evaluation so far is kept (lower --lr, or pass --allow-nan to go on)", loss, it));
                }
                l.backward();
                if (s.gradClip > 0) {
                    ClipGrad.clipGradNorm(opt.params(), s.gradClip);
                }
                opt.step();
                schedule.step();
            }
            sum += loss;
            count++;
            OptionalDouble logged = window.add(loss, logEvery);
            if (logged.isPresent()) {
                metrics.add(it + 1, round, "gpt", Trainer.STEP_SPLIT, logged.getAsDouble());
            }
            progress.step(loss);
            Interrupt.at("iteration " + (it + 1));
            Interrupt.stepped(it + 1);
        }
        String subtitle = String.format(Locale.ROOT, "val loss %.4f at iteration %d  (seed %d)", last[1], lastEval, o.seed());
        AtomicFileSet files = RunFiles.curves(dir, metrics, "gpt: character-level language model, cross-entropy", subtitle);
        Map<String, Object> series = new LinkedHashMap<>();
        series.put("train_loss", last[0]);
        series.put("val_loss", last[1]);
        series.put("iterations", count);
        series.put("mean_step_loss", count == 0 ? Double.NaN : sum / count);
        RunFiles.addSummary(files, "gpt", o.seed(), (System.nanoTime() - started) / 1e9, Map.of("gpt", series));
        RunFiles.commit(files);
        out.printf(Locale.ROOT, "Wrote %s/{metrics.csv, loss.png, summary.json%s} in %.1f s%n", dir,
                bestVal < Double.POSITIVE_INFINITY ? ", model.safetensors, optimizer.safetensors, tokenizer.json" : "",
                (System.nanoTime() - started) / 1e9);
        return new Outcome(last[0], last[1], count, dir);
    }

    /** The shortest text whose 90/10 split leaves more than a block in both parts. */
    static int minimumLength(int blockSize) {
        int n = blockSize + 1;
        while (!splits(n, blockSize)) {
            n++;
        }
        return n;
    }

    static boolean splits(int length, int blockSize) {
        int train = (int) (0.9 * length);
        return train > blockSize && length - train > blockSize;
    }

    private static String readText(Path data) {
        try {
            return BoundedFiles.readUtf8(data, MAX_TEXT_BYTES, "text");
        } catch (IOException e) {
            throw new UserError("--data: " + AtomicFile.reason(e), e);
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
            model.train();
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

    private static final String ITERATION = "iteration";
    private static final String RNG_BATCHES = "jgrad.rng.batches";
    private static final String RNG_EVAL = "jgrad.rng.eval";
    private static final String RNG_SAMPLING = "jgrad.rng.sampling";
    private static final String BEST_VAL = "jgrad.best_val";
    private static final String STEP_LOSS_SUM = "jgrad.step_loss_sum";

    /** The checkpoint of the best evaluation: the model, the optimizer, the tokenizer and the curves so far, replaced together. */
    private static void save(Path dir, GPT model, AdamW opt, CharTokenizer tok, GPTConfig config, Map<String, String> position,
                             Metrics metrics) {
        Map<String, String> meta = new LinkedHashMap<>(config.toMetadata());
        meta.put("example", "gpt");
        meta.putAll(position);
        AtomicFileSet files = new AtomicFileSet(dir).addString(TOKENIZER, tok.toJson()).addString("metrics.csv", metrics.toCsv());
        RunFiles.addCheckpoint(files, dir, model, opt, meta);
        RunFiles.commit(files);
    }
}
