package dev.jgrad.nn;

/** {@code nn.BatchNorm2d}: input {@code (N, C, H, W)}, statistics per channel C. */
public class BatchNorm2d extends BatchNorm {
    /** Batch norm of {@code numFeatures} channels with PyTorch's defaults: eps 1e-5, momentum 0.1, affine, running statistics. */
    public BatchNorm2d(int numFeatures) {
        this(numFeatures, 1e-5, 0.1, true, true);
    }

    /** {@code nn.BatchNorm2d}; a null {@code momentum} keeps a cumulative average of the statistics, as PyTorch's {@code momentum=None}. */
    public BatchNorm2d(int numFeatures, double eps, Double momentum, boolean affine, boolean trackRunningStats) {
        super(numFeatures, eps, momentum, affine, trackRunningStats);
    }

    @Override
    boolean acceptsRank(int rank) {
        return rank == 4;
    }

    @Override
    String expectedRank() {
        return "4D";
    }
}
