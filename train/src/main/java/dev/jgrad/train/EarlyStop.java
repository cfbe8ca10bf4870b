package dev.jgrad.train;

/**
 * Stops a run whose held-out loss has not improved on its best by more than {@code minDelta} for {@code patience}
 * evaluations in a row (Lightning's and Keras's EarlyStopping, mode min). Its state follows from the held-out losses
 * alone, so a resumed run rebuilds it from its curves.
 */
final class EarlyStop {
    private final int patience;
    private final double minDelta;
    private double best = Double.POSITIVE_INFINITY;
    private int bestPeriod;
    private int bad;
    private int stoppedAt;
    private int seen;

    EarlyStop(int patience, double minDelta) {
        this.patience = patience;
        this.minDelta = minDelta;
    }

    /** Takes the held-out loss of the next period; true where the run should stop after it. */
    boolean observe(double loss) {
        seen++;
        if (loss < best - minDelta) {
            best = loss;
            bestPeriod = seen;
            bad = 0;
        } else {
            bad++;
        }
        if (bad >= patience && stoppedAt == 0) {
            stoppedAt = seen;
        }
        return stoppedAt != 0;
    }

    /** Starts again and takes {@code losses}, the held-out losses of the periods done, in order. */
    void replay(double[] losses) {
        best = Double.POSITIVE_INFINITY;
        bestPeriod = 0;
        bad = 0;
        stoppedAt = 0;
        seen = 0;
        for (double l : losses) {
            observe(l);
        }
    }

    /** The period after which the run stopped early, or 0 while it has not. */
    int stoppedAt() {
        return stoppedAt;
    }

    /** What the stop is, for the run's output: the patience, the best loss and its period. */
    String reason(String periodName) {
        return String.format(java.util.Locale.ROOT, "stopped early after %s %d: the held-out loss has not improved for %d %ss"
                + " (best %.4f after %s %d)", periodName, stoppedAt, patience, periodName, best, periodName, bestPeriod);
    }
}
