package dev.jgrad.tensor;

/**
 * The element types jgrad stores. float32 is the default, as in PyTorch.
 *
 * <p>Categories order the types for promotion the way PyTorch does: bool &lt; integer &lt; floating.
 */
public enum DType {
    /** Booleans, a byte each. */
    BOOL("bool", 1, 0),
    /** 64-bit integers, the type of positions and labels. */
    INT64("int64", 8, 1),
    /** 32-bit floats, the default. */
    FLOAT32("float32", 4, 2),
    /** 64-bit floats. */
    FLOAT64("float64", 8, 2);

    private final String pyName;
    private final int itemSize;
    private final int category;

    DType(String pyName, int itemSize, int category) {
        this.pyName = pyName;
        this.itemSize = itemSize;
        this.category = category;
    }

    /** The name PyTorch prints for this type without the {@code torch.} prefix: {@code float32}. */
    public String pyName() {
        return pyName;
    }

    /** Bytes per element. */
    public int itemSize() {
        return itemSize;
    }

    /** Whether this is float32 or float64. */
    public boolean isFloating() {
        return category == 2;
    }

    /** bool 0, integer 1, floating 2. */
    int category() {
        return category;
    }

    /** The smallest type that holds both, as {@code torch.promote_types}. */
    public static DType promote(DType a, DType b) {
        if (a == b) {
            return a;
        }
        if (a.category != b.category) {
            return a.category > b.category ? a : b;
        }
        return a.itemSize >= b.itemSize ? a : b;
    }

    /** Parses {@code float32}, {@code float64}, {@code int64} or {@code bool}. */
    public static DType parse(String name) {
        for (DType t : values()) {
            if (t.pyName.equals(name)) {
                return t;
            }
        }
        throw new DTypeException("unknown dtype '" + name + "': expected one of float32, float64, int64, bool");
    }

    @Override
    public String toString() {
        return pyName;
    }
}
