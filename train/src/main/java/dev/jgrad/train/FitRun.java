package dev.jgrad.train;

import dev.jgrad.nn.io.AtomicFileSet;
import dev.jgrad.nn.io.Json;
import dev.jgrad.tensor.Generator;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One run of a {@link Fit}: prepares the folder, loads what it resumes from and checks that the checkpoint, its position,
 * the optimizer's step count and the curves agree, trains, then writes the run's files (curves, charts, summary, options
 * and the final checkpoint) as one atomic set.
 */
final class FitRun {
    /** The metadata key prefix of the generators a run names ({@link Fit#state}). */
    static final String STATE = "jgrad.state.";
    /** The metadata key of a {@link Batches#drawn} generator's state. */
    static final String BATCHES_STATE = "jgrad.batches_rng";

    private final Fit fit;
    private final PrintStream out;
    private final List<String> series;

    FitRun(Fit fit, PrintStream out) {
        this.fit = fit;
        this.out = out;
        this.series = fit.seriesList();
    }

    Fit.Result run() {
        long started = System.nanoTime();
        Interrupt.install();
        boolean continuing = fit.continuing();
        Path dir = RunFolder.prepare(fit.target(), fit.name, fit.overwrite, continuing);
        Interrupt.runDir(dir);
        if (continuing) {
            RunConfig.read(dir).ifPresent(stored -> {
                if (!stored.trainer().equals(fit.effectiveConfig().trainer())) {
                    throw new RunException("--resume: " + dir + " holds a run of " + stored.trainer() + ", not of " + fit.effectiveConfig().trainer());
                }
            });
        }
        Path checkpoint = fit.resumeCheckpoint();
        Map<String, String> meta = checkpoint == null ? null : Checkpoints.load(checkpoint, fit.model, fit.optimizer, continuing);
        Metrics metrics = new Metrics();
        RunPosition pos = continuing ? restore(new MetadataReader(meta, checkpoint), dir, metrics) : new RunPosition(series);
        double secondsBefore = continuing ? secondsSoFar(dir) : 0;
        if (meta != null) {
            out.println(fit.name + ": " + (continuing ? "continuing " + dir + " at " + pos
                    : "starting from the weights in " + checkpoint
                    + (Files.exists(checkpoint.toAbsolutePath().resolveSibling(Checkpoints.OPTIMIZER)) ? " and the optimizer state beside them" : "")));
        }
        for (int p = 0; p < pos.periodsDone; p++) {
            fit.batches.skipPeriod();
        }
        if (fit.schedule != null) {
            fit.schedule.resumeAt(pos.step);
        }
        if (fit.epochSchedule != null) {
            fit.epochSchedule.resumeAt(pos.periodsDone);
        }
        // The schedules that follow the held-out loss start again from the losses of the periods done.
        double[] heldOut = continuing ? heldOutLosses(metrics, series.get(0), pos.periodsDone) : new double[0];
        if (fit.plateau != null && continuing) {
            fit.plateau.replay(heldOut);
        }
        if (fit.earlyStop != null) {
            fit.earlyStop.replay(heldOut);
        }
        RunStatus status = new RunStatus(dir, fit.totalSteps());
        try (RunLog log = RunLog.open(fit, dir, pos.step + 1, continuing, fit.progressOut != null ? fit.progressOut : System.err)) {
            metrics.onAdd(log::row);
            TrainingLoop loop = new TrainingLoop(fit, dir, pos, metrics, out, log, status);
            Interrupt.at(loop.where());
            // From here a signal asks for a stop at the end of a step, and the run's files are still written after it.
            Interrupt.inLoop(true);
            try {
                loop.run();
                Fit.Result r = finish(dir, pos, metrics, loop, started, secondsBefore, log);
                status.ended(r.interrupted() ? "interrupted" : "finished", pos.step, null);
                return r;
            } catch (RuntimeException e) {
                if (loop.saved) {
                    status.ended("failed", pos.step, e.getMessage());
                } else {
                    // Nothing of this run reached the folder: it still holds what it held, and says so.
                    status.restore();
                }
                throw e;
            } finally {
                Interrupt.inLoop(false);
            }
        } finally {
            metrics.onAdd(null);
        }
    }

