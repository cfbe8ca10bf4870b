package dev.jgrad.train;

import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.Module;
import dev.jgrad.nn.data.DataLoader;
import dev.jgrad.nn.optim.LrScheduler;
import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.nn.optim.ReduceLrOnPlateau;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The training loop, as a library: for each batch, zero the gradients, compute the loss, run backward (clip), step the
 * optimizer (and the schedule); after each period (an epoch, or {@link #evaluateEvery} steps) evaluate with recording off
 * and the model in eval mode, log the losses, and checkpoint. It leaves a run folder: {@code config.json} (the run's
 * options), {@code metrics.csv} and {@code loss.png} (the step losses, their per-period mean, the held-out loss),
 * {@code model.safetensors} and {@code optimizer.safetensors} (written as the run goes, together, atomically), and
 * {@code summary.json}. Ctrl-C stops at the end of a step and writes what was trained; {@link #resume} continues a stopped
 * run in its folder exactly where it stopped: the same weights, data order and curves as a run that never stopped.
 * <pre>{@code
 * Fit.Result r = Fit.of(model, new Adam(model.parameters(), 1e-3), new DataLoader(train, 64, true, 0, false))
 *         .loss(b -> Losses.crossEntropy(model.forward(Variable.of(b.get(0))), b.get(1)))
 *         .heldOut(() -> Losses.crossEntropy(model.forward(Variable.of(testX)), testY).item())
 *         .epochs(10)
 *         .out(Path.of("runs/mine"))
 *         .run(System.out);
 * }</pre>
 * Each step runs in a {@code Memory.scope()}, so its tensors' arrays are reused by the next. A loss that turns NaN or
 * infinite stops the run before the weights are updated (unless {@link #allowNan}), so a diverging run never replaces a
 * good checkpoint.
 */
public final class Fit {
    final Module model;
    final Optimizer optimizer;
    final Batches batches;
    Function<List<Tensor>, Map<String, Variable>> loss;
    List<String> series = List.of();
    Supplier<Evaluation> evaluate;
    int epochs = -1;
    long steps = -1;
    int evaluateEvery;
    boolean evaluateAtStart;
    double clipNorm;
    DataParallel dataParallel;
    LrScheduler schedule;
    LrScheduler epochSchedule;
    ReduceLrOnPlateau plateau;
    EarlyStop earlyStop;
    boolean saveBest;
    int saveEvery;
    int logEvery = 10;
    boolean tensorboard = true;
    int histogramEvery;
    long itemsPerStep;
    String itemUnit = "items";
    final Map<String, Generator> states = new LinkedHashMap<>();
    final Map<String, String> metadata = new LinkedHashMap<>();
    final Map<String, String> files = new LinkedHashMap<>();
    RunConfig config;
    Path out;
    Path resume;
    boolean overwrite;
    boolean allowNan;
    String name = "model";
    String singleSeries = "train";
    String periodName = "epoch";
    String title;
    long seed;
    Consumer<RunEnd> atEnd = end -> { };
    PrintStream progressOut;
    Boolean interactive;

    /** The outcome: the last training and held-out losses of the first series, the run folder, and whether it was stopped. */
    public record Result(double trainLoss, double heldOutLoss, Path dir, boolean interrupted, long steps, Metrics metrics) {
    }

    private Fit(Module model, Optimizer optimizer, Batches batches) {
        this.model = Objects.requireNonNull(model, "model");
        this.optimizer = Objects.requireNonNull(optimizer, "optimizer");
        this.batches = Objects.requireNonNull(batches, "batches");
    }

    /** A run over epochs of {@code train}. */
    public static Fit of(Module model, Optimizer optimizer, DataLoader train) {
        return new Fit(model, optimizer, Batches.of(train));
    }

    /** A run over {@code batches}: epochs of a loader, or batches drawn at random ({@link Batches#drawn}). */
    public static Fit of(Module model, Optimizer optimizer, Batches batches) {
        return new Fit(model, optimizer, batches);
    }

    /** The loss to minimise on a batch (the tensors the loader gives). This or {@link #losses} is required. */
    public Fit loss(Function<List<Tensor>, Variable> batchLoss) {
        Objects.requireNonNull(batchLoss, "loss");
        this.loss = b -> Map.of(seriesName(), batchLoss.apply(b));
        this.series = null;
        return this;
    }

    /**
     * Several models trained side by side on the same batches, one loss each, named by {@code series} (the names of
     * metrics.csv and the chart's legend): their sum is minimised, each is logged on its own. The regression example
     * trains a buggy and a fixed model so, from one initialisation, in one optimizer.
     */
    public Fit losses(List<String> series, Function<List<Tensor>, Map<String, Variable>> batchLosses) {
        if (series.isEmpty() || series.stream().distinct().count() != series.size()) {
            throw new IllegalArgumentException("losses: name each series once, got " + series);
        }
        for (String s : series) {
            checkName("series", s);
        }
        this.series = List.copyOf(series);
        this.loss = Objects.requireNonNull(batchLosses, "losses");
        return this;
    }

    /** The name of a one-loss run's series in metrics.csv and the chart (default "train"; "cnn" reads "cnn val"). */
    public Fit series(String seriesName) {
        checkName("series", seriesName);
        this.singleSeries = seriesName;
        return this;
    }

    /** The held-out loss, computed after each period with recording off and the model in eval mode (default: none). */
    public Fit heldOut(DoubleSupplier heldOutLoss) {
        Objects.requireNonNull(heldOutLoss, "heldOut");
        return evaluate(() -> Evaluation.of(heldOutLoss.getAsDouble()));
    }

    /** The evaluation after each period, with recording off and the model in eval mode: held-out losses, a note, texts. */
    public Fit evaluate(Supplier<Evaluation> evaluation) {
        this.evaluate = Objects.requireNonNull(evaluation, "evaluate");
        return this;
    }

    /** Passes over a loader's data, or periods of {@link #evaluateEvery} drawn batches; 0 evaluates a loaded model only. */
    public Fit epochs(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("epochs must be 0 or more, got " + n);
        }
        this.epochs = n;
        this.steps = -1;
        return this;
    }

    /** Steps in all, for drawn batches ({@link Batches#drawn}); the last period ends with the last step. */
    public Fit steps(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("steps must be 0 or more, got " + n);
        }
        this.steps = n;
        this.epochs = -1;
        return this;
    }

    /** Steps in a period of drawn batches: the run evaluates, logs and checkpoints after each. */
    public Fit evaluateEvery(int stepsPerPeriod) {
        if (stepsPerPeriod < 1) {
            throw new IllegalArgumentException("evaluateEvery must be at least 1, got " + stepsPerPeriod);
        }
        this.evaluateEvery = stepsPerPeriod;
        return this;
    }

    /** Evaluates once before the first step too (nanoGPT's iteration 0), logged at step 0 as period 0. */
    public Fit evaluateAtStart() {
        this.evaluateAtStart = true;
        return this;
    }

    /** Clips the gradients' total norm to {@code maxNorm} before each step ({@code clip_grad_norm_}); 0 for none. */
    public Fit clipGradNorm(double maxNorm) {
        if (!(maxNorm >= 0) || Double.isInfinite(maxNorm)) {
            throw new IllegalArgumentException("clipGradNorm takes a finite norm, 0 or more, got " + maxNorm);
        }
        this.clipNorm = maxNorm;
        return this;
    }

    /**
     * Trains as one of {@code ring.size()} data-parallel workers: each step this worker computes the loss on its shard of
     * the batch (rows {@code rank * B / N} to {@code (rank + 1) * B / N} of every tensor of the batch, which all workers draw
     * alike from the same seed), the workers' gradients are averaged with the ring, and every worker applies the same
     * update, so the replicas stay identical. The logged losses are the workers' mean. A batch that N does not divide is
     * refused at the first step. Every worker writes a run folder; give the others than rank 0 one of their own (a
     * scratch folder), as {@code jgrad train --data-parallel} does.
     */
    public Fit dataParallel(dev.jgrad.train.parallel.RingAllReduce ring) {
        this.dataParallel = new DataParallel(Objects.requireNonNull(ring, "ring"));
        return this;
    }

    /** A schedule stepped after every optimizer step; a resumed run stands it at its step count. */
    public Fit schedule(LrScheduler perStep) {
        this.schedule = Objects.requireNonNull(perStep, "schedule");
        return this;
    }

    /** A schedule stepped after every period (epoch); a resumed run stands it at the periods done. */
    public Fit epochSchedule(LrScheduler perEpoch) {
        this.epochSchedule = Objects.requireNonNull(perEpoch, "epochSchedule");
        return this;
    }

    /**
     * A {@code ReduceLROnPlateau} fed the held-out loss (the first series') after every period; a resumed run rebuilds it
     * from the held-out losses in its curves. Needs {@link #heldOut} or {@link #evaluate}.
     */
    public Fit plateauSchedule(ReduceLrOnPlateau onPlateau) {
        this.plateau = Objects.requireNonNull(onPlateau, "plateauSchedule");
        return this;
    }

    /**
     * Ends the run once the held-out loss (the first series') has not improved on its best by more than {@code minDelta}
     * for {@code patience} periods in a row (EarlyStopping, mode min); summary.json says after which period. The folder
     * keeps the last weights, or with {@link #saveBest} the best. A resumed run rebuilds the count from its curves.
     */
    public Fit earlyStop(int patience, double minDelta) {
        if (patience < 1 || !(minDelta >= 0)) {
            throw new IllegalArgumentException("earlyStop takes a patience of 1 or more and a min delta of 0 or more, got "
                    + patience + ", " + minDelta);
        }
        this.earlyStop = new EarlyStop(patience, minDelta);
        return this;
    }

    /**
     * Checkpoints only when the held-out loss improves (nanoGPT's rule), instead of after periods: the folder keeps the best
     * model, and a resumed run continues from it. The end of the run writes the curves and summary, not the model.
     */
    public Fit saveBest() {
        this.saveBest = true;
        return this;
    }

    /** Also checkpoints every {@code n} steps (0: after periods only, at most one every few seconds). */
    public Fit saveEvery(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("saveEvery must be 0 or more, got " + n);
        }
        this.saveEvery = n;
        return this;
    }

    /** Logs the mean training loss of every {@code n} steps (split {@code train_step}); 0 for per period only. Default 10. */
    public Fit logEvery(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("logEvery must be 0 or more, got " + n);
        }
        this.logEvery = n;
        return this;
    }

    /**
     * A random generator the run draws from outside the batches (evaluation batches, samples): its state is saved with
     * every checkpoint and restored on resume. The dropout layers' generators and a {@link Batches#drawn} generator are
     * saved without being named here.
     */
    public Fit state(String name, Generator generator) {
        checkName("state", name);
        states.put(name, Objects.requireNonNull(generator, "generator"));
        return this;
    }

    /** Entries for the model file's metadata (a model's configuration, so it can be rebuilt from the file alone). */
    public Fit metadata(Map<String, String> entries) {
        for (String k : entries.keySet()) {
            if (k.startsWith("jgrad.")) {
                throw new IllegalArgumentException("metadata keys starting with jgrad. are the run's own, got " + k);
            }
        }
        metadata.putAll(entries);
        return this;
    }

    /** A text file written with every checkpoint, in the same atomic set (a tokenizer the model needs). */
    public Fit file(String fileName, String content) {
        files.put(checkFileName(fileName), Objects.requireNonNull(content, "content"));
        return this;
    }

    /** The options kept in the folder's config.json (default: the run's name, seed and length). */
    public Fit config(RunConfig options) {
        this.config = Objects.requireNonNull(options, "config");
        return this;
    }

    /** The run folder (default: a new one under runs/); one that holds a run is refused unless {@link #overwrite()}. */
    public Fit out(Path dir) {
        this.out = dir;
        return this;
    }

    /** Replaces a run already in the folder given to {@link #out} (default: refuse it, so a good run is never lost by accident). */
    public Fit overwrite() {
        this.overwrite = true;
        return this;
    }

    /**
     * Continues the run in {@code runFolder} where it stopped: its weights, optimizer state, position, random generators and
     * curves (in that folder, unless {@link #out} names another). Given a model file instead, starts a new run from its
     * weights (and the optimizer state beside it).
     */
    public Fit resume(Path runFolderOrModel) {
        this.resume = runFolderOrModel;
        return this;
    }

    /** Goes on when the loss turns NaN or infinite (default: stop before the weights are updated). */
    public Fit allowNan() {
        this.allowNan = true;
        return this;
    }

    /** The run's name: the progress lines, the folder under runs/, summary.json (default "model"). */
    public Fit name(String runName) {
        checkName("name", runName);
        this.name = runName;
        return this;
    }

    /** What a period is called in the progress lines: "epoch" (the default), "round". */
    public Fit periodName(String word) {
        this.periodName = Objects.requireNonNull(word, "periodName");
        return this;
    }

    /**
     * Whether the run writes TensorBoard event files into its folder's {@code tb/} (default: yes): its losses, learning
     * rate, gradient norm and speed, its evaluations' texts and numbers, and its options as hparams.
     */
    public Fit tensorboard(boolean write) {
        this.tensorboard = write;
        return this;
    }

    /** Histograms of every parameter and its gradient in TensorBoard every {@code n} steps (default 0: none). */
    public Fit histogramEvery(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("histogramEvery must be 0 (never) or more, got " + n);
        }
        this.histogramEvery = n;
        return this;
    }

    /** How many items (tokens, images) a step trains on, so that TensorBoard shows {@code speed/<unit>_per_s}. */
    public Fit itemsPerStep(long count, String unit) {
        if (count < 1 || unit == null || !unit.matches("[a-z][a-z_]*")) {
            throw new IllegalArgumentException("itemsPerStep takes a count of 1 or more and a lower-case unit (tokens), got " + count + ", " + unit);
        }
        this.itemsPerStep = count;
        this.itemUnit = unit;
        return this;
    }

    /** The loss chart's title (default: the run's name). */
    public Fit title(String chartTitle) {
        this.title = chartTitle;
        return this;
    }

    /** The seed the run records in its files (the loader and the model draw from their own generators). */
    public Fit seed(long s) {
        this.seed = s;
        return this;
    }

    /** Called once the training ends (or stops), before the run's files are written: add charts and summary numbers. */
    public Fit atEnd(Consumer<RunEnd> hook) {
        this.atEnd = Objects.requireNonNull(hook, "atEnd");
        return this;
    }

    /** Where the progress goes and whether it redraws a bar in place (default: stderr, a bar on a terminal unless CI is set). */
    public Fit progress(PrintStream err, boolean redraw) {
        this.progressOut = Objects.requireNonNull(err, "err");
        this.interactive = redraw;
        return this;
    }

    /**
     * Trains, writing the run folder; progress goes to stderr, what happened to {@code out}. Bad input (a folder holding
     * another run, a checkpoint that does not fit) and a loss that stops being finite are {@link RunException}s with one
     * line saying what.
     */
    public Result run(PrintStream out) {
        if (loss == null) {
            throw new IllegalStateException("Fit: give the loss of a batch with .loss(batch -> ...)");
        }
        if (series == null) {
            series = List.of(seriesName());
        }
        if (batches.naturalPeriod() == 0 && evaluateEvery == 0) {
            throw new IllegalStateException("Fit: drawn batches come in periods of evaluateEvery(N) steps; give N");
        }
        if (batches.naturalPeriod() > 0 && steps >= 0) {
            throw new IllegalStateException("Fit: a loader's run is counted in epochs(N), not steps");
        }
        if (earlyStop != null && evaluate == null) {
            throw new IllegalStateException("Fit: earlyStop watches the held-out loss; give it with heldOut(...) or evaluate(...)");
        }
        if (plateau != null && evaluate == null) {
            throw new IllegalStateException("Fit: plateauSchedule steps on the held-out loss; give it with heldOut(...) or evaluate(...)");
        }
        if (batches.naturalPeriod() > 0 && evaluateEvery > 0) {
            throw new IllegalStateException("Fit: a loader's run evaluates after each epoch; evaluateEvery is for drawn batches");
        }
        return new FitRun(this, out).run();
    }

    /** The steps in all: the loader's epochs, or {@link #steps} / {@link #epochs} periods of drawn batches. */
    long totalSteps() {
        int natural = batches.naturalPeriod();
        if (natural > 0) {
            return (long) Math.max(0, epochs < 0 ? 1 : epochs) * natural;
        }
        return steps >= 0 ? steps : (long) Math.max(0, epochs < 0 ? 1 : epochs) * evaluateEvery;
    }

    /** The steps a period holds at most. */
    int periodSteps() {
        int natural = batches.naturalPeriod();
        return natural > 0 ? natural : evaluateEvery;
    }

    /** Periods in all. */
    int periods() {
        long total = totalSteps();
        return (int) ((total + periodSteps() - 1) / periodSteps());
    }

    /** The step at which period {@code p} (from 1) ends. */
    long periodEnd(int p) {
        return Math.min((long) p * periodSteps(), totalSteps());
    }

    List<String> seriesList() {
        return series == null ? List.of(seriesName()) : series;
    }

    private String seriesName() {
        return singleSeries;
    }

    /** The checkpoint a resume loads: the model file of a run folder, or the file given. */
    Path resumeCheckpoint() {
        return resume != null && Files.isDirectory(resume) ? resume.resolve(Checkpoints.MODEL) : resume;
    }

    /** The folder the run writes: out, or the run folder it continues. */
    Path target() {
        if (out == null && resume != null && Files.isDirectory(resume)) {
            return resume;
        }
        return out;
    }

    /** Whether the run continues in its own folder (the checkpoint lies in the folder it writes). */
    boolean continuing() {
        Path cp = resumeCheckpoint();
        Path dir = target();
        return cp != null && dir != null && cp.toAbsolutePath().normalize().startsWith(dir.toAbsolutePath().normalize());
    }

    /** The config.json a run without one of its own writes: its name, seed and length. */
    RunConfig effectiveConfig() {
        if (config != null) {
            return config;
        }
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("seed", seed);
        if (steps >= 0) {
            o.put("steps", steps);
        } else {
            o.put("epochs", Math.max(0, epochs < 0 ? 1 : epochs));
        }
        return RunConfig.of(name, o);
    }

    List<String> stateNames() {
        return new ArrayList<>(states.keySet());
    }

    private static void checkName(String what, String s) {
        if (s == null || !s.matches("[A-Za-z0-9][A-Za-z0-9_.-]*")) {
            throw new IllegalArgumentException(what + " must be letters, digits, '_', '.' or '-', got '" + s + "'");
        }
    }

    private static String checkFileName(String s) {
        if (s == null || !s.matches("[A-Za-z0-9][A-Za-z0-9_.-]*") || RunFolder.RUN_FILES.contains(s) || s.equals("loss.png")) {
            throw new IllegalArgumentException("a run's own file takes a plain name other than the run's files, got '" + s + "'");
        }
        return s;
    }
}
