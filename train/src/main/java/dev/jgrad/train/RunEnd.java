package dev.jgrad.train;

import dev.jgrad.nn.io.AtomicFile;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The end of a run, as {@link Fit#atEnd} sees it: where the run stands and what it logged, and what to add to the files
 * it leaves (charts of its own, numbers for summary.json, the loss chart's subtitle). Everything added here is written in
 * the same atomic set as the curves, the summary and the final checkpoint.
 */
public final class RunEnd {
    private final Path dir;
    private final Metrics metrics;
    private final boolean interrupted;
    private final long steps;
    private final int periodsDone;
    private final RunPosition pos;
    String subtitle;
    final Map<String, AtomicFile.Writer> files = new LinkedHashMap<>();
    final Map<String, BufferedImage> images = new LinkedHashMap<>();
    final Map<String, Map<String, Object>> seriesSummary = new LinkedHashMap<>();
    final Map<String, Object> summary = new LinkedHashMap<>();

    RunEnd(Path dir, Metrics metrics, boolean interrupted, RunPosition pos) {
        this.dir = dir;
        this.metrics = metrics;
        this.interrupted = interrupted;
        this.steps = pos.step;
        this.periodsDone = pos.periodsDone;
        this.pos = pos;
    }

    /** The run folder. */
    public Path dir() {
        return dir;
    }

    /** Every loss the run logged, its earlier part included where it was resumed. */
    public Metrics metrics() {
        return metrics;
    }

    /** Whether the run stopped early (Ctrl-C, {@link Interrupt#request}): what follows describes a run in progress. */
    public boolean interrupted() {
        return interrupted;
    }

    /** Optimizer steps made, over the whole run. */
    public long steps() {
        return steps;
    }

    /** Periods (epochs) finished, over the whole run. */
    public int epochsDone() {
        return periodsDone;
    }

    /** The mean of every step's training loss of {@code series}, over the whole run (NaN before any step). */
    public double meanStepLoss(String series) {
        return steps == 0 || !pos.sums.containsKey(series) ? Double.NaN : pos.totalSum(series) / steps;
    }

    /** The best held-out loss of the first series so far (infinite before any evaluation). */
    public double bestHeldOut() {
        return pos.best;
    }

    /** The step of that loss, where the run checkpoints only when it improves ({@link Fit#saveBest}): the saved model's step. */
    public long bestStep() {
        return pos.bestStep;
    }

    /** The loss chart's subtitle (default: the seed). */
    public RunEnd subtitle(String text) {
        this.subtitle = text;
        return this;
    }

    /** A file the run leaves beside its curves (a chart of its own); a plain file name. */
    public RunEnd file(String name, AtomicFile.Writer writer) {
        files.put(name, writer);
        return this;
    }

    /** An image for TensorBoard's images tab (a confusion matrix), at the run's last step; not drawn on afterwards. */
    public RunEnd image(String tag, BufferedImage image) {
        images.put(tag, image);
        return this;
    }

    /** A file the run leaves beside its curves, given as its bytes. */
    public RunEnd file(String name, byte[] bytes) {
        return file(name, out -> out.write(bytes));
    }

    /** A number (or text, list, map) in summary.json under {@code series}, beside its final losses. */
    public RunEnd summary(String series, String key, Object value) {
        seriesSummary.computeIfAbsent(series, k -> new LinkedHashMap<>()).put(key, value);
        return this;
    }

    /** A number (or text, list, map) at the top level of summary.json. */
    public RunEnd summary(String key, Object value) {
        summary.put(key, value);
        return this;
    }
}