    /**
     * Where the checkpoint says the run stands, with its generators restored and its curves read back, after checking that
     * its position fits the run's periods, the optimizer's step count and the folder's metrics.csv.
     */
    private RunPosition restore(MetadataReader meta, Path dir, Metrics metrics) {
        String example = meta.text("example");
        if (!example.equals(fit.name)) {
            throw new RunException("--resume: " + dir + " holds a run named " + example + ", not " + fit.name);
        }
        RunPosition pos = RunPosition.of(meta, series);
        checkPosition(pos, meta);
        String optSteps = fit.optimizer.stateMetadata().get("steps");
        if (!Long.toString(pos.step).equals(optSteps)) {
            throw meta.bad(RunPosition.STEP, Long.toString(pos.step), "the optimizer's step count (" + optSteps + ")");
        }
        for (Map.Entry<String, Generator> g : Checkpoints.dropoutGenerators(fit.model).entrySet()) {
            Checkpoints.restore(g.getValue(), Checkpoints.RNG + g.getKey(), meta);
        }
        if (fit.batches.generator() != null) {
            Checkpoints.restore(fit.batches.generator(), BATCHES_STATE, meta);
        }
        for (Map.Entry<String, Generator> g : fit.states.entrySet()) {
            Checkpoints.restore(g.getValue(), STATE + g.getKey(), meta);
        }
        readCurves(dir, pos, metrics);
        return pos;
    }

    /** The step count must be what the finished periods and the steps into the next one add up to. */
    private void checkPosition(RunPosition pos, MetadataReader meta) {
        long periodStart = pos.step - pos.periodSteps;
        long k = fit.periodSteps();
        boolean fits;
        // A checkpoint taken after a period's last step and before its evaluation (--save-every) holds all its steps.
        if (fit.batches.naturalPeriod() > 0) {
            fits = periodStart == pos.periodsDone * k && pos.periodSteps <= k;
        } else {
            // Drawn batches: a run that ended with a short period and is extended continues from where that one ended.
            fits = periodStart >= 0 && (pos.periodsDone == 0 ? periodStart == 0
                    : periodStart > (pos.periodsDone - 1) * k && periodStart <= pos.periodsDone * k)
                    && pos.step <= (pos.periodsDone + 1) * k;
        }
        if (!fits) {
            throw meta.bad(RunPosition.STEP + " with " + RunPosition.PERIODS + " and " + RunPosition.PERIOD_STEPS,
                    pos.step + ", " + pos.periodsDone + ", " + pos.periodSteps, "a position of this run (periods of " + k + " steps)");
        }
        if (pos.periodsDone > fit.periods()) {
            throw new RunException("--resume: the run has finished " + pos.periodsDone + " " + fit.periodName + "s; this run asks for "
                    + fit.periods() + ", which ends before that (give as many or more to go on)");
        }
    }

