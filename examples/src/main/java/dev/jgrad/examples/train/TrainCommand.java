package dev.jgrad.examples.train;

import dev.jgrad.nn.gpt.BabyGpt;
import dev.jgrad.tensor.Backend;
import dev.jgrad.train.Interrupt;
import dev.jgrad.train.dashboard.Dashboard;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code jgrad train EXAMPLE [flags]}: the example trainers. */
@Command(name = "train", mixinStandardHelpOptions = true,
        description = "Train one of the examples and leave metrics.csv, loss.png, summary.json and model.safetensors in --out.",
        subcommands = {TrainCommand.Regression.class, TrainCommand.Attention.class, TrainCommand.Mlp.class, TrainCommand.Fashion.class,
            TrainCommand.Pinn.class, TrainCommand.Gpt.class})
public final class TrainCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "name the example to train: " + String.join(", ", spec.subcommands().keySet()));
    }

    /** What every example command shares: the flags, their checks, then the example's own training. */
    public abstract static class Example implements Callable<Integer> {
        @Mixin
        TrainOptions options;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            // From here Ctrl-C during the set-up (reading data, building the model) stops at once, and during training at the
            // end of a step.
            Interrupt.install();
            ResumeOptions.apply(this, spec, options, notTaken());
            options.validate(spec);
            if (options.threads != null) {
                Backend.setThreads(options.threads);
            }
            options.command = this;
            options.notTaken = notTaken();
            if (options.master != null && options.worker == null) {
                return SparkWorkers.run(spec, options);
            }
            tuneOnFirstUse();
            try (Dashboard page = options.dashboard ? dashboard() : null; DataParallelWorkers workers = DataParallelWorkers.start(spec, options)) {
                train();
                if (workers != null) {
                    workers.finish();
                }
            }
            if (Interrupt.requested()) {
                java.nio.file.Path dir = Interrupt.runDir() != null ? Interrupt.runDir() : options.out();
                System.err.println("jgrad: interrupted at " + Interrupt.where() + "; what was trained so far is saved; resume with: ./jgrad train "
                        + spec.name() + " --resume " + quoted(dir.toString()));
                return 130;
            }
            return 0;
        }

        abstract void train();

        /** The live page of the runs beside this one, on --dashboard-port or, where that is taken, another free port. */
        private Dashboard dashboard() {
            java.nio.file.Path folder = options.runsFolder();
            try {
                java.nio.file.Files.createDirectories(folder);
                Dashboard d;
                try {
                    d = Dashboard.start(folder, "127.0.0.1", options.dashboardPort);
                } catch (java.io.IOException taken) {
                    d = Dashboard.start(folder, "127.0.0.1", 0);
                }
                System.out.println("jgrad dashboard: " + d.address() + " (the runs under " + folder + "; it stops with this run)");
                return d;
            } catch (java.io.IOException e) {
                throw new dev.jgrad.examples.UserError("--dashboard: " + e.getMessage());
            }
        }

        /**
         * The first training run on a processor measures its tuning first (a few seconds, said in a line), where the
         * launcher asks for it ({@code -Djgrad.autotune=true}); programs and tests that run the trainers never do.
         */
        private void tuneOnFirstUse() {
            if (!Boolean.getBoolean("jgrad.autotune") || Backend.tuned()) {
                return;
            }
            System.err.println("jgrad: first run on this processor: measuring its tuning once (./jgrad tune measures again)");
            try {
                Backend.tune(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
            } catch (java.io.IOException e) {
                System.err.println("jgrad: could not keep the tuning (" + e.getMessage() + "); it is used in this run only");
            }
        }

        /** The shared options this trainer does not take: they are not offered in its --help nor kept in its config.json. */
        java.util.Set<String> notTaken() {
            return java.util.Set.of();
        }

        /** What to use instead of an option this trainer does not take (null: nothing to say). */
        public String insteadOf(String option) {
            return null;
        }
    }

    /** A path as the shell takes it back: quoted where it holds anything but plain characters. */
    static String quoted(String path) {
        return path.matches("[A-Za-z0-9_./@%+=:,-]+") ? path : "'" + path.replace("'", "'\\''") + "'";
    }

    /** Takes out of each trainer's command the shared options it does not take, so its --help lists only its own. */
    public static void dropOptionsNotTaken(CommandLine train) {
        for (CommandLine sub : train.getSubcommands().values()) {
            if (sub.getCommand() instanceof Example) {
                for (String name : ((Example) sub.getCommand()).notTaken()) {
                    sub.getCommandSpec().remove(sub.getCommandSpec().findOption(name));
                }
            }
        }
    }

    @Command(name = "regression", mixinStandardHelpOptions = true,
            description = {"The (B,1) - (B,) loss bug beside its fix: an MLP trained twice from the same initialisation, once with "
                + "the loss that silently broadcasts to (B,B) and once with the shapes fixed.",
                "Defaults: 40 epochs, batch 64, lr 0.003."})
    static final class Regression extends Example {
        @Override
        void train() {
            RegressionExample.run(options, System.out);
        }
    }

    @Command(name = "attention", mixinStandardHelpOptions = true,
            description = {"A small transformer (embeddings, causal self-attention with a key padding mask, MLP, LayerNorm) learns "
                + "to output, at each position of a variable-length sequence, the token 3 steps earlier.",
                "Defaults: 5 epochs, batch 32, lr 0.003."})
    static final class Attention extends Example {
        @Override
        void train() {
            AttentionExample.run(options, System.out);
        }
    }

    @Command(name = "mlp", mixinStandardHelpOptions = true,
            description = {"An MLP classifies two interleaved spirals with cross-entropy, and draws its decision boundary.",
                "Defaults: 150 epochs, batch 64, lr 0.01."})
    static final class Mlp extends Example {
        @Override
        void train() {
            SpiralsExample.run(options, System.out);
        }
    }

    @Command(name = "fashion", mixinStandardHelpOptions = true,
            description = {"Fashion-MNIST (install: sudo apt-get install dataset-fashion-mnist): an MLP or the classic small CNN "
                + "(2 x conv + batch norm + ReLU + max-pool, then 2 linear layers) classifies 28x28 images of clothing into 10 classes; "
                + "writes the confusion matrix (confusion.png) and per-class accuracy (summary.json).",
                "Defaults: mlp 20 epochs, batch 128; cnn 6 epochs, batch 64; Adam lr 0.001."})
    static final class Fashion extends Example {
        @Option(names = "--model", paramLabel = "mlp|cnn", defaultValue = "cnn",
                description = "the network: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
        FashionExample.Model model;

        @Option(names = "--data", paramLabel = "DIR", description = "the folder with the four IDX files (default: /usr/share/datasets/fashion-mnist)")
        Path data;

        @Override
        void train() {
            if (data == null) {
                data = FashionExample.DEFAULT_DATA;
            }
            FashionExample.run(model, data, options, System.out);
        }
    }

    @Command(name = "pinn", mixinStandardHelpOptions = true,
            description = {"A physics-informed network solves a PDE with a known solution: a tanh MLP u(x) whose loss is the PDE's "
                + "residual (second derivatives of u by its input, through createGraph) at collocation points drawn each step, plus u on "
                + "the boundary; writes solution.png (prediction, exact solution and error) and the relative L2 error (summary.json).",
                "Problems: poisson1d, -u'' = pi^2 sin(pi x) on [0, 1] (the default); poisson2d, -(u_xx + u_yy) = 2 pi^2 sin(pi x) sin(pi y)"
                + " on the unit square. An epoch is " + PinnExample.STEPS_PER_EPOCH + " steps.",
                "Defaults: poisson1d 60 epochs, 128 points; poisson2d 60 epochs, 512 points; Adam lr 0.002 with cosine decay."})
    static final class Pinn extends Example {
        @Option(names = "--problem", paramLabel = "NAME", defaultValue = "poisson1d",
                description = "the PDE: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
        PinnExample.Problem problem;

        @Override
        void train() {
            PinnExample.run(problem, options, System.out);
        }
    }

    @Command(name = "gpt", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"nanoGPT's character-level language model: a GPT trained on the characters of a text file (--data), with "
                + "AdamW (weight decay on the 2-d weights only), warm-up and cosine decay, gradient clipping; train and validation "
                + "loss on a 90/10 split every --eval-interval iterations, with a sample printed each time. Writes metrics.csv, "
                + "loss.png, summary.json, and model.safetensors, optimizer.safetensors and tokenizer.json whenever the validation "
                + "loss improves; sample from them with 'jgrad sample --checkpoint DIR'.",
                "Defaults: nanoGPT's CPU run of shakespeare_char (block 64, batch 12, 4 layers, 4 heads, width 128, 2000 iterations, "
                + "lr 0.001 to 0.0001, dropout 0)."})
    static final class Gpt extends Example {
        /** The GPT counts iterations (--max-iters) and checkpoints at its best evaluation. */
        @Override
        java.util.Set<String> notTaken() {
            return java.util.Set.of("--epochs", "--save-every");
        }

        @Override
        public String insteadOf(String option) {
            return option.startsWith("--epochs") ? "train gpt counts iterations, not epochs: use --max-iters N"
                    : option.startsWith("--save-every") ? "train gpt saves its model whenever the validation loss improves (--eval-interval N)" : null;
        }

        @Option(names = "--data", paramLabel = "FILE.txt", description = "the text to learn, UTF-8 (Tiny Shakespeare: "
                + "https://raw.githubusercontent.com/karpathy/char-rnn/master/data/tinyshakespeare/input.txt)")
        Path data;
        @Option(names = "--block-size", paramLabel = "N", defaultValue = "" + BabyGpt.BLOCK_SIZE, description = "context length (default: ${DEFAULT-VALUE})")
        int blockSize;
        @Option(names = "--n-layer", paramLabel = "N", defaultValue = "" + BabyGpt.N_LAYER, description = "transformer blocks (default: ${DEFAULT-VALUE})")
        int nLayer;
        @Option(names = "--n-head", paramLabel = "N", defaultValue = "" + BabyGpt.N_HEAD, description = "attention heads (default: ${DEFAULT-VALUE})")
        int nHead;
        @Option(names = "--n-embd", paramLabel = "N", defaultValue = "" + BabyGpt.N_EMBD, description = "width (default: ${DEFAULT-VALUE})")
        int nEmbd;
        @Option(names = "--dropout", paramLabel = "P", defaultValue = "0.0", description = "dropout (default: ${DEFAULT-VALUE})")
        double dropout;
        @Option(names = "--bias", description = "biases in the linear layers and layer norms (default: none, as nanoGPT's CPU run)")
        boolean bias;
        @Option(names = "--max-iters", paramLabel = "N", defaultValue = "" + BabyGpt.MAX_ITERS, description = "training iterations (default: ${DEFAULT-VALUE})")
        int maxIters;
        @Option(names = "--lr-decay-iters", paramLabel = "N", description = "where the cosine reaches --min-lr (default: --max-iters)")
        Integer lrDecayIters;
        @Option(names = "--warmup-iters", paramLabel = "N", defaultValue = "" + BabyGpt.WARMUP_ITERS,
                description = "linear warm-up (default: ${DEFAULT-VALUE}, or a twentieth of a shorter run)")
        int warmupIters;
        @Option(names = "--min-lr", paramLabel = "RATE", defaultValue = "1e-4", description = "the rate at the end (default: ${DEFAULT-VALUE})")
        double minLr;
        @Option(names = "--weight-decay", paramLabel = "W", defaultValue = "" + BabyGpt.WEIGHT_DECAY, description = "AdamW's decay of the 2-d weights (default: ${DEFAULT-VALUE})")
        double weightDecay;
        @Option(names = "--beta2", paramLabel = "B", defaultValue = "" + BabyGpt.BETA2, description = "AdamW's beta2 (default: ${DEFAULT-VALUE})")
        double beta2;
        @Option(names = "--grad-clip", paramLabel = "NORM", defaultValue = "" + BabyGpt.GRAD_CLIP, description = "clip the gradient's norm, 0 for none (default: ${DEFAULT-VALUE})")
        double gradClip;
        @Option(names = "--eval-interval", paramLabel = "N", defaultValue = "250", description = "iterations between evaluations (default: ${DEFAULT-VALUE})")
        int evalInterval;
        @Option(names = "--eval-iters", paramLabel = "N", defaultValue = "20", description = "batches per evaluation and split (default: ${DEFAULT-VALUE})")
        int evalIters;
        @Option(names = "--sample-tokens", paramLabel = "N", defaultValue = "200",
                description = "characters sampled at each evaluation, 0 to " + MAX_SAMPLE + ", 0 for none (default: ${DEFAULT-VALUE})")
        int sampleTokens;
        /** The longest sample: a million characters is far more than anyone reads at an evaluation. */
        static final int MAX_SAMPLE = 1_000_000;

        @Override
        void train() {
            if (data == null) {
                throw new ParameterException(spec.commandLine(), "train gpt needs a text to learn: pass --data FILE.txt (Tiny Shakespeare: "
                        + "curl -O https://raw.githubusercontent.com/karpathy/char-rnn/master/data/tinyshakespeare/input.txt)");
            }
            GptExample.Settings s = new GptExample.Settings();
            s.blockSize = positive("--block-size", blockSize);
            s.nLayer = positive("--n-layer", nLayer);
            s.nHead = positive("--n-head", nHead);
            s.nEmbd = positive("--n-embd", nEmbd);
            if (nEmbd % nHead != 0) {
                throw new ParameterException(spec.commandLine(), "--n-embd (" + nEmbd + ") must be a multiple of --n-head (" + nHead + ")");
            }
            if (!(dropout >= 0 && dropout < 1)) {
                throw new ParameterException(spec.commandLine(), "--dropout must be in [0, 1), got " + dropout);
            }
            s.dropout = dropout;
            s.bias = bias;
            s.maxIters = atLeast("--max-iters", maxIters, 0);
            if (lrDecayIters == null) {
                lrDecayIters = maxIters;
            }
            s.lrDecayIters = atLeast("--lr-decay-iters", lrDecayIters, 0);
            s.warmupIters = atLeast("--warmup-iters", warmupIters, 0);
            if (s.warmupIters > s.lrDecayIters) {
                if (spec.commandLine().getParseResult().hasMatchedOption("--warmup-iters")) {
                    throw new ParameterException(spec.commandLine(), "--warmup-iters (" + s.warmupIters + ") must not exceed --lr-decay-iters ("
                            + s.lrDecayIters + ")");
                }
                // A short run with the default warm-up: nanoGPT's share of it (100 of 2000 iterations), said once.
                warmupIters = s.lrDecayIters / 20;
                System.err.println("jgrad: the default warm-up of " + s.warmupIters + " iterations does not fit a schedule of "
                        + s.lrDecayIters + "; warming up for " + warmupIters + " (--warmup-iters N to choose)");
                s.warmupIters = warmupIters;
            }
            s.batchSize = options.batchSize(BabyGpt.BATCH_SIZE);
            s.learningRate = options.lr(BabyGpt.LEARNING_RATE);
            s.minLr = nonNegative("--min-lr", minLr);
            s.weightDecay = nonNegative("--weight-decay", weightDecay);
            if (!(beta2 >= 0 && beta2 < 1)) {
                throw new ParameterException(spec.commandLine(), "--beta2 must be in [0, 1), got " + beta2);
            }
            s.beta2 = beta2;
            s.gradClip = nonNegative("--grad-clip", gradClip);
            s.evalInterval = positive("--eval-interval", evalInterval);
            s.evalIters = positive("--eval-iters", evalIters);
            s.sampleTokens = atLeast("--sample-tokens", sampleTokens, 0);
            if (s.sampleTokens > MAX_SAMPLE) {
                throw new ParameterException(spec.commandLine(), "--sample-tokens must be from 0 to " + MAX_SAMPLE + ", got " + sampleTokens);
            }
            GptExample.run(data, s, options, System.out);
        }

        private int positive(String flag, int v) {
            return atLeast(flag, v, 1);
        }

        private int atLeast(String flag, int v, int min) {
            if (v < min) {
                throw new ParameterException(spec.commandLine(), flag + " must be at least " + min + ", got " + v);
            }
            return v;
        }

        private double nonNegative(String flag, double v) {
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new ParameterException(spec.commandLine(), flag + " must be a finite number, 0 or more, got " + v);
            }
            return v;
        }
    }
}
