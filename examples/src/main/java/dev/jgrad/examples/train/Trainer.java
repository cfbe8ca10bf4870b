package dev.jgrad.examples.train;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Variable;
import dev.jgrad.examples.report.Metrics;
import dev.jgrad.nn.data.DataLoader;
import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.tensor.Tensor;

import java.util.List;
import java.util.Locale;
import java.util.function.DoubleSupplier;
import java.util.function.Function;

/**
 * The training loop every example shares: for each batch, zero the gradients, compute the loss, run
 * backward and step; log the mean training loss and the held-out loss of every epoch into the metrics.
 * The held-out loss is computed with recording off, so no example has to remember to.
 */
final class Trainer {
    private Trainer() {
    }

    /**
     * Trains for {@code epochs} epochs; {@code loss} maps a batch to the loss to minimise, {@code validation}
     * gives the held-out loss after each epoch.
     */
    static void fit(String series, Optimizer opt, DataLoader loader, int epochs, Function<List<Tensor>, Variable> loss,
                    DoubleSupplier validation, Metrics metrics, Progress progress) {
        long step = 0;
        for (int e = 1; e <= epochs; e++) {
            progress.startEpoch(e);
            double sum = 0;
            int n = 0;
            for (List<Tensor> batch : loader) {
                opt.zeroGrad();
                Variable l = loss.apply(batch);
                l.backward();
                opt.step();
                double v = l.item();
                sum += v;
                n++;
                step++;
                progress.step(v);
            }
            double val;
            try (NoGrad g = NoGrad.enter()) {
                val = validation.getAsDouble();
            }
            metrics.add(step, e, series, "train", sum / Math.max(1, n));
            metrics.add(step, e, series, "val", val);
            progress.endEpoch(String.format(Locale.ROOT, "val %.4f", val));
        }
    }
}
