package dev.jgrad.nn;

/** {@code nn.BatchNorm2d}: input {@code (N, C, H, W)}, statistics per channel C. */
public class BatchNorm2d extends BatchNorm {
    public BatchNorm2d(int numFeatures) {
        this(numFeatures, 1e-5, 0.1, true, true);
    }

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
