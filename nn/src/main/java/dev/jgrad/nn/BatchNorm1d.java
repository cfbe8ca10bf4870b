package dev.jgrad.nn;

/** {@code nn.BatchNorm1d}: input {@code (N, C)} or {@code (N, C, L)}, statistics per channel C. */
public class BatchNorm1d extends BatchNorm {
    /** Batch norm of {@code numFeatures} channels with PyTorch's defaults: eps 1e-5, momentum 0.1, affine, running statistics. */
    public BatchNorm1d(int numFeatures) {
        this(numFeatures, 1e-5, 0.1, true, true);
    }

    /** {@code nn.BatchNorm1d}; a null {@code momentum} keeps a cumulative average of the statistics, as PyTorch's {@code momentum=None}. */
    public BatchNorm1d(int numFeatures, double eps, Double momentum, boolean affine, boolean trackRunningStats) {
        super(numFeatures, eps, momentum, affine, trackRunningStats);
    }

    @Override
    boolean acceptsRank(int rank) {
        return rank == 2 || rank == 3;
    }

    @Override
    String expectedRank() {
        return "2D or 3D";
    }
}
