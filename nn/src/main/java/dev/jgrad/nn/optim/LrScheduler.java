package dev.jgrad.nn.optim;

import java.util.function.LongToDoubleFunction;

/**
 * Learning-rate schedules: call {@link #step()} once per epoch (or per step, as you define it). A schedule made from a
 * factor (PyTorch's {@code LambdaLR}) sets the optimizer's rate to {@code baseLr * factor(t)}, where {@code baseLr} is
 * the rate when the schedule was made; the factories cover the common shapes and compute each rate as PyTorch (or
 * nanoGPT) writes it, so a base rate of 0 stays 0.
 */
public class LrScheduler {
    private final Optimizer optimizer;
    private final LongToDoubleFunction rate;
    private long t;

    /** A schedule whose rate after t steps is the optimizer's rate now times {@code factor(t)}; sets the rate for t = 0. */
    public LrScheduler(Optimizer optimizer, LongToDoubleFunction factor) {
        this(optimizer, factor(optimizer.lr(), factor), 0);
    }

    /** A schedule whose rate after t steps is {@code rate(t)}; sets the rate for t = 0. */
    private LrScheduler(Optimizer optimizer, LongToDoubleFunction rate, long t) {
        this.optimizer = optimizer;
        this.rate = rate;
        this.t = t;
        optimizer.setLr(rate.applyAsDouble(t));
    }

    private static LongToDoubleFunction factor(double base, LongToDoubleFunction factor) {
        return t -> base * factor.applyAsDouble(t);
    }

    /** {@code StepLR}: multiply by {@code gamma} every {@code stepSize} steps. */
    public static LrScheduler step(Optimizer opt, int stepSize, double gamma) {
        if (stepSize <= 0) {
            throw new IllegalArgumentException("StepLR: step_size must be positive, got " + stepSize);
        }
        return new LrScheduler(opt, t -> Math.pow(gamma, t / stepSize));
    }

    /** {@code ExponentialLR}: multiply by {@code gamma} every step. */
    public static LrScheduler exponential(Optimizer opt, double gamma) {
        if (!(gamma > 0) || Double.isInfinite(gamma)) {
            throw new IllegalArgumentException("ExponentialLR: gamma must be a positive number, got " + gamma);
        }
        return new LrScheduler(opt, t -> Math.pow(gamma, t));
    }

    /**
     * {@code MultiStepLR}: multiply by {@code gamma} at each milestone step (a milestone given twice, twice; in any
     * order, as PyTorch counts them).
     */
    public static LrScheduler multiStep(Optimizer opt, int[] milestones, double gamma) {
        int[] sorted = milestones.clone();
        java.util.Arrays.sort(sorted);
        if (sorted.length > 0 && sorted[0] < 0) {
            throw new IllegalArgumentException("MultiStepLR: milestones must be 0 or more, got " + sorted[0]);
        }
        return new LrScheduler(opt, t -> {
            int passed = 0;
            while (passed < sorted.length && sorted[passed] <= t) {
                passed++;
            }
            return Math.pow(gamma, passed);
        });
    }

    /**
     * {@code CosineAnnealingLR}: from the base rate down to {@code etaMin} over {@code tMax} steps along half a cosine, then
     * {@code etaMin} (PyTorch's climbs back up the cosine after {@code tMax} steps, a restart that this one does not make).
     */
    public static LrScheduler cosine(Optimizer opt, int tMax, double etaMin) {
        if (tMax <= 0) {
            throw new IllegalArgumentException("CosineAnnealingLR: T_max must be positive, got " + tMax);
        }
        double base = opt.lr();
        return new LrScheduler(opt, t -> etaMin + (base - etaMin) * (1 + Math.cos(Math.PI * Math.min(t, tMax) / tMax)) / 2, 0);
    }

    /**
     * {@code LinearLR} with an end factor of 1: linear warm-up from {@code startFactor} of the base rate to all of it over
     * {@code warmupSteps}, then constant.
     */
    public static LrScheduler linearWarmup(Optimizer opt, int warmupSteps, double startFactor) {
        if (!(startFactor > 0 && startFactor <= 1)) {
            throw new IllegalArgumentException("LinearLR: start_factor must be greater than 0 and at most 1, got " + startFactor);
        }
        return new LrScheduler(opt, t -> t >= warmupSteps ? 1.0 : startFactor + (1 - startFactor) * t / (double) warmupSteps);
    }

    /**
     * Linear warm-up over {@code warmupSteps} ({@code base (t + 1) / warmupSteps}, all of the base rate at step
     * {@code warmupSteps - 1}), then cosine decay to {@code etaMin} by step {@code total}, then {@code etaMin}.
     */
    public static LrScheduler warmupCosine(Optimizer opt, int warmupSteps, int total, double etaMin) {
        if (warmupSteps < 0 || total < warmupSteps) {
            throw new IllegalArgumentException("warm-up steps (" + warmupSteps + ") must be 0 or more and at most the total ("
                    + total + ")");
        }
        double base = opt.lr();
        return new LrScheduler(opt, t -> {
            if (t < warmupSteps) {
                return base * (t + 1) / warmupSteps;
            }
            double progress = Math.min(1.0, (t - warmupSteps) / (double) Math.max(1, total - warmupSteps));
            return etaMin + (base - etaMin) * (1 + Math.cos(Math.PI * progress)) / 2;
        }, 0);
    }

    /**
     * nanoGPT's {@code get_lr}, in its arithmetic: linear warm-up to the base rate over {@code warmupIters}
     * ({@code lr * (it + 1) / (warmup + 1)}), cosine decay to {@code minLr} at {@code decayIters}, then {@code minLr}. Call
     * {@link #step()} once per iteration.
     */
    public static LrScheduler warmupCosineNanoGpt(Optimizer opt, int warmupIters, int decayIters, double minLr) {
        double base = opt.lr();
        if (warmupIters < 0 || decayIters < warmupIters) {
            throw new IllegalArgumentException("warm-up iterations (" + warmupIters + ") must be 0 or more and at most the decay "
                    + "iterations (" + decayIters + ")");
        }
        return new LrScheduler(opt, t -> {
            if (t < warmupIters) {
                return base * (t + 1) / (warmupIters + 1);
            }
            if (t > decayIters) {
                return minLr;
            }
            double ratio = decayIters == warmupIters ? 1.0 : (t - warmupIters) / (double) (decayIters - warmupIters);
            double coeff = 0.5 * (1.0 + Math.cos(Math.PI * ratio));
            return minLr + coeff * (base - minLr);
        }, 0);
    }

    /** Advances the schedule by one and sets the optimizer's rate. */
    public void step() {
        t++;
        optimizer.setLr(rate.applyAsDouble(t));
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
        optimizer.setLr(rate.applyAsDouble(t));
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
