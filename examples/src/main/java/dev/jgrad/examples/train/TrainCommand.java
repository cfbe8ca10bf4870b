package dev.jgrad.examples.train;

import dev.jgrad.tensor.Backend;
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
            TrainCommand.Pinn.class})
public final class TrainCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "name the example to train: " + String.join(", ", spec.subcommands().keySet()));
    }

    /** What every example command shares: the flags, their checks, then the example's own training. */
    abstract static class Example implements Callable<Integer> {
        @Mixin
        TrainOptions options;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            options.validate(spec);
            if (options.threads != null) {
                Backend.setThreads(options.threads);
            }
            train();
            return 0;
        }

        abstract void train();
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
            FashionExample.run(model, data == null ? FashionExample.DEFAULT_DATA : data, options, System.out);
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
}
