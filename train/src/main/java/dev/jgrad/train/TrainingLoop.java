package dev.jgrad.train;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.io.AtomicFileSet;
import dev.jgrad.nn.optim.ClipGrad;
import dev.jgrad.tensor.Memory;
import dev.jgrad.tensor.Tensor;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The periods and steps of a run, from its position on: each step zeroes the gradients, computes the loss, checks that it
 * is finite, runs backward, clips, steps the optimizer and the schedule, in its own {@code Memory.scope()}; each period
 * ends with an evaluation (recording off, the model in eval mode), its rows in the metrics, a progress line and, by the
 * run's rule, a checkpoint.
 */
final class TrainingLoop {
    /** How often a run checkpoints after periods at most: tiny epochs would otherwise spend more time writing than training. */
    static final long PERIOD_SAVE_NANOS = 5_000_000_000L;

    private final Fit fit;
    private final Path dir;
    private final RunPosition pos;
    private final Metrics metrics;
    private final PrintStream out;
    private final Progress progress;
    private final List<String> series;
    private final RunLog log;
    private final RunStatus status;
    private long lastSave = System.nanoTime();
    /** Steps this process made: a run that made none writes no new checkpoint. */
    long stepsMade;

    TrainingLoop(Fit fit, Path dir, RunPosition pos, Metrics metrics, PrintStream out, RunLog log, RunStatus status) {
        this.fit = fit;
        this.log = log;
        this.status = status;
        this.dir = dir;
        this.pos = pos;
        this.metrics = metrics;
        this.out = out;
        this.series = fit.seriesList();
        PrintStream err = fit.progressOut != null ? fit.progressOut : System.err;
        boolean redraw = fit.interactive != null ? fit.interactive : System.console() != null && System.getenv("CI") == null;
        this.progress = new Progress(fit.name, fit.periodName, fit.periods(), fit.periodSteps(), fit.totalSteps(), err, redraw, System::nanoTime);
    }

    /** Trains from the position to the last period, or until a stop is asked for. */
    void run() {
        if (fit.evaluateAtStart && pos.atStart() && fit.totalSteps() > 0) {
            Evaluation ev = evaluate();
            for (String s : series) {
                Double train = ev.trainEstimate(s, series.size() == 1);
                if (train != null) {
                    metrics.add(0, 0, s, "train", train);
                }
                double held = ev.heldOut(s, series.size() == 1);
                if (!Double.isNaN(held)) {
                    metrics.add(0, 0, s, ev.split(), held);
                }
            }
            out.println("before training: " + losses(ev, null));
            printTexts(ev);
            log.evaluated(0, ev);
        }
        for (int p = pos.periodsDone + 1; p <= fit.periods() && !Interrupt.requested() && !stoppedEarly(); p++) {
            long start = pos.step - pos.periodSteps;
            int length = (int) (fit.periodEnd(p) - start);
            progress.startPeriod(p, pos.periodSteps, length, pos.step);
            Iterator<List<Tensor>> batches = fit.batches.period(pos.periodSteps, length);
            while (batches.hasNext()) {
                if (Interrupt.requested()) {
                    // Stopped at the end of the last step: the period is unfinished, so it adds no row to the metrics yet.
                    return;
                }
                step(batches.next(), p, length);
            }
            endPeriod(p);
        }
        if (stoppedEarly()) {
            out.println(fit.earlyStop.reason(fit.periodName));
        }
    }

    private boolean stoppedEarly() {
        return fit.earlyStop != null && fit.earlyStop.stoppedAt() > 0;
    }

