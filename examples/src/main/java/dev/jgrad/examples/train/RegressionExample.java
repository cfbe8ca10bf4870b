package dev.jgrad.examples.train;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.Init;
import dev.jgrad.nn.Linear;
import dev.jgrad.nn.Losses;
import dev.jgrad.nn.ModuleDict;
import dev.jgrad.nn.Sequential;
import dev.jgrad.nn.Tanh;
import dev.jgrad.nn.data.DataLoader;
import dev.jgrad.nn.data.TensorDataset;
import dev.jgrad.nn.optim.Adam;
import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.tensor.BroadcastGuard;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.train.Evaluation;
import dev.jgrad.train.Fit;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The main example: the {@code (B,1) - (B,)} loss bug beside its fix.
 *
 * <p>Data with a real signal, {@code y = sin(2 x0) + x1 x2 / 2 + x3^2 / 4 - 3 x4 / 4 + tanh(x5) / 3 + noise}
 * over 8 features (two of them noise), and an MLP trained twice from the same initialisation:
 * <ul>
 *   <li>buggy: {@code (pred - target).square().mean()} with {@code pred (B,1)} and {@code target (B,)}. The
 *       difference broadcasts to {@code (B,B)}, every prediction minus every target, and the gradient
 *       pulls each prediction towards the batch mean of the targets: the model learns a constant.</li>
 *   <li>fixed: the same expression with {@code target.unsqueeze(1)}, so both are {@code (B,1)}.</li>
 * </ul>
 */
public final class RegressionExample {
    static final int FEATURES = 8;
    static final int TRAIN = 2048;
    static final int TEST = 512;
    static final int HIDDEN = 64;

    /** What a run found, per series. */
    public record Outcome(double buggyR2, double fixedR2, double buggyLoss, double fixedLoss, Path dir) {
    }

    private RegressionExample() {
    }

    /** The signal: a nonlinear function of six of the eight features. */
    static Tensor signal(Tensor x) {
        Tensor c0 = x.select(1, 0).mul(2.0).sin();
        Tensor c1 = x.select(1, 1).mul(x.select(1, 2)).mul(0.5);
        Tensor c2 = x.select(1, 3).square().mul(0.25);
        Tensor c3 = x.select(1, 4).mul(-0.75);
        Tensor c4 = x.select(1, 5).tanh().mul(1.0 / 3.0);
        return c0.add(c1).add(c2).add(c3).add(c4);
    }

    static Sequential model(Generator gen) {
        return new Sequential(new Linear(FEATURES, HIDDEN, true, gen), new Tanh(), new Linear(HIDDEN, HIDDEN, true, gen), new Tanh(),
                new Linear(HIDDEN, 1, true, gen));
    }

    /** The two models of a run, as its checkpoint holds them: {@code buggy} and {@code fixed}. */
    static ModuleDict models(long seed) {
        ModuleDict models = new ModuleDict();
        models.put("buggy", model(new Generator(seed + 1)));
        models.put("fixed", model(new Generator(seed + 1)));
        return models;
    }

    /** The held-out features of a run with {@code seed}, as the run drew them. */
    static Tensor heldOutFeatures(long seed) {
        Generator data = new Generator(seed);
        Tensor xTrain = Tensor.randn(data, TRAIN, FEATURES);
        signal(xTrain).add(Tensor.randn(data, TRAIN).mul(0.1));
        return Tensor.randn(data, TEST, FEATURES);
    }

    /** The coefficient of determination of predictions (N,1) against targets (N). */
    static double r2(Tensor pred, Tensor target) {
        Tensor p = pred.reshape(-1);
        double sse = p.sub(target).square().sum().item();
        double sst = target.sub(target.mean()).square().sum().item();
        return 1 - sse / sst;
    }

