package dev.jgrad.nn;

/** How a loss combines its per-element values: PyTorch's {@code reduction} argument. */
public enum Reduction {
    /** The mean over the elements (PyTorch's default). */
    MEAN,
    /** The sum over the elements. */
    SUM,
    /** No reduction: a loss per element. */
    NONE;

    /** Parses {@code mean}, {@code sum} or {@code none}. */
    public static Reduction parse(String s) {
        switch (s) {
            case "mean": return MEAN;
            case "sum": return SUM;
            case "none": return NONE;
            default: throw new IllegalArgumentException(s + " is not a valid value for reduction (mean, sum, none)");
        }
    }
}
