package dev.jgrad.tensor.internal;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;

/**
 * What the fused kernels of {@code dev.jgrad.tensor.internal.fused} may see of a tensor beyond its public API: its
 * arrays, offset and strides as they are (not copies), and a result whose array the kernel will fill. The tensor
 * package installs the implementation when {@link Tensor} is loaded (the JDK's SharedSecrets pattern), so these
 * stay off Tensor's public surface. Internal: the package is not exported; only the tensor module's fused ops use it.
 */
public final class TensorAccess {
    /** The tensor package's side of the bridge. */
    public interface Internals {
        float[] floats(Tensor t);

        double[] doubles(Tensor t);

        long[] longs(Tensor t);

        boolean[] bools(Tensor t);

        int offset(Tensor t);

        int[] shape(Tensor t);

        int[] strides(Tensor t);

        /** A new contiguous tensor whose every element the caller writes (not zeroed inside a memory scope). */
        Tensor empty(DType dtype, int... shape);

        /** Records an in-place write into {@code t}'s storage, for autograd's checks of saved tensors. */
        void bumpVersion(Tensor t);

        /** Copies {@code src} into {@code dst} (same shape), whatever their strides. */
        void copy(Tensor src, Tensor dst);

        /** The tensor itself where it is contiguous from offset 0 of its storage, else a contiguous copy. */
        Tensor dense(Tensor t);
    }

    private static volatile Internals internals;

    private TensorAccess() {
    }

    /** Called once, by {@link Tensor}'s class initialisation. */
    public static void install(Internals impl) {
        if (internals != null) {
            throw new IllegalStateException("TensorAccess is installed by dev.jgrad.tensor.Tensor, once");
        }
        internals = impl;
    }

    private static Internals get() {
        Internals i = internals;
        if (i == null) {
            Tensor.scalar(0);   // loads Tensor, which installs the bridge
            i = internals;
        }
        return i;
    }

    public static float[] floats(Tensor t) {
        return get().floats(t);
    }

    public static double[] doubles(Tensor t) {
        return get().doubles(t);
    }

    public static long[] longs(Tensor t) {
        return get().longs(t);
    }

    public static boolean[] bools(Tensor t) {
        return get().bools(t);
    }

    public static int offset(Tensor t) {
        return get().offset(t);
    }

    /** The tensor's shape array itself: read it, never write it. */
    public static int[] shape(Tensor t) {
        return get().shape(t);
    }

    /** The tensor's strides array itself: read it, never write it. */
    public static int[] strides(Tensor t) {
        return get().strides(t);
    }

    public static Tensor empty(DType dtype, int... shape) {
        return get().empty(dtype, shape);
    }

    public static void bumpVersion(Tensor t) {
        get().bumpVersion(t);
    }

    public static void copy(Tensor src, Tensor dst) {
        get().copy(src, dst);
    }

    public static Tensor dense(Tensor t) {
        return get().dense(t);
    }
}