    /**
     * The rows of the folder's metrics.csv that the checkpoint covers (the step losses up to its step, the periods it
     * finished); a file that lacks rows the checkpoint covers is not this checkpoint's, and is refused.
     */
    private void readCurves(Path dir, RunPosition pos, Metrics metrics) {
        Path csv = dir.resolve("metrics.csv");
        if (!Files.exists(csv)) {
            if (pos.periodsDone > 0) {
                throw new RunException("--resume: " + csv + " is missing, but the checkpoint has finished " + pos.periodsDone + " "
                        + fit.periodName + "(s): the folder is not whole");
            }
            return;
        }
        List<Metrics.Row> rows;
        try {
            rows = Metrics.read(csv).rows();
        } catch (IOException | IllegalArgumentException e) {
            throw new RunException("--resume: cannot read the run's curves " + csv + ": " + e.getMessage(), e);
        }
        java.util.Set<Integer> periods = new java.util.TreeSet<>();
        for (Metrics.Row r : rows) {
            boolean covered = r.split().equals(LossChart.STEP_SPLIT) ? r.step() <= pos.step : r.epoch() <= pos.periodsDone;
            if (covered) {
                metrics.add(r.step(), r.epoch(), r.series(), r.split(), r.loss());
                if (r.series().equals(series.get(0)) && r.split().equals("train") && r.epoch() >= 1) {
                    periods.add(r.epoch());
                }
            }
        }
        if (periods.size() != pos.periodsDone) {
            throw new RunException("--resume: " + csv + " holds the training loss of " + periods.size() + " " + fit.periodName
                    + "(s), but the checkpoint says " + pos.periodsDone + " are done: the curves and the checkpoint are not of one moment");
        }
    }

    /**
     * The seconds the run's earlier sessions took, as the folder's summary says (0 where it says nothing: a session that
     * crashed before writing it is not counted). Not kept in the checkpoint, so that the same seed writes the same model file.
     */
    static double secondsSoFar(Path dir) {
        return RunSummary.seconds(dir).orElse(0);
    }

