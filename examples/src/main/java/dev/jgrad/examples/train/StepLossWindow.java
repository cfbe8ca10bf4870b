package dev.jgrad.examples.train;

import java.util.Map;
import java.util.OptionalDouble;

/**
 * The training losses since the last logged one: metrics.csv gets their mean (split {@code train_step}) once the window
 * holds {@code --log-every} steps. Every trainer's checkpoint records the open window, so a resumed run closes it where
 * the uninterrupted run would have; a run resumed with a smaller {@code --log-every} closes it at its next step.
 */
final class StepLossWindow {
    private static final String SUM = "jgrad.log_window_sum";
    private static final String STEPS = "jgrad.log_window_steps";

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

    void writeTo(Map<String, String> meta) {
        meta.put(SUM, Double.toString(sum));
        meta.put(STEPS, Integer.toString(steps));
    }

    /** The window a checkpoint's metadata records (an empty one where it records none). */
    static StepLossWindow of(Map<String, String> meta) {
        StepLossWindow w = new StepLossWindow();
        w.sum = Double.parseDouble(meta.getOrDefault(SUM, "0"));
        w.steps = Integer.parseInt(meta.getOrDefault(STEPS, "0"));
        return w;
    }
}
