package dev.jgrad.nn.optim;

import java.util.function.LongToDoubleFunction;

/**
 * Learning-rate schedules: call {@link #step()} once per epoch (or per step, as you define it); the
 * optimizer's rate becomes {@code baseLr * factor(t)}. The factories cover the common shapes.
 */
public class LrScheduler {
    private final Optimizer optimizer;
    private final double baseLr;
    private final LongToDoubleFunction factor;
    private long t;

    /** A schedule whose rate after t steps is the optimizer's rate now times {@code factor(t)}; sets the rate for t = 0. */
    public LrScheduler(Optimizer optimizer, LongToDoubleFunction factor) {
        this.optimizer = optimizer;
        this.baseLr = optimizer.lr();
        this.factor = factor;
        optimizer.setLr(baseLr * factor.applyAsDouble(0));
    }

    /** {@code StepLR}: multiply by {@code gamma} every {@code stepSize} steps. */
    public static LrScheduler step(Optimizer opt, int stepSize, double gamma) {
        if (stepSize <= 0) {
            throw new IllegalArgumentException("StepLR: step_size must be positive, got " + stepSize);
        }
        return new LrScheduler(opt, t -> Math.pow(gamma, t / stepSize));
    }

    /** {@code CosineAnnealingLR}: from the base rate down to {@code etaMin} over {@code tMax} steps along half a cosine. */
    public static LrScheduler cosine(Optimizer opt, int tMax, double etaMin) {
        double base = opt.lr();
        return new LrScheduler(opt, t -> {
            double tt = Math.min(t, tMax);
            return (etaMin + (base - etaMin) * (1 + Math.cos(Math.PI * tt / tMax)) / 2) / base;
        });
    }

    /** Linear warm-up from {@code startFactor} of the base rate to all of it over {@code warmupSteps}, then constant. */
    public static LrScheduler linearWarmup(Optimizer opt, int warmupSteps, double startFactor) {
        return new LrScheduler(opt, t -> t >= warmupSteps ? 1.0 : startFactor + (1 - startFactor) * t / (double) warmupSteps);
    }

    /** Linear warm-up, then cosine decay to {@code etaMin} by step {@code total}. */
    public static LrScheduler warmupCosine(Optimizer opt, int warmupSteps, int total, double etaMin) {
        double base = opt.lr();
        return new LrScheduler(opt, t -> {
            if (t < warmupSteps) {
                return (t + 1) / (double) warmupSteps;
            }
            double progress = Math.min(1.0, (t - warmupSteps) / (double) Math.max(1, total - warmupSteps));
            return (etaMin + (base - etaMin) * (1 + Math.cos(Math.PI * progress)) / 2) / base;
        });
    }

    /**
     * nanoGPT's {@code get_lr}: linear warm-up to the base rate over {@code warmupIters} ({@code lr (it + 1) / (warmup + 1)}),
     * cosine decay to {@code minLr} at {@code decayIters}, then {@code minLr}. Call {@link #step()} once per iteration.
     */
    public static LrScheduler warmupCosineNanoGpt(Optimizer opt, int warmupIters, int decayIters, double minLr) {
        double base = opt.lr();
        if (warmupIters < 0 || decayIters < warmupIters) {
            throw new IllegalArgumentException("warm-up iterations (" + warmupIters + ") must be 0 or more and at most the decay "
                    + "iterations (" + decayIters + ")");
        }
        return new LrScheduler(opt, t -> {
            if (t < warmupIters) {
                return (t + 1) / (double) (warmupIters + 1);
            }
            if (t > decayIters) {
                return minLr / base;
            }
            double ratio = decayIters == warmupIters ? 1.0 : (t - warmupIters) / (double) (decayIters - warmupIters);
            return (minLr + 0.5 * (1 + Math.cos(Math.PI * ratio)) * (base - minLr)) / base;
        });
    }

    /** Advances the schedule by one and sets the optimizer's rate. */
    public void step() {
        t++;
        optimizer.setLr(baseLr * factor.applyAsDouble(t));
    }

    /**
     * Stands the schedule at {@code steps} calls of {@link #step()} and sets the optimizer's rate to match: a resumed run's
     * schedule, whatever rate the loaded optimizer state held.
     */
    public void resumeAt(long steps) {
        if (steps < 0) {
            throw new IllegalArgumentException("a schedule resumes at 0 steps or more, got " + steps);
        }
        t = steps;
        optimizer.setLr(baseLr * factor.applyAsDouble(t));
    }

    /** The calls of {@link #step()} so far (PyTorch's {@code last_epoch}). */
    public long lastEpoch() {
        return t;
    }

    /** The optimizer's rate now. */
    public double lastLr() {
        return optimizer.lr();
    }
}