    public static Outcome run(TrainOptions o, PrintStream out) {
        if (o.earlyStop != null) {
            throw new dev.jgrad.examples.UserError("--early-stop: the regression trains the buggy and the fixed model side by side for"
                    + " the same epochs, to compare them; it does not stop early");
        }
        int epochs = o.epochs(40);
        int batch = o.batchSize(64);
        double lr = o.lr(3e-3);
        Generator data = new Generator(o.seed());
        Tensor xTrain = Tensor.randn(data, TRAIN, FEATURES);
        Tensor yTrain = signal(xTrain).add(Tensor.randn(data, TRAIN).mul(0.1));
        Tensor xTest = Tensor.randn(data, TEST, FEATURES);
        Tensor yTest = signal(xTest).add(Tensor.randn(data, TEST).mul(0.1));

        Init.manualSeed(o.seed());
        // Two models from the same initialisation, trained side by side on the same batches by one optimizer: Adam's update of
        // each weight depends on that weight's gradients alone, so each model trains exactly as it would on its own.
        ModuleDict models = new ModuleDict();
        Sequential buggy = models.put("buggy", model(new Generator(o.seed() + 1)));
        Sequential fixed = models.put("fixed", model(new Generator(o.seed() + 1)));
        Optimizer opt = new Adam(models.parameters(), lr);

        out.println("jgrad train regression: y = f(x) + noise with x of " + FEATURES + " features, " + TRAIN + " training and "
                + TEST + " held-out samples");
        out.println("An MLP " + FEATURES + "-" + HIDDEN + "-" + HIDDEN + "-1 is trained twice from the same initialisation, side by side"
                + " (seed " + o.seed() + ", Adam lr " + lr + ", batch " + batch + ", " + epochs + " epochs).");
        out.println();

        DataLoader batches = new DataLoader(new TensorDataset(xTrain, yTrain), batch, true, o.seed(), false);
        double[] r2 = {Double.NaN, Double.NaN};
        Fit.Result r = o.applyTo(Fit.of(models, opt, batches), "regression")
                .losses(List.of("buggy", "fixed"), b -> Map.of(
                        // The bug: target (B,) against pred (B,1) broadcasts to (B,B).
                        "buggy", buggy.forward(Variable.of(b.get(0))).sub(Variable.of(b.get(1))).square().mean(),
                        // The fix: the same expression with the shapes lined up.
                        "fixed", fixed.forward(Variable.of(b.get(0))).sub(Variable.of(b.get(1)).unsqueeze(1)).square().mean()))
                .evaluate(() -> Evaluation.of(Map.of("buggy", heldOutMse(buggy, xTest, yTest), "fixed", heldOutMse(fixed, xTest, yTest))))
                .epochs(epochs)
                .title("regression: the (B,1) - (B,) loss bug beside the fix")
                .atEnd(end -> {
                    try (NoGrad g = NoGrad.enter()) {
                        r2[0] = r2(buggy.forward(Variable.of(xTest)).data(), yTest);
                        r2[1] = r2(fixed.forward(Variable.of(xTest)).data(), yTest);
                    }
                    report(out, batch, r2[0], r2[1], buggy, xTest, yTest);
                    out.println();
                    end.subtitle(String.format(Locale.ROOT, "held-out R² buggy %.2f, fixed %.2f  (seed %d)", r2[0], r2[1], o.seed()))
                            .summary("buggy", "r2", r2[0]).summary("fixed", "r2", r2[1]);
                })
                .run(out);
        return new Outcome(r2[0], r2[1], r.metrics().last("buggy", "train"), r.metrics().last("fixed", "train"), r.dir());
    }

    private static double heldOutMse(Sequential model, Tensor x, Tensor y) {
        return model.forward(Variable.of(x)).data().reshape(-1).sub(y).square().mean().item();
    }

    private static void report(PrintStream out, int batch, double buggyR2, double fixedR2, Sequential buggy, Tensor xTest, Tensor yTest) {
        double spread;
        try (NoGrad g = NoGrad.enter()) {
            Tensor p = buggy.forward(Variable.of(xTest)).data();
            spread = Math.sqrt(p.var().item());
        }
        out.printf(Locale.ROOT, "  buggy  loss = (pred - target).square().mean()            pred [%d, 1] - target [%d] -> [%d, %d]%n",
                batch, batch, batch, batch);
        out.printf(Locale.ROOT, "         held-out R² = %.3f: the predictions collapsed towards the batch mean (their spread is %.3f,"
                + " the targets' %.3f)%n", buggyR2, spread, Math.sqrt(yTest.var().item()));
        out.printf(Locale.ROOT, "  fixed  loss = (pred - target.unsqueeze(1)).square().mean()  pred [%d, 1] - target [%d, 1] -> [%d, 1]%n",
                batch, batch, batch);
        out.printf(Locale.ROOT, "         held-out R² = %.3f: %s%n", fixedR2,
                fixedR2 > 0.9 ? "the model fits the signal" : "the model is learning the signal (more epochs will fit it)");
        out.println();
        out.println("Two tools would have caught the bug before any training:");
        Variable pred = Variable.of(Tensor.zeros(batch, 1));
        Variable target = Variable.of(Tensor.zeros(batch));
        try {
            Losses.mseLoss(pred, target);
            out.println("  Losses.mseLoss(pred, target) accepted the shapes (unexpected)");
        } catch (ShapeException e) {
            out.println("  1. the library loss refuses the shapes:   Losses.mseLoss(pred, target)");
            indent(out, e.getMessage());
        }
        try (BroadcastGuard strict = BroadcastGuard.strict()) {
            pred.sub(target);
            out.println("  the strict scope accepted the op (unexpected)");
        } catch (ShapeException e) {
            out.println("  2. the strict broadcasting scope names the op:   try (var s = BroadcastGuard.strict()) { pred.sub(target) }");
            indent(out, e.getMessage());
        }
    }

    private static void indent(PrintStream out, String message) {
        String[] lines = message.split("\n");
        for (int i = 0; i < Math.min(lines.length, 4); i++) {
            out.println("       " + lines[i]);
        }
    }
}
