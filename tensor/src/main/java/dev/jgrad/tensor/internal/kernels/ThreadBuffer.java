package dev.jgrad.tensor.internal.kernels;

/**
 * A float buffer per thread, grown on request and kept: kernels that run again and again on the same
 * shapes (a training step) reuse it instead of allocating scratch space on every call.
 */
public final class ThreadBuffer {
    private final ThreadLocal<float[]> local = ThreadLocal.withInitial(() -> new float[0]);

    /** The calling thread's buffer, at least {@code size} long; its contents are whatever was left in it. */
    public float[] get(int size) {
        float[] buf = local.get();
        if (buf.length < size) {
            buf = new float[size];
            local.set(buf);
        }
        return buf;
    }
}
