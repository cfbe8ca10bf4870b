package dev.jgrad.examples.train;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Variable;
import dev.jgrad.examples.report.Metrics;
import dev.jgrad.nn.Init;
import dev.jgrad.nn.Linear;
import dev.jgrad.nn.Losses;
import dev.jgrad.nn.Sequential;
import dev.jgrad.nn.Tanh;
import dev.jgrad.nn.data.DataLoader;
import dev.jgrad.nn.data.TensorDataset;
import dev.jgrad.nn.io.AtomicFileSet;
import dev.jgrad.nn.optim.Adam;
import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.tensor.BroadcastGuard;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
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

    /** The coefficient of determination of predictions (N,1) against targets (N). */
    static double r2(Tensor pred, Tensor target) {
        Tensor p = pred.reshape(-1);
        double sse = p.sub(target).square().sum().item();
        double sst = target.sub(target.mean()).square().sum().item();
        return 1 - sse / sst;
    }

    public static Outcome run(TrainOptions o, PrintStream out) {
        long started = System.nanoTime();
        int epochs = o.epochs(40);
        int batch = o.batchSize(64);
        double lr = o.lr(3e-3);
        Path dir = RunDirectory.prepare(o, "regression");
        Generator data = new Generator(o.seed());
        Tensor xTrain = Tensor.randn(data, TRAIN, FEATURES);
        Tensor yTrain = signal(xTrain).add(Tensor.randn(data, TRAIN).mul(0.1));
        Tensor xTest = Tensor.randn(data, TEST, FEATURES);
        Tensor yTest = signal(xTest).add(Tensor.randn(data, TEST).mul(0.1));

        Init.manualSeed(o.seed());
        Sequential buggy = model(new Generator(o.seed() + 1));
        Sequential fixed = model(new Generator(o.seed() + 1));
        Optimizer buggyOpt = new Adam(buggy.parameters(), lr);
        Optimizer fixedOpt = new Adam(fixed.parameters(), lr);
        String resumed = RunFiles.resume(o.resume(), fixed, fixedOpt);
        Metrics metrics = new Metrics();
        RunPosition buggyAt = RunPosition.start();
        RunPosition fixedAt = RunPosition.start();
        if (resumed != null) {
            Path buggyFile = o.resume().toAbsolutePath().resolveSibling(BUGGY_MODEL);
            if (RunFiles.continuingMetadata(o.resume(), dir) != null && Files.exists(buggyFile)) {
                // The run goes on in its folder: each series from its own checkpoint, position and curves.
                RunFiles.resume(buggyFile, buggyFile.resolveSibling(BUGGY_OPTIMIZER), buggy, buggyOpt);
                buggyAt = RunFiles.resumePosition(buggyFile, dir, new Metrics(), buggy);
                fixedAt = RunFiles.resumePosition(o.resume(), dir, new Metrics(), fixed);
                RunPosition b = buggyAt;
                RunPosition f = fixedAt;
                RunFiles.continueCurves(dir, metrics, series -> series.equals("buggy") ? b : f);
                resumed += ", the buggy series from " + buggyFile.getFileName();
            } else {
                // Weights from elsewhere start a new run: both series from them, the same initialisation as ever.
                RunFiles.resume(o.resume(), buggy, buggyOpt);
            }
        }

        out.println("jgrad train regression: y = f(x) + noise with x of " + FEATURES + " features, " + TRAIN + " training and "
                + TEST + " held-out samples");
        out.println("An MLP " + FEATURES + "-" + HIDDEN + "-" + HIDDEN + "-1 is trained twice from the same initialisation (seed "
                + o.seed() + ", Adam lr " + lr + ", batch " + batch + ", " + epochs + " epochs)" + (resumed == null ? "" : "; " + resumed) + ".");
        out.println();

        TensorDataset train = new TensorDataset(xTrain, yTrain);
        // Each series gets its own loader with the same seed: both see the same batches in the same order.
        DataLoader buggyBatches = new DataLoader(train, batch, true, o.seed(), false);
        DataLoader fixedBatches = new DataLoader(train, batch, true, o.seed(), false);
        RunPosition buggyPos = buggyAt;
        RunPosition fixedPos = fixedAt;
        // Both series and the curves, replaced together: the buggy one beside the model, which is the fixed one.
        RunFiles.Saver saver = new RunFiles.Saver(() -> {
            AtomicFileSet files = new AtomicFileSet(dir).addString("metrics.csv", metrics.toCsv());
            if (RunFiles.allFinite(buggy) && RunFiles.allFinite(fixed)) {
                addSeries(files, dir, buggy, buggyOpt, buggyPos, fixed, fixedOpt, fixedPos, o.seed());
            }
            RunFiles.commit(files);
        });
        // The bug: target (B,) against pred (B,1) broadcasts to (B,B).
        Trainer.fitNoted("buggy", buggyOpt, buggyBatches, epochs,
                b -> buggy.forward(Variable.of(b.get(0))).sub(Variable.of(b.get(1))).square().mean(),
                () -> new Trainer.Validation(heldOutMse(buggy, xTest, yTest), ""), metrics,
                new Progress("regression/buggy", epochs, buggyBatches.batches()), o.allowNan(), saver, buggyPos);
        // The fix: the same expression with the shapes lined up.
        Trainer.fitNoted("fixed", fixedOpt, fixedBatches, epochs,
                b -> fixed.forward(Variable.of(b.get(0))).sub(Variable.of(b.get(1)).unsqueeze(1)).square().mean(),
                () -> new Trainer.Validation(heldOutMse(fixed, xTest, yTest), ""), metrics,
                new Progress("regression/fixed", epochs, fixedBatches.batches()), o.allowNan(), saver, fixedPos);

        double buggyR2;
        double fixedR2;
        try (NoGrad g = NoGrad.enter()) {
            buggyR2 = r2(buggy.forward(Variable.of(xTest)).data(), yTest);
            fixedR2 = r2(fixed.forward(Variable.of(xTest)).data(), yTest);
        }
        report(out, batch, buggyR2, fixedR2, buggy, xTest, yTest);

        AtomicFileSet files = RunFiles.curves(dir, metrics, "regression: the (B,1) - (B,) loss bug beside the fix",
                String.format(Locale.ROOT, "held-out R² buggy %.2f, fixed %.2f  (seed %d)", buggyR2, fixedR2, o.seed()));
        Map<String, Map<String, Object>> series = new LinkedHashMap<>();
        series.put("buggy", RunFiles.series(metrics, "buggy", "r2", buggyR2));
        series.put("fixed", RunFiles.series(metrics, "fixed", "r2", fixedR2));
        out.println();
        if (epochs > 0 && RunFiles.allFinite(buggy)) {
            RunFiles.addCheckpoint(files, dir, BUGGY_MODEL, BUGGY_OPTIMIZER, buggy, buggyOpt, seriesMetadata("buggy", o.seed()), buggyPos);
        }
        RunPosition.clear();
        RunFiles.finish(files, dir, "regression", o.seed(), started, epochs, series, fixed, fixedOpt, positioned(fixedPos), out);
        return new Outcome(buggyR2, fixedR2, metrics.last("buggy", "train"), metrics.last("fixed", "train"), dir);
    }

    /** The buggy series' files: its weights and optimizer state beside the run's model, which is the fixed series. */
    static final String BUGGY_MODEL = "buggy.safetensors";
    static final String BUGGY_OPTIMIZER = "buggy.optimizer.safetensors";

    private static Map<String, String> seriesMetadata(String series, long seed) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("example", "regression");
        m.put("seed", Long.toString(seed));
        m.put("series", series);
        return m;
    }

    private static Map<String, String> positioned(RunPosition pos) {
        Map<String, String> m = new LinkedHashMap<>(pos.toMetadata());
        m.put("series", "fixed");
        return m;
    }

    private static void addSeries(AtomicFileSet files, Path dir, Sequential buggy, Optimizer buggyOpt, RunPosition buggyPos,
                                  Sequential fixed, Optimizer fixedOpt, RunPosition fixedPos, long seed) {
        RunFiles.addCheckpoint(files, dir, BUGGY_MODEL, BUGGY_OPTIMIZER, buggy, buggyOpt, seriesMetadata("buggy", seed), buggyPos);
        RunFiles.addCheckpoint(files, dir, RunFiles.MODEL, RunFiles.OPTIMIZER, fixed, fixedOpt, seriesMetadata("fixed", seed), fixedPos);
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
