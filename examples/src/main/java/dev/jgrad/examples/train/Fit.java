package dev.jgrad.examples.train;

import dev.jgrad.autograd.Variable;
import dev.jgrad.examples.report.Metrics;
import dev.jgrad.nn.Module;
import dev.jgrad.nn.data.DataLoader;
import dev.jgrad.nn.io.AtomicFileSet;
import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.tensor.Tensor;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import java.util.function.Function;

/**
 * The command line's training loop for a model of your own, with the same run folder: a progress line per epoch, the
 * training loss every few steps and the held-out loss per epoch in metrics.csv and loss.png, checkpoints as the run goes
 * (model.safetensors, optimizer.safetensors), summary.json, Ctrl-C that stops at the end of a step and saves, and
 * {@code resume(runFolder)} that continues a stopped run where it stopped.
 * <pre>{@code
 * Fit.Result r = Fit.of(model, new Adam(model.parameters(), 1e-3), new DataLoader(train, 64, true, 0, false))
 *         .loss(b -> Losses.crossEntropy(model.forward(Variable.of(b.get(0))), b.get(1)))
 *         .heldOut(() -> Losses.crossEntropy(model.forward(Variable.of(testX)), testY).item())
 *         .epochs(10)
 *         .out(Path.of("runs/mine"))
 *         .run(System.out);
 * }</pre>
 */
public final class Fit {
    private final Module model;
    private final Optimizer optimizer;
    private final DataLoader loader;
    private Function<List<Tensor>, Variable> loss;
    private DoubleSupplier heldOut;
    private int epochs = 1;
    private Path out;
    private Path resume;
    private boolean overwrite;
    private boolean allowNan;
    private String name = "model";
    private String title;
    private long seed;

    /** The outcome: the last training and held-out losses, and the run folder. */
    public record Result(double trainLoss, double heldOutLoss, Path dir, boolean interrupted) {
    }

    private Fit(Module model, Optimizer optimizer, DataLoader loader) {
        this.model = Objects.requireNonNull(model, "model");
        this.optimizer = Objects.requireNonNull(optimizer, "optimizer");
        this.loader = Objects.requireNonNull(loader, "loader");
    }

    public static Fit of(Module model, Optimizer optimizer, DataLoader train) {
        return new Fit(model, optimizer, train);
    }

    /** The loss to minimise on a batch (the tensors the loader gives). Required. */
    public Fit loss(Function<List<Tensor>, Variable> batchLoss) {
        this.loss = batchLoss;
        return this;
    }

    /** The held-out loss, computed after each epoch with recording off (default: none). */
    public Fit heldOut(DoubleSupplier heldOutLoss) {
        this.heldOut = heldOutLoss;
        return this;
    }

    public Fit epochs(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("epochs must be at least 1, got " + n);
        }
        this.epochs = n;
        return this;
    }

    /** The run folder (default: a new one under runs/); one that holds a run is refused unless {@link #overwrite()}. */
    public Fit out(Path dir) {
        this.out = dir;
        return this;
    }

    public Fit overwrite() {
        this.overwrite = true;
        return this;
    }

    /** Continues the run in {@code runFolder} where it stopped (its weights, optimizer state, position and curves). */
    public Fit resume(Path runFolder) {
        this.resume = runFolder;
        return this;
    }

    /** Goes on when the loss turns NaN or infinite (default: stop before the weights are updated, and save nothing). */
    public Fit allowNan() {
        this.allowNan = true;
        return this;
    }

    /** The run's name, in the progress lines, metrics.csv and summary.json (default "model"). */
    public Fit name(String runName) {
        this.name = Objects.requireNonNull(runName, "name");
        return this;
    }

    public Fit title(String chartTitle) {
        this.title = chartTitle;
        return this;
    }

    /** The seed the run records (the loader and the model draw from their own generators). */
    public Fit seed(long s) {
        this.seed = s;
        return this;
    }

    /** Trains, writing the run folder as the command line's trainers do; bad input is a {@code UserError} saying what. */
    public Result run(PrintStream progressOut) {
        if (loss == null) {
            throw new IllegalStateException("Fit: give the loss of a batch with .loss(batch -> ...)");
        }
        long started = System.nanoTime();
        TrainOptions o = TrainOptions.of(out, epochs, seed);
        o.overwrite = overwrite;
        o.resume = resume;
        o.allowNan = allowNan;
        Interrupt.install();
        Path dir = RunDirectory.prepare(o, name);
        String resumed = RunFiles.resume(o.resume(), model, optimizer);
        if (resumed != null) {
            progressOut.println(name + ": " + resumed);
        }
        Metrics metrics = new Metrics();
        RunPosition start = RunFiles.resumePosition(o.resume(), dir, metrics, model);
        Trainer.fitNoted(name, optimizer, loader, epochs, loss,
                () -> new Trainer.Validation(heldOut == null ? Double.NaN : heldOut.getAsDouble(), ""), metrics,
                new Progress(name, epochs, loader.batches()), allowNan, RunFiles.epochSaver(dir, metrics, model, optimizer, name, seed), start);
        AtomicFileSet files = RunFiles.curves(dir, metrics, title == null ? name + ": loss" : title, "seed " + seed);
        Map<String, Object> series = RunFiles.series(metrics, name, "epochs", epochs);
        RunFiles.finish(files, dir, name, seed, started, epochs, Map.of(name, series), model, optimizer, Map.of(), progressOut);
        return new Result(metrics.last(name, "train"), metrics.last(name, "val"), dir, Interrupt.requested());
    }
}
