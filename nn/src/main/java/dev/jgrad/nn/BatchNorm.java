package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;

/**
 * What {@link BatchNorm1d} and {@link BatchNorm2d} share, as PyTorch's {@code _BatchNorm}: weight (ones) and
 * bias (zeros) when affine; buffers {@code running_mean} (zeros), {@code running_var} (ones) and
 * {@code num_batches_tracked} (int64, 0-d) when tracking running statistics. In training each call
 * normalises by the batch's statistics and moves the running ones towards them by {@code momentum} (a null
 * momentum gives the cumulative average); in eval the running statistics normalise.
 */
public abstract class BatchNorm extends Layer {
    /** The per-channel scale ({@code gamma}); null without {@code affine}. */
    public final Parameter weight;
    /** The per-channel shift ({@code beta}); null without {@code affine}. */
    public final Parameter bias;
    private final Tensor runningMean;
    private final Tensor runningVar;
    private final Tensor numBatchesTracked;
    private final int numFeatures;
    private final double eps;
    private final Double momentum;

    BatchNorm(int numFeatures, double eps, Double momentum, boolean affine, boolean trackRunningStats) {
        if (numFeatures <= 0) {
            throw new IllegalArgumentException(getClass().getSimpleName() + ": num_features must be positive, got " + numFeatures);
        }
        if (!(eps > 0) || (momentum != null && !(momentum >= 0 && momentum <= 1))) {
            throw new IllegalArgumentException(getClass().getSimpleName() + ": eps must be positive and momentum in [0, 1], got eps="
                    + eps + ", momentum=" + momentum);
        }
        this.numFeatures = numFeatures;
        this.eps = eps;
        this.momentum = momentum;
        this.weight = registerParameter("weight", affine ? new Parameter(Tensor.ones(numFeatures)) : null);
        this.bias = registerParameter("bias", affine ? new Parameter(Tensor.zeros(numFeatures)) : null);
        this.runningMean = registerBuffer("running_mean", trackRunningStats ? Tensor.zeros(numFeatures) : null);
        this.runningVar = registerBuffer("running_var", trackRunningStats ? Tensor.ones(numFeatures) : null);
        this.numBatchesTracked = registerBuffer("num_batches_tracked", trackRunningStats ? Tensor.zeros(DType.INT64) : null);
    }

    /** The input ranks this layer accepts, e.g. "2D or 3D". */
    abstract boolean acceptsRank(int rank);

    abstract String expectedRank();

    @Override
    public Variable forward(Variable x) {
        if (!acceptsRank(x.dim())) {
            throw new ShapeException(getClass().getSimpleName() + ": expected " + expectedRank() + " input (got " + x.dim()
                    + "D input of size " + Shape.str(x.shape()) + ")");
        }
        if (x.size(1) != numFeatures) {
            throw new ShapeException(getClass().getSimpleName() + "(" + numFeatures + "): expected " + numFeatures
                    + " channels in dim 1, got input of size " + Shape.str(x.shape()));
        }
        double factor = momentum == null ? 0.0 : momentum;
        boolean tracking = runningMean != null;
        if (isTraining() && tracking) {
            long n = (long) numBatchesTracked.item() + 1;
            numBatchesTracked.fill(n);
            if (momentum == null) {
                factor = 1.0 / n;
            }
        }
        boolean batchStats = isTraining() || !tracking;
        return Normalization.batchNorm(x, runningMean, runningVar, weight, bias, batchStats, factor, eps);
    }

    /** The running mean of each channel, which eval mode normalises with (null without {@code trackRunningStats}). */
    public Tensor runningMean() {
        return runningMean;
    }

    /** The running variance of each channel (unbiased, as PyTorch keeps it; null without {@code trackRunningStats}). */
    public Tensor runningVar() {
        return runningVar;
    }

    @Override
    protected String extraRepr() {
        return numFeatures + ", eps=" + eps + ", momentum=" + momentum + ", affine=" + (weight != null ? "True" : "False")
                + ", track_running_stats=" + (runningMean != null ? "True" : "False");
    }
}
