package dev.jgrad.nn;

/** How a loss combines its per-element values: PyTorch's {@code reduction} argument. */
public enum Reduction {
    /** The mean over the elements (PyTorch's default). */
    MEAN,
    /** The sum over the elements. */
    SUM,
    /** No reduction: a loss per element. */
    NONE,
    /** {@code kl_div}'s alone: the sum divided by the batch size (dim 0), which is the KL divergence itself. */
    BATCHMEAN;

    /** Parses {@code mean}, {@code sum}, {@code none} or {@code batchmean}. */
    public static Reduction parse(String s) {
        switch (s) {
            case "mean": return MEAN;
            case "sum": return SUM;
            case "none": return NONE;
            case "batchmean": return BATCHMEAN;
            default: throw new IllegalArgumentException(s + " is not a valid value for reduction (mean, sum, none, batchmean)");
        }
    }
}
