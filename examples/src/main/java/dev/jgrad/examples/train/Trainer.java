package dev.jgrad.examples.train;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Variable;
import dev.jgrad.examples.UserError;
import dev.jgrad.examples.report.Metrics;
import dev.jgrad.nn.data.DataLoader;
import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.tensor.Memory;
import dev.jgrad.tensor.Tensor;

import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The training loop every example shares: for each batch, zero the gradients, compute the loss, run
 * backward and step; log the mean training loss and the held-out loss of every epoch into the metrics.
 * The held-out loss is computed with recording off, so no example has to remember to; each step runs in
 * its own {@code Memory.scope()}, so its tensors' arrays are reused by the next. A loss that is
 * NaN or infinite stops the run before it updates the weights (unless NaN is allowed), so a diverging
 * run never gets as far as saving its checkpoint.
 */
final class Trainer {
    private Trainer() {
    }

    /** The split of the training loss logged every few steps (the per-epoch mean is split "train"), as the chart reads it. */
    static final String STEP_SPLIT = dev.jgrad.examples.report.LossChart.STEP_SPLIT;
    /** Steps per logged training loss; 0 logs per epoch only (the trainers set it from --log-every). */
    static int logEvery = 10;
    /** Steps between checkpoints within an epoch; 0 checkpoints after epochs only (--save-every). */
    static int saveEvery;

    /** The held-out result of an epoch: its loss, and a note for the progress line (e.g. an accuracy). */
    record Validation(double loss, String note, String split) {
        Validation(double loss, String note) {
            this(loss, note, "val");
        }
    }

    static void fit(String series, Optimizer opt, DataLoader loader, int epochs, Function<List<Tensor>, Variable> loss,
                    DoubleSupplier validation, Metrics metrics, Progress progress, boolean allowNan) {
        fit(series, opt, loader, epochs, loss, validation, metrics, progress, allowNan, null);
    }

    /** As above, with {@code afterEpoch} run after each finished epoch (a checkpoint of the run so far). */
    static void fit(String series, Optimizer opt, DataLoader loader, int epochs, Function<List<Tensor>, Variable> loss,
                    DoubleSupplier validation, Metrics metrics, Progress progress, boolean allowNan, Runnable afterEpoch) {
        fitNoted(series, opt, loader, epochs, loss, () -> new Validation(validation.getAsDouble(), ""), metrics, progress, allowNan,
                afterEpoch);
    }

    static void fitNoted(String series, Optimizer opt, DataLoader loader, int epochs, Function<List<Tensor>, Variable> loss,
                         Supplier<Validation> validation, Metrics metrics, Progress progress, boolean allowNan) {
        fitNoted(series, opt, loader, epochs, loss, validation, metrics, progress, allowNan, null);
    }

    /**
     * Trains for {@code epochs} epochs; {@code loss} maps a batch to the loss to minimise, {@code validation}
     * gives the held-out result after each epoch.
     *
     * @throws UserError naming the series, epoch and step where the loss stopped being finite
     */
    static void fitNoted(String series, Optimizer opt, DataLoader loader, int epochs, Function<List<Tensor>, Variable> loss,
                         Supplier<Validation> validation, Metrics metrics, Progress progress, boolean allowNan, Runnable afterEpoch) {
        fitNoted(series, opt, loader, epochs, loss, validation, metrics, progress, allowNan, afterEpoch, RunPosition.start());
    }

    /**
     * From position {@code pos} (a resumed run: its finished epochs are passed over, drawing their data orders, and an
     * unfinished one goes on from its next batch), which is kept up to date for the checkpoints.
     */
    static void fitNoted(String series, Optimizer opt, DataLoader loader, int epochs, Function<List<Tensor>, Variable> loss,
                         Supplier<Validation> validation, Metrics metrics, Progress progress, boolean allowNan, Runnable afterEpoch,
                         RunPosition pos) {
        Runnable afterStep = afterEpoch instanceof RunFiles.Saver ? ((RunFiles.Saver) afterEpoch)::now : null;
        pos.makeCurrent();
        long step = pos.step;
        for (int e = 1; e <= epochs && !Interrupt.requested(); e++) {
            if (e <= pos.epochsDone) {
                loader.skipEpoch();
                continue;
            }
            progress.startEpoch(e);
            double sum = pos.batchesDone > 0 ? pos.lossSum : 0;
            int n = pos.batchesDone;
            java.util.Iterator<List<Tensor>> batches = loader.iterator(n);
            while (batches.hasNext()) {
                if (Interrupt.requested()) {
                    // Stopped at the end of the last step: the epoch is incomplete, so it adds no row to the metrics yet.
                    return;
                }
                List<Tensor> batch = batches.next();
                double v;
                // One memory scope per step: the step's tensors give their arrays to the next step.
                try (Memory.Scope scope = Memory.scope()) {
                    opt.zeroGrad();
                    Variable l = loss.apply(batch);
                    v = l.item();
                    if (!Double.isFinite(v) && !allowNan) {
                        throw new UserError(String.format(Locale.ROOT, "the %s loss is %s at epoch %d, step %d of %d: the run stopped "
                                + "and saved nothing (lower --lr, or pass --allow-nan to go on)", series, v, e, n + 1, loader.batches()));
                    }
                    l.backward();
                    opt.step();
                }
                sum += v;
                n++;
                step++;
                pos.batchesDone = n;
                pos.step = step;
                pos.lossSum = sum;
                OptionalDouble logged = pos.window.add(v, logEvery);
                if (logged.isPresent()) {
                    metrics.add(step, e, series, STEP_SPLIT, logged.getAsDouble());
                }
                if (saveEvery > 0 && step % saveEvery == 0 && afterStep != null) {
                    afterStep.run();
                }
                progress.step(v);
                Interrupt.at(series + " epoch " + e + ", step " + step);
                Interrupt.stepped(step);
            }
            pos.epochsDone = e;
            pos.batchesDone = 0;
            pos.lossSum = 0;
            Validation val;
            try (NoGrad g = NoGrad.enter()) {
                val = validation.get();
            }
            metrics.add(step, e, series, "train", sum / Math.max(1, n));
            boolean measured = !Double.isNaN(val.loss());
            if (measured) {
                metrics.add(step, e, series, val.split(), val.loss());
            }
            progress.endEpoch((measured ? String.format(Locale.ROOT, "%s %.4f", val.split(), val.loss()) : "")
                    + (val.note().isEmpty() ? "" : "  " + val.note()));
            if (afterEpoch != null && e < epochs) {
                afterEpoch.run();
            }
        }
        if (!allowNan) {
            for (dev.jgrad.nn.Parameter p : opt.params()) {
                if (!p.data().allFinite()) {
                    throw new UserError("the " + series + " run ended with NaN or infinite weights although its loss stayed finite: "
                            + "the run stopped and saved nothing (lower --lr, or pass --allow-nan to go on)");
                }
            }
        }
    }
}
