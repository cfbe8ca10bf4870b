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
    // Not final: a storage that a Memory.Scope recycled drops its array, so that a tensor used after its
    // scope closed fails in the accessors below instead of reading an array that now holds other data.
    private float[] f;
    private double[] d;
    private long[] l;
    private boolean[] b;
    private int version;
    /** Set when a Memory.Scope gave the array back to its pool; kept storages are left alone at close. */
    private boolean released;
    private boolean kept;

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
        return allocate(dtype, size, true);
    }

    /** As {@link #allocate}, for a kernel that writes every element: a recycled array keeps its old values. */
    static Storage allocateUnzeroed(DType dtype, int size) {
        return allocate(dtype, size, false);
    }

    private static Storage allocate(DType dtype, int size, boolean zeroed) {
        long bytes = (long) size * dtype.itemSize();
        if (bytes > Runtime.getRuntime().maxMemory()) {
            throw tooLarge(dtype, size, bytes);
        }
        Object recycled = Memory.take(dtype, size, zeroed);
        if (recycled != null) {
            return Memory.register(ofArray(dtype, size, recycled));
        }
        try {
            return Memory.register(fresh(dtype, size));
        } catch (OutOfMemoryError e) {
            throw tooLarge(dtype, size, bytes);
        }
    }

    private static Storage fresh(DType dtype, int size) {
        switch (dtype) {
            case FLOAT32: return new Storage(dtype, size, new float[size], null, null, null);
            case FLOAT64: return new Storage(dtype, size, null, new double[size], null, null);
            case INT64: return new Storage(dtype, size, null, null, new long[size], null);
            case BOOL: return new Storage(dtype, size, null, null, null, new boolean[size]);
            default: throw new AssertionError(dtype);
        }
    }

    /** A storage over a recycled array (zeroed by the pool when the caller asked for zeros). */
    private static Storage ofArray(DType dtype, int size, Object array) {
        switch (dtype) {
            case FLOAT32: return new Storage(dtype, size, (float[]) array, null, null, null);
            case FLOAT64: return new Storage(dtype, size, null, (double[]) array, null, null);
            case INT64: return new Storage(dtype, size, null, null, (long[]) array, null);
            default: return new Storage(dtype, size, null, null, null, (boolean[]) array);
        }
    }

    /** Gives the array up (to the scope's pool): from now on every access throws. */
    Object release() {
        Object a = array();
        released = true;
        f = null;
        d = null;
        l = null;
        b = null;
        return a;
    }

    /** Marks the storage as outliving the scope it was made in. */
    void keep() {
        kept = true;
    }

    boolean isKept() {
        return kept;
    }

    private void live() {
        if (released) {
            throw new ScopeClosedException("this tensor's memory went back to the pool when its Memory.scope() closed; "
                    + "call keep() on a tensor, inside the scope, to use it after the scope");
        }
    }

    float[] f() {
        live();
        return f;
    }

    double[] d() {
        live();
        return d;
    }

    long[] l() {
        live();
        return l;
    }

    boolean[] b() {
        live();
        return b;
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

    /** The element type. */
    public DType dtype() {
        return dtype;
    }

    /** The number of elements the storage holds. */
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
        live();
        switch (dtype) {
            case FLOAT32: return f[i];
            case FLOAT64: return d[i];
            case INT64: return l[i];
            default: return b[i] ? 1.0 : 0.0;
        }
    }

    long getLong(int i) {
        live();
        switch (dtype) {
            case FLOAT32: return (long) f[i];
            case FLOAT64: return (long) d[i];
            case INT64: return l[i];
            default: return b[i] ? 1L : 0L;
        }
    }

    void setDouble(int i, double v) {
        live();
        switch (dtype) {
            case FLOAT32: f[i] = (float) v; break;
            case FLOAT64: d[i] = v; break;
            case INT64: l[i] = (long) v; break;
            default: b[i] = v != 0.0; break;
        }
    }

    void setLong(int i, long v) {
        live();
        switch (dtype) {
            case FLOAT32: f[i] = v; break;
            case FLOAT64: d[i] = v; break;
            case INT64: l[i] = v; break;
            default: b[i] = v != 0L; break;
        }
    }

    /** Identity of the underlying array, for "do these two tensors share memory" checks. */
    Object array() {
        live();
        switch (dtype) {
            case FLOAT32: return f;
            case FLOAT64: return d;
            case INT64: return l;
            default: return b;
        }
    }
}
