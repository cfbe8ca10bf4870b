package dev.jgrad.train;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Training progress on stderr. On a terminal, a bar redrawn in place: the period, the whole run's step, the loss, the
 * rate and the time left. When the output is not a terminal (a log, CI), plain lines: one at least every
 * {@link #LINE_NANOS} with the same position, loss, rate and time left, so a log never goes quiet for long, and one per
 * period with its losses. A run whose periods are not passes over the data (the GPT's) names them otherwise ("round").
 */
final class Progress {
    /** A plain line at least this often where the output is a log. */
    static final long LINE_NANOS = 10_000_000_000L;
    private static final int WIDTH = 24;
    private final PrintStream err;
    private final boolean interactive;
    private final String label;
    private final String unit;
    private final int periods;
    private final long totalSteps;
    private final LongSupplier clock;
    /** The run's step when this process started training, and when: the rate and the time left count from there. */
    private long firstStep = -1;
    private long firstNanos;
    private long periodStart;
    private long lastDraw;
    private long lastLine;
    private int period;
    private int step;
    private long runStep;
    private int length;
    private int stepsThisPeriod;
    private double lossSum;
    private int lineSteps;
    private double lineLoss;

    Progress(String label, String unit, int periods, int stepsPerPeriod, long totalSteps, PrintStream err, boolean interactive, LongSupplier clock) {
        this.label = label;
        this.unit = unit;
        this.periods = periods;
        this.length = Math.max(1, stepsPerPeriod);
        this.totalSteps = totalSteps;
        this.err = err;
        this.interactive = interactive;
        this.clock = clock;
    }

    /** Period {@code p} begins at its step {@code from} (past 0 when a run resumes inside it), holds {@code steps}, and the run is at {@code runStep}. */
    void startPeriod(int p, int from, int steps, long runStepNow) {
        period = p;
        step = from;
        runStep = runStepNow;
        length = Math.max(1, steps);
        stepsThisPeriod = 0;
        lossSum = 0;
        periodStart = clock.getAsLong();
        if (firstStep < 0) {
            firstStep = runStepNow;
            firstNanos = periodStart;
            lastLine = periodStart;
        }
    }

    void step(double loss) {
        step++;
        runStep++;
        stepsThisPeriod++;
        lossSum += loss;
        lineSteps++;
        lineLoss += loss;
        long now = clock.getAsLong();
        if (interactive && (now - lastDraw > 100_000_000L || step == length)) {
            lastDraw = now;
            int filled = (int) Math.round(WIDTH * Math.min(step, length) / (double) length);
            err.printf(Locale.ROOT, "\r%s %s %d/%d [%s%s] step %d/%d  loss %.4f  %s  %s ", label, unit, period, periods,
                    "=".repeat(filled), " ".repeat(WIDTH - filled), runStep, totalSteps, lossSum / stepsThisPeriod, rate(now), eta(now));
            err.flush();
        } else if (!interactive && now - lastLine >= LINE_NANOS) {
            err.printf(Locale.ROOT, "%s %s %d/%d  step %d/%d  loss %.4f  %s  %s%n", label, unit, period, periods, runStep, totalSteps,
                    lineLoss / lineSteps, rate(now), eta(now));
            lastLine = now;
            lineSteps = 0;
            lineLoss = 0;
        }
    }

    /** Steps a second since this process started training. */
    private String rate(long now) {
        double seconds = (now - firstNanos) / 1e9;
        double r = seconds <= 0 ? 0 : (runStep - firstStep) / seconds;
        return String.format(Locale.ROOT, r >= 10 ? "%.0f steps/s" : "%.2f steps/s", r);
    }

    /** "ETA 1m05s": the steps left at the rate so far (evaluations included). */
    String eta(long now) {
        long done = runStep - firstStep;
        if (done <= 0) {
            return "ETA ?";
        }
        double perStep = (now - firstNanos) / 1e9 / done;
        return "ETA " + duration(Math.max(0, totalSteps - runStep) * perStep);
    }

    /** 45s, 1m05s, 2h03m. */
    static String duration(double seconds) {
        long s = Math.round(seconds);
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
    }

    /** Ends the period with a line: "mlp epoch 3/40  train 0.1234  val 0.2345  (step 96, 0.4 s)". */
    void endPeriod(String details, long stepNow) {
        long now = clock.getAsLong();
        double seconds = (now - periodStart) / 1e9;
        String line = String.format(Locale.ROOT, "%s %s %d/%d  %s  (step %d, %.1f s)", label, unit, period, periods, details, stepNow, seconds);
        if (interactive) {
            err.print("\r" + " ".repeat(WIDTH + label.length() + 90) + "\r");
        }
        err.println(line);
        lastLine = now;
        lineSteps = 0;
        lineLoss = 0;
    }
}
