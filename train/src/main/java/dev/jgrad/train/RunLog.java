package dev.jgrad.train;

import dev.jgrad.nn.Parameter;
import dev.jgrad.nn.optim.ClipGrad;
import dev.jgrad.train.tensorboard.EventReader;
import dev.jgrad.train.tensorboard.SummaryWriter;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a run tells TensorBoard, in its folder's {@code tb/}: every row of metrics.csv as a scalar (tag {@code loss/<split>},
 * or {@code loss/<series>/<split>} for a run of several series), and, every {@link Fit#logEvery} steps, the learning rate,
 * the gradients' norm and the speed; the parameters' and gradients' histograms every {@link Fit#histogramEvery} steps;
 * each evaluation's texts and numbers; the run's images and, when it finishes, its options with its final losses as
 * hparams. A resumed run continues the same stream: its file starts with TensorBoard's restart marker at its first new
 * step, so what the stopped run logged after its checkpoint is not shown twice.
 */
final class RunLog implements AutoCloseable {
    /** The folder of a run's event files. */
    static final String FOLDER = "tb";
    /** The subfolder of a finished run's hparams session. */
    static final String HPARAMS = "hparams";

    private final Fit fit;
    private final SummaryWriter tb;
    private final boolean oneSeries;
    private long windowStart = System.nanoTime();
    private long windowSteps;

    private RunLog(Fit fit, SummaryWriter tb) {
        this.fit = fit;
        this.tb = tb;
        this.oneSeries = fit.seriesList().size() == 1;
    }

    /**
     * The run's log in {@code dir/tb}, continuing a stopped run's from {@code firstStep}; one that logs nothing if switched
     * off. A new run in a folder that held another (--overwrite) starts its file with a restart marker at step 0, so
     * TensorBoard shows none of the old run's events beside the new one's.
     */
    static RunLog open(Fit fit, Path dir, long firstStep, boolean continuing, PrintStream warnings) {
        if (!fit.tensorboard) {
            return new RunLog(fit, null);
        }
        Path tb = dir.resolve(FOLDER);
        long purge = continuing ? firstStep : hasEvents(tb) ? 0 : -1;
        return new RunLog(fit, new SummaryWriter(tb, purge, warnings));
    }

    private static boolean hasEvents(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.anyMatch(EventReader::isEventFile);
        } catch (IOException e) {
            return false;
        }
    }

    /** A row just added to the run's metrics. */
    void row(Metrics.Row r) {
        if (tb != null) {
            tb.addScalar(oneSeries ? "loss/" + r.split() : "loss/" + r.series() + "/" + r.split(), r.loss(), r.step());
        }
    }

    /**
     * After step {@code step}'s update (its gradients still in place): every logEvery steps the learning rate, the
     * gradients' norm ({@code clippedNorm}, the norm clipping measured, or measured here) and the speed since the last.
     */
    void stepped(long step, double clippedNorm) {
        if (tb == null) {
            return;
        }
        windowSteps++;
        if (step % Math.max(1, fit.logEvery) == 0) {
            long now = System.nanoTime();
            double seconds = Math.max(1e-9, (now - windowStart) / 1e9);
            tb.addScalar("lr", fit.optimizer.lr(), step);
            double norm = Double.isNaN(clippedNorm) ? ClipGrad.gradNorm(fit.optimizer.params()) : clippedNorm;
            tb.addScalar("grad_norm", norm, step);
            tb.addScalar("speed/steps_per_s", windowSteps / seconds, step);
            if (fit.itemsPerStep > 0) {
                tb.addScalar("speed/" + fit.itemUnit + "_per_s", windowSteps * fit.itemsPerStep / seconds, step);
            }
            windowStart = now;
            windowSteps = 0;
        }
        if (fit.histogramEvery > 0 && step % fit.histogramEvery == 0) {
            for (Map.Entry<String, Parameter> p : fit.model.namedParameters().entrySet()) {
                tb.addHistogram("params/" + p.getKey(), p.getValue().data(), step);
                if (p.getValue().grad() != null) {
                    tb.addHistogram("grads/" + p.getKey(), p.getValue().grad(), step);
                }
            }
        }
    }

    /** An evaluation's texts (a sample) and numbers (an accuracy), at the step it was made. */
    void evaluated(long step, Evaluation ev) {
        if (tb == null) {
            return;
        }
        ev.texts().forEach((label, text) -> tb.addText(label, text, step));
        ev.metrics().forEach((name, value) -> tb.addScalar(name + "/" + ev.split(), value, step));
    }

    /** The run's images (a confusion matrix) at its last step. */
    void images(Map<String, BufferedImage> images, long step) {
        if (tb != null) {
            images.forEach((tag, img) -> tb.addImage(tag, img, step));
        }
    }

    /** A finished run's options, with its final losses, for the HParams tab. */
    void hparams(Map<String, Object> finalMetrics) {
        if (tb == null) {
            return;
        }
        Map<String, Object> options = new LinkedHashMap<>(fit.effectiveConfig().options());
        Map<String, Double> metrics = new LinkedHashMap<>();
        finalMetrics.forEach((k, v) -> {
            if (v instanceof Number n && Double.isFinite(n.doubleValue())) {
                metrics.put("hparam/" + k, n.doubleValue());
            }
        });
        options.replaceAll((k, v) -> v instanceof List<?> || v instanceof Map<?, ?> ? String.valueOf(v) : v);
        // One session per folder: the hparams of an earlier end of this run (one extended since) or of a run it replaced go.
        Path folder = tb.logDir().resolve(HPARAMS);
        try (Stream<Path> files = Files.list(folder)) {
            for (Path f : files.filter(EventReader::isEventFile).toList()) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            // No such folder yet, or one that cannot be cleared: the new session is written beside the old.
        }
        tb.addHparams(options, metrics, HPARAMS);
    }

    /** Writes what is queued and closes the files. */
    @Override
    public void close() {
        if (tb != null) {
            tb.close();
        }
    }
}
