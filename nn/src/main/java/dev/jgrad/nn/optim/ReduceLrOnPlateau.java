package dev.jgrad.nn.optim;

/**
 * {@code torch.optim.lr_scheduler.ReduceLROnPlateau} (mode min, relative threshold): after each evaluation, call
 * {@link #step(double)} with the held-out loss; once it has not improved on the best by more than {@code threshold}
 * (relatively) for more than {@code patience} evaluations, the rate is multiplied by {@code factor} (not below
 * {@code minLr}), and then {@code cooldown} evaluations pass before bad ones count again. A NaN loss is never better.
 */
public final class ReduceLrOnPlateau {
    /** PyTorch's eps: a reduction smaller than this is not made. */
    private static final double EPS = 1e-8;

    private final Optimizer optimizer;
    private final double baseLr;
    private final double factor;
    private final int patience;
    private final double threshold;
    private final int cooldown;
    private final double minLr;
    private double best;
    private int badEvaluations;
    private int cooldownLeft;
    private long evaluations;

    /** PyTorch's defaults: factor 0.1, patience 10, threshold 1e-4, no cooldown, no minimum rate. */
    public ReduceLrOnPlateau(Optimizer optimizer) {
        this(optimizer, 0.1, 10, 1e-4, 0, 0);
    }

    /** {@code ReduceLROnPlateau(optimizer, mode='min', factor, patience, threshold, threshold_mode='rel', cooldown, min_lr)}. */
    public ReduceLrOnPlateau(Optimizer optimizer, double factor, int patience, double threshold, int cooldown, double minLr) {
        if (!(factor >= 0 && factor < 1)) {
            throw new IllegalArgumentException("ReduceLROnPlateau: factor should be < 1.0 (and 0 or more), got " + factor);
        }
        if (patience < 0 || cooldown < 0 || !(threshold >= 0) || !(minLr >= 0)) {
            throw new IllegalArgumentException("ReduceLROnPlateau: patience, threshold, cooldown and min_lr must be 0 or more, got "
                    + patience + ", " + threshold + ", " + cooldown + ", " + minLr);
        }
        this.optimizer = optimizer;
        this.baseLr = optimizer.lr();
        this.factor = factor;
        this.patience = patience;
        this.threshold = threshold;
        this.cooldown = cooldown;
        this.minLr = minLr;
        reset();
    }

    /** Takes one evaluation's loss, reducing the rate where the loss has stopped improving. */
    public void step(double loss) {
        evaluations++;
        if (loss < best * (1 - threshold)) {
            best = loss;
            badEvaluations = 0;
        } else {
            badEvaluations++;
        }
        if (cooldownLeft > 0) {
            cooldownLeft--;
            badEvaluations = 0;
        }
        if (badEvaluations > patience) {
            double old = optimizer.lr();
            double reduced = Math.max(old * factor, minLr);
            if (old - reduced > EPS) {
                optimizer.setLr(reduced);
            }
            cooldownLeft = cooldown;
            badEvaluations = 0;
        }
    }

    /**
     * Starts again from the rate the optimizer had when this was made and takes {@code losses} in order: a resumed run's
     * schedule, rebuilt from its curves whatever rate the loaded optimizer state held.
     */
    public void replay(double[] losses) {
        reset();
        optimizer.setLr(baseLr);
        for (double loss : losses) {
            step(loss);
        }
    }

    private void reset() {
        best = Double.POSITIVE_INFINITY;
        badEvaluations = 0;
        cooldownLeft = 0;
        evaluations = 0;
    }

    /** The best loss so far (infinity before any). */
    public double best() {
        return best;
    }

    /** The evaluations taken. */
    public long evaluations() {
        return evaluations;
    }

    /** The optimizer's rate now. */
    public double lastLr() {
        return optimizer.lr();
    }
}
