package dev.jgrad.tensor;

/**
 * A flat buffer shared by a tensor and all of its views. Exactly one of the arrays is set, the one of
 * {@link #dtype}. Kernels read the array of their type directly; {@link #getDouble}/{@link #setDouble}
 * serve the generic paths.
 *
 * <p>The version counter counts in-place writes; autograd compares it with the version it saw when it
 * saved a tensor for backward, as PyTorch does. Views share it because they share the storage.
 */
public final class Storage {
    final DType dtype;
    final int size;
    final float[] f;
    final double[] d;
    final long[] l;
    final boolean[] b;
    private int version;

    private Storage(DType dtype, int size, float[] f, double[] d, long[] l, boolean[] b) {
        this.dtype = dtype;
        this.size = size;
        this.f = f;
        this.d = d;
        this.l = l;
        this.b = b;
    }

    /**
     * A new zeroed storage. One that can never fit the heap is refused before it is tried, one that does
     * not fit now fails as an {@link OutOfMemoryException} naming its size, so callers (a corpus runner, a
     * trainer) can report it and go on.
     */
    static Storage allocate(DType dtype, int size) {
        long bytes = (long) size * dtype.itemSize();
        if (bytes > Runtime.getRuntime().maxMemory()) {
            throw tooLarge(dtype, size, bytes);
        }
        try {
            switch (dtype) {
                case FLOAT32: return new Storage(dtype, size, new float[size], null, null, null);
                case FLOAT64: return new Storage(dtype, size, null, new double[size], null, null);
                case INT64: return new Storage(dtype, size, null, null, new long[size], null);
                case BOOL: return new Storage(dtype, size, null, null, null, new boolean[size]);
                default: throw new AssertionError(dtype);
            }
        } catch (OutOfMemoryError e) {
            throw tooLarge(dtype, size, bytes);
        }
    }

    private static OutOfMemoryException tooLarge(DType dtype, int size, long bytes) {
        return new OutOfMemoryException(String.format(java.util.Locale.ROOT,
                "cannot allocate %.2f GB for %d %s elements: the JVM's heap is %.2f GB at most (set it with -Xmx)",
                bytes / 1e9, size, dtype, Runtime.getRuntime().maxMemory() / 1e9));
    }

    static Storage wrap(float[] data) {
        return new Storage(DType.FLOAT32, data.length, data, null, null, null);
    }

    static Storage wrap(double[] data) {
        return new Storage(DType.FLOAT64, data.length, null, data, null, null);
    }

    static Storage wrap(long[] data) {
        return new Storage(DType.INT64, data.length, null, null, data, null);
    }

    static Storage wrap(boolean[] data) {
        return new Storage(DType.BOOL, data.length, null, null, null, data);
    }

    public DType dtype() {
        return dtype;
    }

    public int size() {
        return size;
    }

    /** How many in-place writes this storage has seen. */
    public int version() {
        return version;
    }

    void bumpVersion() {
        version++;
    }

    double getDouble(int i) {
        switch (dtype) {
            case FLOAT32: return f[i];
            case FLOAT64: return d[i];
            case INT64: return l[i];
            default: return b[i] ? 1.0 : 0.0;
        }
    }

    long getLong(int i) {
        switch (dtype) {
            case FLOAT32: return (long) f[i];
            case FLOAT64: return (long) d[i];
            case INT64: return l[i];
            default: return b[i] ? 1L : 0L;
        }
    }

    void setDouble(int i, double v) {
        switch (dtype) {
            case FLOAT32: f[i] = (float) v; break;
            case FLOAT64: d[i] = v; break;
            case INT64: l[i] = (long) v; break;
            default: b[i] = v != 0.0; break;
        }
    }

    void setLong(int i, long v) {
        switch (dtype) {
            case FLOAT32: f[i] = v; break;
            case FLOAT64: d[i] = v; break;
            case INT64: l[i] = v; break;
            default: b[i] = v != 0L; break;
        }
    }

    /** Identity of the underlying array, for "do these two tensors share memory" checks. */
    Object array() {
        switch (dtype) {
            case FLOAT32: return f;
            case FLOAT64: return d;
            case INT64: return l;
            default: return b;
        }
    }
}
