package dev.jgrad.examples.train;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Training progress on stderr: on a terminal, a bar redrawn in place with the epoch, the loss and the
 * rate; when the output is not a terminal or {@code CI} is set, one plain line per epoch instead. A trainer whose
 * stretches between evaluations are not passes over the data (the GPT's) names them otherwise ("round").
 */
final class Progress {
    private static final int WIDTH = 28;
    private final PrintStream err;
    private final boolean interactive;
    private final String label;
    private final String unit;
    private final int epochs;
    private final int stepsPerEpoch;
    private long epochStart;
    private long lastDraw;
    private int epoch;
    private int step;
    private double lossSum;

    Progress(String label, int epochs, int stepsPerEpoch) {
        this(label, "epoch", epochs, stepsPerEpoch);
    }

    /** Progress whose stretches are called {@code unit} in its lines ("epoch", "round"). */
    Progress(String label, String unit, int epochs, int stepsPerEpoch) {
        this(label, unit, epochs, stepsPerEpoch, System.err, System.console() != null && System.getenv("CI") == null);
    }

    Progress(String label, int epochs, int stepsPerEpoch, PrintStream err, boolean interactive) {
        this(label, "epoch", epochs, stepsPerEpoch, err, interactive);
    }

    Progress(String label, String unit, int epochs, int stepsPerEpoch, PrintStream err, boolean interactive) {
        this.label = label;
        this.unit = unit;
        this.epochs = epochs;
        this.stepsPerEpoch = Math.max(1, stepsPerEpoch);
        this.err = err;
        this.interactive = interactive;
    }

    void startEpoch(int e) {
        epoch = e;
        step = 0;
        lossSum = 0;
        epochStart = System.nanoTime();
    }

    void step(double loss) {
        step++;
        lossSum += loss;
        long now = System.nanoTime();
        if (interactive && (now - lastDraw > 100_000_000L || step == stepsPerEpoch)) {
            lastDraw = now;
            int filled = (int) Math.round(WIDTH * step / (double) stepsPerEpoch);
            double seconds = Math.max(1e-9, (now - epochStart) / 1e9);
            err.printf(Locale.ROOT, "\r%s %s %d/%d [%s%s] loss %.4f  %.0f steps/s ", label, unit, epoch, epochs,
                    "=".repeat(filled), " ".repeat(WIDTH - filled), lossSum / step, step / seconds);
            err.flush();
        }
    }

    /** Ends the epoch with a line: "regression/fixed epoch 3/40  train 0.1234  val 0.2345  (0.4 s)". */
    void endEpoch(String details) {
        double seconds = (System.nanoTime() - epochStart) / 1e9;
        String line = String.format(Locale.ROOT, "%s %s %d/%d  train %.4f  %s (%.1f s)", label, unit, epoch, epochs,
                step == 0 ? Double.NaN : lossSum / step, details, seconds);
        if (interactive) {
            err.print("\r" + " ".repeat(WIDTH + label.length() + 60) + "\r");
        }
        err.println(line);
    }
}
