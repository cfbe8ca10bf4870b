package dev.jgrad.examples.train;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.Embedding;
import dev.jgrad.nn.GELU;
import dev.jgrad.nn.Init;
import dev.jgrad.nn.LayerNorm;
import dev.jgrad.nn.Linear;
import dev.jgrad.nn.Losses;
import dev.jgrad.nn.Module;
import dev.jgrad.nn.MultiheadAttention;
import dev.jgrad.nn.Sequential;
import dev.jgrad.nn.data.DataLoader;
import dev.jgrad.nn.data.TensorDataset;
import dev.jgrad.nn.optim.AdamW;
import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.train.Fit;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A task only attention solves: sequences of random tokens of varying length (padded to T), and at each
 * position the model must output the token {@link #LOOKBACK} steps earlier. The model sees each position
 * through causal self-attention (no peeking ahead) with a key padding mask (padding is never attended
 * to), and the loss ignores the padded positions and the first {@link #LOOKBACK} ones, which have no answer.
 */
public final class AttentionExample {
    static final int VOCAB = 16;
    static final int PAD = 0;
    static final int MAX_LEN = 20;
    static final int LOOKBACK = 3;
    static final int EMBED = 32;
    static final int HEADS = 4;
    static final int TRAIN = 4000;
    static final int TEST = 1000;

    /** Held-out accuracy and where the run went. */
    public record Outcome(double accuracy, double finalLoss, Path dir) {
    }

    /** Embedding + positional embedding, causal self-attention with padding mask, MLP, post-LayerNorm, head. */
    static final class TinyTransformer extends Module {
        final Embedding tok;
        final Embedding pos;
        final MultiheadAttention attn;
        final LayerNorm norm1;
        final Sequential mlp;
        final LayerNorm norm2;
        final Linear head;

        TinyTransformer(Generator g) {
            tok = registerModule("tok", new Embedding(VOCAB, EMBED, g));
            pos = registerModule("pos", new Embedding(MAX_LEN, EMBED, g));
            attn = registerModule("attn", new MultiheadAttention(EMBED, HEADS, g));
            norm1 = registerModule("norm1", new LayerNorm(EMBED));
            mlp = registerModule("mlp", new Sequential(new Linear(EMBED, 4 * EMBED, true, g), new GELU(), new Linear(4 * EMBED, EMBED, true, g)));
            norm2 = registerModule("norm2", new LayerNorm(EMBED));
            head = registerModule("head", new Linear(EMBED, VOCAB, true, g));
        }

        /** Logits (B, T, VOCAB) for tokens (B, T) with padding (B, T) true at padded positions. */
        Variable forward(Tensor tokens, Tensor padding) {
            int t = tokens.size(1);
            Variable h = tok.forward(Variable.of(tokens)).add(pos.forward(Variable.of(Tensor.arange(t))));
            h = norm1.forward(h.add(attn.forward(h, padding, true)));
            h = norm2.forward(h.add(mlp.forward(h)));
            return head.forward(h);
        }
    }

    /** Tokens, targets (-100 where there is nothing to predict) and the padding mask of n random sequences. */
    static Tensor[] data(Generator g, int n) {
        long[] tokens = new long[n * MAX_LEN];
        long[] targets = new long[n * MAX_LEN];
        boolean[] padding = new boolean[n * MAX_LEN];
        for (int i = 0; i < n; i++) {
            int len = LOOKBACK + 2 + g.nextInt(MAX_LEN - LOOKBACK - 1);
            for (int t = 0; t < MAX_LEN; t++) {
                int at = i * MAX_LEN + t;
                if (t < len) {
                    tokens[at] = 1 + g.nextInt(VOCAB - 1);
                    targets[at] = t >= LOOKBACK ? tokens[at - LOOKBACK] : Losses.IGNORE_INDEX;
                } else {
                    tokens[at] = PAD;
                    targets[at] = Losses.IGNORE_INDEX;
                    padding[at] = true;
                }
            }
        }
        return new Tensor[] {Tensor.of(tokens, n, MAX_LEN), Tensor.of(targets, n, MAX_LEN), Tensor.of(padding, n, MAX_LEN)};
    }

    static Variable loss(TinyTransformer model, Tensor tokens, Tensor targets, Tensor padding) {
        Variable logits = model.forward(tokens, padding);
        return Losses.crossEntropy(logits.reshape(-1, VOCAB), targets.reshape(-1));
    }

    /** The share of positions with an answer where the model's top token is the answer. */
    static double accuracy(TinyTransformer model, Tensor[] set) {
        try (NoGrad g = NoGrad.enter()) {
            Tensor pred = model.forward(set[0], set[2]).data().argmax(-1, false);
            Tensor scored = set[1].ne((double) Losses.IGNORE_INDEX);
            double right = pred.eq(set[1]).logicalAnd(scored).to(DType.FLOAT64).sum().item();
            return right / scored.to(DType.FLOAT64).sum().item();
        }
    }

    private AttentionExample() {
    }

    public static Outcome run(TrainOptions o, PrintStream out) {
        int epochs = o.epochs(5);
        int batch = o.batchSize(32);
        double lr = o.lr(3e-3);
        Generator g = new Generator(o.seed());
        Tensor[] train = data(g, TRAIN);
        Tensor[] test = data(g, TEST);
        Init.manualSeed(o.seed());
        TinyTransformer model = new TinyTransformer(new Generator(o.seed() + 1));
        Optimizer opt = new AdamW(model.parameters(), lr, 0.9, 0.98, 1e-8, 0.01);
        out.println("jgrad train attention: output, at each position, the token " + LOOKBACK + " steps earlier; sequences of "
                + (LOOKBACK + 2) + ".." + MAX_LEN + " tokens from a vocabulary of " + (VOCAB - 1) + ", padded to " + MAX_LEN);
        out.println("Model: embeddings + positions, causal self-attention (" + HEADS + " heads, key padding mask), MLP, LayerNorm; "
                + model.parameterCount() + " parameters; AdamW lr " + lr + ", batch " + batch + ", " + epochs + " epochs");
        DataLoader loader = new DataLoader(new TensorDataset(train), batch, true, o.seed(), false);
        double[] acc = new double[1];
        Fit.Result r = o.applyTo(Fit.of(model, opt, loader), "attention")
                .loss(b -> loss(model, b.get(0), b.get(1), b.get(2)))
                .heldOut(() -> loss(model, test[0], test[1], test[2]).item())
                .epochs(epochs)
                .title("attention: copy the token " + LOOKBACK + " steps back")
                .atEnd(end -> {
                    acc[0] = accuracy(model, test);
                    out.printf(Locale.ROOT, "held-out accuracy %.1f%% over %d positions with an answer (chance: %.1f%%)%n", 100 * acc[0],
                            (int) test[1].ne((double) Losses.IGNORE_INDEX).to(DType.FLOAT64).sum().item(), 100.0 / (VOCAB - 1));
                    end.subtitle(String.format(Locale.ROOT, "held-out accuracy %.1f%%  (seed %d)", 100 * acc[0], o.seed()))
                            .summary("train", "accuracy", acc[0]);
                })
                .run(out);
        return new Outcome(acc[0], r.trainLoss(), r.dir());
    }
}
