package dev.jgrad.train;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an evaluation of the model found, after a period of training: the held-out loss of each series (under the split
 * "val", or "test" where the held-out set is the test set), optionally an estimate of the training loss that replaces the
 * period's mean step loss (nanoGPT's {@code estimate_loss}), a note for the progress line ("test accuracy 88.2%") and
 * texts to show (a language model's sample).
 */
public final class Evaluation {
    private final Double single;
    private final Map<String, Double> bySeries;
    private Double trainSingle;
    private Map<String, Double> trainBySeries = Map.of();
    private String split = "val";
    private String note = "";
    private final Map<String, String> texts = new LinkedHashMap<>();
    private final Map<String, Double> metrics = new LinkedHashMap<>();

    private Evaluation(Double single, Map<String, Double> bySeries) {
        this.single = single;
        this.bySeries = bySeries;
    }

    /** No held-out loss: only the period's training loss is logged. */
    public static Evaluation none() {
        return new Evaluation(null, Map.of());
    }

    /** The held-out loss of a run with one series. */
    public static Evaluation of(double heldOutLoss) {
        return new Evaluation(heldOutLoss, Map.of());
    }

    /** The held-out loss of each series of a run that trains several at once. */
    public static Evaluation of(Map<String, Double> heldOutBySeries) {
        return new Evaluation(null, Collections.unmodifiableMap(new LinkedHashMap<>(heldOutBySeries)));
    }

    /** The split the held-out losses are logged under: "val" (the default) or "test". */
    public Evaluation split(String name) {
        if (name == null || !name.matches("[A-Za-z][A-Za-z0-9_]*") || name.equals("train") || name.equals(LossChart.STEP_SPLIT)) {
            throw new IllegalArgumentException("a held-out split is a plain word other than train and " + LossChart.STEP_SPLIT + ", got " + name);
        }
        this.split = name;
        return this;
    }

    /** An estimate of the training loss, logged as the period's "train" loss instead of the mean of its step losses. */
    public Evaluation train(double estimate) {
        this.trainSingle = estimate;
        return this;
    }

    /** Estimates of the training loss per series, as {@link #train(double)} for a run of several. */
    public Evaluation train(Map<String, Double> estimateBySeries) {
        this.trainBySeries = Collections.unmodifiableMap(new LinkedHashMap<>(estimateBySeries));
        return this;
    }

    /** Added to the period's progress line: "test accuracy 88.21%". */
    public Evaluation note(String text) {
        this.note = text == null ? "" : text;
        return this;
    }

    /** A text the run prints after the period's line, as "  label: text" (a sample, say). */
    public Evaluation text(String label, String text) {
        texts.put(label, text);
        return this;
    }

    /**
     * A number measured on the held-out set besides the loss ("accuracy", 0.882), logged to TensorBoard as
     * {@code accuracy/<split>} at the evaluation's step.
     */
    public Evaluation metric(String name, double value) {
        if (name == null || !name.matches("[A-Za-z][A-Za-z0-9_./-]*")) {
            throw new IllegalArgumentException("a metric's name is a word (letters, digits, _ . / -), got " + name);
        }
        metrics.put(name, value);
        return this;
    }

    /** The held-out loss of {@code series} (NaN when not measured); {@code only} names a run's one series. */
    double heldOut(String series, boolean only) {
        Double v = only && single != null ? single : bySeries.get(series);
        return v == null ? Double.NaN : v;
    }

    /** The training loss estimate of {@code series}, or null where the period's mean step loss stands. */
    Double trainEstimate(String series, boolean only) {
        return only && trainSingle != null ? trainSingle : trainBySeries.get(series);
    }

    String split() {
        return split;
    }

    String note() {
        return note;
    }

    Map<String, String> texts() {
        return texts;
    }

    Map<String, Double> metrics() {
        return metrics;
    }
}
