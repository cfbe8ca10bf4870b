package dev.jgrad.tensor;

/** The reductions {@code scatter_reduce} knows, by PyTorch's names. */
public enum ScatterReduce {
    /** Sum of the values scattered to a position. */
    SUM("sum"),
    /** Their product. */
    PROD("prod"),
    /** Their mean. */
    MEAN("mean"),
    /** Their maximum. */
    AMAX("amax"),
    /** Their minimum. */
    AMIN("amin");

    private final String pyName;

    ScatterReduce(String pyName) {
        this.pyName = pyName;
    }

    /** The name PyTorch gives the reduction. */
    public String pyName() {
        return pyName;
    }

    /** Parses {@code sum}, {@code prod}, {@code mean}, {@code amax} or {@code amin}. */
    public static ScatterReduce parse(String name) {
        for (ScatterReduce r : values()) {
            if (r.pyName.equals(name)) {
                return r;
            }
        }
        throw new IllegalArgumentException("scatter_reduce: reduce must be one of sum, prod, mean, amax, amin; got '" + name + "'");
    }
}