    private Fit.Result finish(Path dir, RunPosition pos, Metrics metrics, TrainingLoop loop, long started, double secondsBefore,
                              RunLog log) {
        boolean interrupted = Interrupt.requested();
        if (!fit.allowNan && !Checkpoints.allFinite(fit.model)) {
            throw new RunException("the " + fit.name + " run ended with NaN or infinite weights although its loss stayed finite: its folder"
                    + " keeps its last checkpoint (lower the learning rate, or pass --allow-nan to go on)");
        }
        RunEnd end = new RunEnd(dir, metrics, interrupted, pos);
        fit.atEnd.accept(end);
        AtomicFileSet files = loop.checkpointFiles();
        String subtitle = end.subtitle != null ? end.subtitle : "seed " + fit.seed;
        files.add("loss.png", LossChart.writer(metrics, fit.title != null ? fit.title : fit.name + ": loss", subtitle));
        end.files.forEach(files::add);
        double seconds = secondsBefore + (System.nanoTime() - started) / 1e9;
        Map<String, Object> summary = summary(metrics, end, pos, interrupted, seconds);
        files.addString(RunSummary.FILE, Json.writePretty(summary));
        log.images(end.images, pos.step);
        if (!interrupted) {
            log.hparams(finalMetrics(summary));
        }
        boolean checkpoint = !fit.saveBest && loop.stepsMade > 0;
        if (checkpoint) {
            try {
                Checkpoints.add(files, dir, fit.model, fit.optimizer, loop.checkpointMetadata());
            } catch (RunException broken) {
                // A run that went on through NaN keeps its curves and summary, never a checkpoint of broken weights.
                TrainingLoop.commit(files);
                throw broken;
            }
        }
        TrainingLoop.commit(files);
        String written = dir + "/{" + String.join(", ", files.names()) + (Files.isDirectory(dir.resolve(RunLog.FOLDER)) ? ", tb/" : "") + "}";
        String time = String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - started) / 1e9);
        if (interrupted) {
            out.println("Stopped at " + loop.where() + " (interrupted): wrote the run so far, " + written + ", in " + time);
        } else {
            out.println("Wrote " + written + " in " + time + (loop.stepsMade == 0 && !fit.saveBest
                    ? "; no new checkpoint, as this run made no training step" : ""));
        }
        if (fit.saveBest && pos.bestStep >= 0) {
            out.println(String.format(Locale.ROOT, "The model in %s is from step %d, the best %s loss, %.4f", dir, pos.bestStep,
                    heldOutSplit(metrics, series.get(0)), pos.best));
        }
        String first = series.get(0);
        return new Fit.Result(metrics.last(first, "train"), metrics.last(first, heldOutSplit(metrics, first)), dir, interrupted, pos.step, metrics);
    }

    private Map<String, Object> summary(Metrics metrics, RunEnd end, RunPosition pos, boolean interrupted, double seconds) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("example", fit.name);
        s.put("seed", fit.seed);
        s.put("seconds", Math.round(seconds * 1000) / 1000.0);
        s.put("steps", pos.step);
        s.put(fit.periodName + "s_done", pos.periodsDone);
        s.put("interrupted", interrupted);
        if (fit.earlyStop != null && fit.earlyStop.stoppedAt() > 0) {
            s.put("stopped_early_after", fit.earlyStop.stoppedAt());
        }
        if (fit.saveBest) {
            // Which step the model in the folder comes from: the best evaluation, not the last step.
            Map<String, Object> saved = new LinkedHashMap<>();
            saved.put("step", pos.bestStep < 0 ? null : pos.bestStep);
            saved.put(heldOutSplit(metrics, series.get(0)) + "_loss", pos.best);
            s.put("checkpoint", saved);
        }
        Map<String, Object> bySeries = new LinkedHashMap<>();
        for (String name : series) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("final_loss", metrics.last(name, "train"));
            String split = heldOutSplit(metrics, name);
            m.put(split + "_loss", metrics.last(name, split));
            m.putAll(end.seriesSummary.getOrDefault(name, Map.of()));
            bySeries.put(name, m);
        }
        s.put("series", bySeries);
        s.putAll(end.summary);
        return finite(s);
    }

    /** The numbers of summary.json that describe how the run ended, flat: each series' final losses, the saved checkpoint's. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> finalMetrics(Map<String, Object> summary) {
        Map<String, Object> flat = new LinkedHashMap<>();
        Map<String, Object> bySeries = (Map<String, Object>) summary.getOrDefault("series", Map.of());
        bySeries.forEach((name, m) -> ((Map<String, Object>) m).forEach((k, v) -> {
            if (k.endsWith("_loss")) {
                flat.put(series.size() == 1 ? k : name + "/" + k, v);
            }
        }));
        Object saved = summary.get("checkpoint");
        if (saved instanceof Map<?, ?> m) {
            m.forEach((k, v) -> flat.put("checkpoint_" + k, v));
        }
        return flat;
    }

    /** The held-out losses of {@code series} in the first {@code periods} periods, in order (NaN where none was logged). */
    private static double[] heldOutLosses(Metrics metrics, String series, int periods) {
        double[] losses = new double[periods];
        java.util.Arrays.fill(losses, Double.NaN);
        String split = heldOutSplit(metrics, series);
        for (Metrics.Row r : metrics.rows()) {
            if (r.series().equals(series) && r.split().equals(split) && r.epoch() >= 1 && r.epoch() <= periods) {
                losses[r.epoch() - 1] = r.loss();
            }
        }
        return losses;
    }

    /** The split of a series' held-out rows: "val", or "test" where the held-out set is the test set. */
    private static String heldOutSplit(Metrics metrics, String series) {
        String split = "val";
        for (Metrics.Row r : metrics.rows()) {
            if (r.series().equals(series) && !r.split().equals("train") && !r.split().equals(LossChart.STEP_SPLIT)) {
                split = r.split();
            }
        }
        return split;
    }

    /** JSON has no NaN: a value that was never measured (no epoch ran) is written as null. */
    @SuppressWarnings("unchecked")
    private static <T> T finite(T v) {
        if (v instanceof Double && !Double.isFinite((Double) v)) {
            return null;
        }
        if (v instanceof Map) {
            Map<String, Object> m = new LinkedHashMap<>();
            ((Map<String, Object>) v).forEach((k, x) -> m.put(k, finite(x)));
            return (T) m;
        }
        return v;
    }
}
