package dev.jgrad.train;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Training progress on stderr: on a terminal, a bar redrawn in place with the period, the loss, the rate and the time
 * left; when the output is not a terminal (or {@code CI} is set), one plain line per period. A run whose periods are not
 * passes over the data (the GPT's) names them otherwise ("round").
 */
final class Progress {
    private static final int WIDTH = 28;
    private final PrintStream err;
    private final boolean interactive;
    private final String label;
    private final String unit;
    private final int periods;
    private long periodStart;
    private long lastDraw;
    private int period;
    private int step;
    private int length;
    private int stepsThisPeriod;
    private double lossSum;

    Progress(String label, String unit, int periods, int stepsPerPeriod, PrintStream err, boolean interactive) {
        this.label = label;
        this.unit = unit;
        this.periods = periods;
        this.length = Math.max(1, stepsPerPeriod);
        this.err = err;
        this.interactive = interactive;
    }

    /** Period {@code p} begins at its step {@code from} (past 0 when a run resumes inside it) and holds {@code steps}. */
    void startPeriod(int p, int from, int steps) {
        period = p;
        step = from;
        length = Math.max(1, steps);
        stepsThisPeriod = 0;
        lossSum = 0;
        periodStart = System.nanoTime();
    }

    void step(double loss) {
        step++;
        stepsThisPeriod++;
        lossSum += loss;
        long now = System.nanoTime();
        if (interactive && (now - lastDraw > 100_000_000L || step == length)) {
            lastDraw = now;
            int filled = (int) Math.round(WIDTH * Math.min(step, length) / (double) length);
            double seconds = Math.max(1e-9, (now - periodStart) / 1e9);
            double rate = stepsThisPeriod / seconds;
            err.printf(Locale.ROOT, "\r%s %s %d/%d [%s%s] loss %.4f  %.0f steps/s ", label, unit, period, periods,
                    "=".repeat(filled), " ".repeat(WIDTH - filled), lossSum / stepsThisPeriod, rate);
            err.flush();
        }
    }

    /** Ends the period with a line: "mlp epoch 3/40  train 0.1234  val 0.2345  (step 96, 0.4 s)". */
    void endPeriod(String details, long stepNow) {
        double seconds = (System.nanoTime() - periodStart) / 1e9;
        String line = String.format(Locale.ROOT, "%s %s %d/%d  %s  (step %d, %.1f s)", label, unit, period, periods, details, stepNow, seconds);
        if (interactive) {
            err.print("\r" + " ".repeat(WIDTH + label.length() + 60) + "\r");
        }
        err.println(line);
    }
}