    private void step(List<Tensor> batch, int period, int length) {
        double[] values = new double[series.size()];
        double clipped = Double.NaN;
        // One memory scope per step: the step's tensors give their arrays to the next step.
        try (Memory.Scope scope = Memory.scope();
             dev.jgrad.nn.Distributed.Scope group = dev.jgrad.nn.Distributed.within(fit.dataParallel == null ? null : fit.dataParallel.group())) {
            fit.optimizer.zeroGrad();
            Map<String, Variable> parts = fit.loss.apply(fit.dataParallel == null ? batch : fit.dataParallel.shard(batch));
            Variable total = null;
            for (int i = 0; i < values.length; i++) {
                Variable l = parts.get(series.get(i));
                if (l == null || parts.size() != values.length) {
                    throw new IllegalStateException("Fit: the losses of a step must be named " + series + ", got " + parts.keySet());
                }
                values[i] = l.item();
                if (!Double.isFinite(values[i]) && !fit.allowNan) {
                    throw new RunException(String.format(Locale.ROOT, "the %s loss is %s at %s %d, step %d of %d: the run stopped before"
                            + " updating the weights, and its folder keeps its last checkpoint (lower the learning rate, or pass"
                            + " --allow-nan to go on)", series.get(i), values[i], fit.periodName, period, pos.periodSteps + 1, length));
                }
                total = total == null ? l : total.add(l);
            }
            total.backward();
            if (fit.dataParallel != null) {
                fit.dataParallel.average(fit.optimizer.params(), values);
            }
            if (fit.clipNorm > 0) {
                clipped = ClipGrad.clipGradNorm(fit.optimizer.params(), fit.clipNorm);
            }
            fit.optimizer.step();
            if (fit.schedule != null) {
                fit.schedule.step();
            }
        }
        pos.step++;
        pos.periodSteps++;
        stepsMade++;
        double shown = 0;
        for (int i = 0; i < values.length; i++) {
            String s = series.get(i);
            pos.addLoss(s, values[i]);
            shown += values[i];
            OptionalDouble logged = pos.windows.get(s).add(values[i], fit.logEvery);
            if (logged.isPresent()) {
                metrics.add(pos.step, period, s, LossChart.STEP_SPLIT, logged.getAsDouble());
            }
        }
        log.stepped(pos.step, clipped);
        status.stepped(pos.step);
        if (fit.saveEvery > 0 && pos.step % fit.saveEvery == 0) {
            save();
        }
        progress.step(shown);
        Interrupt.at(where());
        Interrupt.stepped();
    }

    private void endPeriod(int p) {
        Evaluation ev = evaluate();
        Map<String, Double> trainLoss = new LinkedHashMap<>();
        for (String s : series) {
            Double estimate = ev.trainEstimate(s, series.size() == 1);
            double mean = pos.periodSteps == 0 ? Double.NaN : pos.periodSum(s) / pos.periodSteps;
            trainLoss.put(s, estimate != null ? estimate : mean);
            metrics.add(pos.step, p, s, "train", trainLoss.get(s));
            double held = ev.heldOut(s, series.size() == 1);
            if (!Double.isNaN(held)) {
                metrics.add(pos.step, p, s, ev.split(), held);
            }
        }
        progress.endPeriod(losses(ev, trainLoss), pos.step);
        printTexts(ev);
        log.evaluated(pos.step, ev);
        pos.endPeriod(p);
        if (fit.epochSchedule != null) {
            fit.epochSchedule.step();
        }
        if (fit.plateau != null || fit.earlyStop != null) {
            // The held-out loss as the curves record it, which is what a resumed run replays: the two runs decide alike.
            double logged = Metrics.asLogged(ev.heldOut(series.get(0), series.size() == 1));
            if (fit.plateau != null) {
                fit.plateau.step(logged);
            }
            if (fit.earlyStop != null) {
                fit.earlyStop.observe(logged);
            }
        }
        if (fit.saveBest) {
            double held = ev.heldOut(series.get(0), series.size() == 1);
            if (held < pos.best) {
                pos.best = held;
                pos.bestStep = pos.step;
                save();
            }
        } else if (p < fit.periods() && System.nanoTime() - lastSave >= PERIOD_SAVE_NANOS) {
            save();
        }
    }

