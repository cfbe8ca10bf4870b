package dev.jgrad.train;

import java.util.Map;
import java.util.OptionalDouble;

/**
 * The training losses of one series since the last logged one: metrics.csv gets their mean (split {@code train_step})
 * once the window holds {@code logEvery} steps. Every checkpoint records the open window, so a resumed run closes it where
 * the uninterrupted run would have; a run resumed with a smaller {@code logEvery} closes it at its next step.
 */
final class StepLossWindow {
    private static final String SUM = "jgrad.log_window_sum.";
    private static final String STEPS = "jgrad.log_window_steps.";

    private double sum;
    private int steps;

    /** Adds a step's loss; once the window holds {@code logEvery} steps or more, their mean, and a new window starts. */
    OptionalDouble add(double loss, int logEvery) {
        sum += loss;
        steps++;
        if (logEvery <= 0 || steps < logEvery) {
            return OptionalDouble.empty();
        }
        double mean = sum / steps;
        sum = 0;
        steps = 0;
        return OptionalDouble.of(mean);
    }

    void writeTo(Map<String, String> meta, String series) {
        meta.put(SUM + series, Double.toString(sum));
        meta.put(STEPS + series, Integer.toString(steps));
    }

    /** The window of {@code series} that a checkpoint's metadata records. */
    static StepLossWindow of(MetadataReader meta, String series) {
        StepLossWindow w = new StepLossWindow();
        w.sum = meta.finiteOrNan(SUM + series);
        w.steps = meta.count(STEPS + series);
        return w;
    }
}
