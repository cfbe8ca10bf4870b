package dev.jgrad.train;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a run stands: periods finished (an epoch, or {@code evaluateEvery} steps), steps made in the next one, optimizer
 * steps in all, and for each series the loss of the open period, the loss of the whole run, and the open step-loss
 * window; the best held-out loss so far. Written into every checkpoint's metadata, so that a resumed run continues where
 * it stopped: the data order, the counts and the curves go on as if it had never stopped.
 */
final class RunPosition {
    static final String STEP = "jgrad.step";
    static final String PERIODS = "jgrad.periods_done";
    static final String PERIOD_STEPS = "jgrad.period_steps";
    static final String BEST = "jgrad.best_held_out";
    static final String BEST_STEP = "jgrad.best_step";
    private static final String PERIOD_SUM = "jgrad.period_loss_sum.";
    private static final String TOTAL_SUM = "jgrad.loss_sum.";

    int periodsDone;
    int periodSteps;
    long step;
    double best = Double.POSITIVE_INFINITY;
    /** The step of the best held-out loss, where the run checkpoints only then (-1: none yet). */
    long bestStep = -1;
    final Map<String, double[]> sums = new LinkedHashMap<>();
    final Map<String, StepLossWindow> windows = new LinkedHashMap<>();

    RunPosition(List<String> series) {
        for (String s : series) {
            sums.put(s, new double[2]);
            windows.put(s, new StepLossWindow());
        }
    }

    /** The loss of {@code series}'s open period so far. */
    double periodSum(String series) {
        return sums.get(series)[0];
    }

    double totalSum(String series) {
        return sums.get(series)[1];
    }

    void addLoss(String series, double loss) {
        double[] s = sums.get(series);
        s[0] += loss;
        s[1] += loss;
    }

    /** A period ended: the next one starts with no steps and no loss. */
    void endPeriod(int period) {
        periodsDone = period;
        periodSteps = 0;
        for (double[] s : sums.values()) {
            s[0] = 0;
        }
    }

    Map<String, String> toMetadata() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(STEP, Long.toString(step));
        m.put(PERIODS, Integer.toString(periodsDone));
        m.put(PERIOD_STEPS, Integer.toString(periodSteps));
        m.put(BEST, Double.toString(best));
        m.put(BEST_STEP, Long.toString(bestStep));
        for (Map.Entry<String, double[]> e : sums.entrySet()) {
            m.put(PERIOD_SUM + e.getKey(), Double.toString(e.getValue()[0]));
            m.put(TOTAL_SUM + e.getKey(), Double.toString(e.getValue()[1]));
            windows.get(e.getKey()).writeTo(m, e.getKey());
        }
        return m;
    }

    /** The position a checkpoint's metadata records; every key must be there and hold what it should. */
    static RunPosition of(MetadataReader meta, List<String> series) {
        RunPosition p = new RunPosition(series);
        p.step = meta.whole(STEP);
        p.periodsDone = meta.count(PERIODS);
        p.periodSteps = meta.count(PERIOD_STEPS);
        p.best = meta.number(BEST);
        p.bestStep = meta.number(BEST_STEP) < 0 ? -1 : meta.whole(BEST_STEP);
        for (String s : series) {
            p.sums.put(s, new double[] {meta.finiteOrNan(PERIOD_SUM + s), meta.finiteOrNan(TOTAL_SUM + s)});
            p.windows.put(s, StepLossWindow.of(meta, s));
        }
        return p;
    }

    boolean atStart() {
        return periodsDone == 0 && periodSteps == 0 && step == 0;
    }

    @Override
    public String toString() {
        return "step " + step + " (" + periodsDone + " period(s) done" + (periodSteps > 0 ? ", " + periodSteps + " step(s) into the next" : "")
                + ")";
    }
}