    /** "train 0.4123  val 0.4500  test accuracy 88.2%", or per series: "train buggy 0.91 fixed 0.05  val buggy ...". */
    private String losses(Evaluation ev, Map<String, Double> train) {
        StringBuilder sb = new StringBuilder();
        boolean one = series.size() == 1;
        if (train != null) {
            sb.append("train");
            for (String s : series) {
                sb.append(one ? "" : " " + s).append(String.format(Locale.ROOT, " %.4f", train.get(s)));
            }
        } else if (series.stream().anyMatch(s -> ev.trainEstimate(s, one) != null)) {
            sb.append("train");
            for (String s : series) {
                Double t = ev.trainEstimate(s, one);
                sb.append(one ? "" : " " + s).append(String.format(Locale.ROOT, " %.4f", t == null ? Double.NaN : t));
            }
        }
        if (series.stream().anyMatch(s -> !Double.isNaN(ev.heldOut(s, one)))) {
            sb.append(sb.length() > 0 ? "  " : "").append(ev.split());
            for (String s : series) {
                sb.append(one ? "" : " " + s).append(String.format(Locale.ROOT, " %.4f", ev.heldOut(s, one)));
            }
        }
        if (!ev.note().isEmpty()) {
            sb.append(sb.length() > 0 ? "  " : "").append(ev.note());
        }
        return sb.toString();
    }

    private void printTexts(Evaluation ev) {
        for (Map.Entry<String, String> t : ev.texts().entrySet()) {
            out.println("  " + t.getKey() + ": " + t.getValue());
        }
    }

    /** The evaluation of the model now: recording off, eval mode (dropout off, batch norm's running statistics), then back. */
    private Evaluation evaluate() {
        if (fit.evaluate == null) {
            return Evaluation.none();
        }
        boolean training = fit.model.isTraining();
        fit.model.eval();
        try (NoGrad g = NoGrad.enter()) {
            Evaluation ev = fit.evaluate.get();
            return ev == null ? Evaluation.none() : ev;
        } finally {
            fit.model.train(training);
        }
    }

    /** Where the run stands, for the line printed at a stop: "epoch 3, step 120". */
    String where() {
        int period = pos.periodsDone + (pos.periodSteps > 0 ? 1 : 0);
        return fit.periodName + " " + Math.max(1, period) + ", step " + pos.step;
    }

    /** Checkpoints the run now: the curves, the options, the model and optimizer, replaced together. */
    void save() {
        lastSave = System.nanoTime();
        AtomicFileSet files = checkpointFiles();
        if (Checkpoints.allFinite(fit.model)) {
            Checkpoints.add(files, dir, fit.model, fit.optimizer, checkpointMetadata());
        }
        commit(files);
        saved = true;
    }

    /** Whether this process wrote a checkpoint into the folder: until it does, the folder still holds what was there. */
    boolean saved;

    /** The files every checkpoint holds beside the model: metrics.csv, config.json and the run's own files. */
    AtomicFileSet checkpointFiles() {
        AtomicFileSet files = new AtomicFileSet(dir).addString("metrics.csv", metrics.toCsv())
                .addString(RunConfig.FILE, fit.effectiveConfig().toJson());
        fit.files.forEach(files::addString);
        return files;
    }

    /** The model file's metadata: the run's own entries, its name and seed, its position and its generators' states. */
    Map<String, String> checkpointMetadata() {
        Map<String, String> meta = new LinkedHashMap<>(fit.metadata);
        meta.put("example", fit.name);
        meta.put("seed", Long.toString(fit.seed));
        meta.putAll(pos.toMetadata());
        if (fit.batches.generator() != null) {
            meta.put(FitRun.BATCHES_STATE, fit.batches.generator().state());
        }
        fit.states.forEach((name, g) -> meta.put(FitRun.STATE + name, g.state()));
        return meta;
    }

    /** Replaces the set's files in the run folder together; a failure (a full disk) is one line naming the file. */
    static void commit(AtomicFileSet files) {
        try {
            files.commit();
        } catch (IOException e) {
            throw new RunException(e.getMessage(), e);
        }
    }
}
