package dev.jgrad.tensor;

import java.util.Arrays;

/**
 * In-place ops. They write through views into the base storage and bump its version counter. The
 * source may broadcast to the destination; the destination never grows, and a destination whose
 * elements alias one another (an expanded view) is refused.
 */
final class Inplace {
    private Inplace() {
    }

    /**
     * Refuses to write into a view where several elements share one memory location: an expanded view
     * (stride 0) or overlapping windows of {@code unfold}. A layout passes when, with its dims sorted by
     * stride, each stride steps past everything the smaller dims span; that holds for every view that
     * slicing, transposing and reshaping make.
     */
    static void checkWritable(Tensor t, String op) {
        // A contiguous tensor (every in-place op of a training step: gradients, parameters, optimizer state) cannot
        // overlap itself; the general test sorts the dims, which costs more than zeroing a small gradient.
        if (!t.isContiguous() && hasInternalOverlap(t.shape, t.strides)) {
            throw new IllegalArgumentException(op + ": unsupported operation: more than one element of the written-to tensor refers to a"
                    + " single memory location (shape " + Shape.str(t.shape) + ", strides " + Shape.str(t.strides)
                    + ", an expanded or unfolded view). Please clone() the tensor before performing the operation.");
        }
    }

    static boolean hasInternalOverlap(int[] shape, int[] strides) {
        int n = shape.length;
        long[] dims = new long[n];
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (shape[i] == 0) {
                return false;
            }
            if (shape[i] > 1) {
                dims[k++] = ((long) Math.abs(strides[i]) << 32) | shape[i];
            }
        }
        Arrays.sort(dims, 0, k);
        long span = 0;
        for (int i = 0; i < k; i++) {
            long stride = dims[i] >>> 32;
            long size = dims[i] & 0xffffffffL;
            if (stride <= span) {
                return true;
            }
            span += stride * (size - 1);
        }
        return false;
    }

    /** The source must broadcast to the destination without changing it. */
    static void checkGrowth(int[] dst, int[] src) {
        int[] out = Shape.broadcast(dst, src);
        if (!Arrays.equals(out, dst)) {
            throw new ShapeException("output with shape " + Shape.str(dst) + " doesn't match the broadcast shape " + Shape.str(out) + "\n"
                    + Shape.aligned(new String[] {"destination", "source"}, new int[][] {dst, src}, -1)
                    + "\nAn in-place op keeps the destination's shape; use the out-of-place op to get the broadcast result.");
        }
    }

    /** A source that shares memory with the destination is copied first, so no element is read after it was written. */
    private static Tensor unaliased(Tensor dst, Tensor src) {
        if (src.storage != dst.storage) {
            return src;
        }
        boolean same = src.offset == dst.offset && Arrays.equals(src.shape, dst.shape) && Arrays.equals(src.strides, dst.strides);
        return same ? src : src.clone();
    }

    private static void checkCast(DType result, DType dst, String op) {
        if (result.category() > dst.category()) {
            throw new DTypeException(op + ": result type " + result + " can't be cast to the desired output type " + dst);
        }
    }

    static Tensor binary(BinaryOp op, Tensor dst, Tensor src, String name) {
        checkWritable(dst, name);
        checkGrowth(dst.shape, src.shape);
        DType ct = op.computeType(Elementwise.resultType(dst, src));
        checkCast(ct, dst.dtype(), name);
        Tensor s = unaliased(dst, src);
        if (ct == dst.dtype()) {
            Elementwise.run(op, dst, s.to(ct), dst);
        } else {
            Tensor r = Elementwise.binary(op, dst, s);
            Elementwise.copy(r, dst);
        }
        dst.storage.bumpVersion();
        return dst;
    }

    /** {@code dst += alpha * src}; one pass without a temporary where both are contiguous float32 of one shape. */
    static Tensor addScaled(Tensor dst, Tensor src, double alpha) {
        if (dst.dtype() == DType.FLOAT32 && src.dtype() == DType.FLOAT32 && dst.isContiguous() && src.isContiguous()
                && Arrays.equals(dst.shape, src.shape) && src.storage != dst.storage) {
            float[] d = dst.storage.f();
            float[] s = src.storage.f();
            float a = (float) alpha;
            int n = dst.numel();
            int dof = dst.offset;
            int sof = src.offset;
            for (int i = 0; i < n; i++) {
                d[dof + i] += a * s[sof + i];
            }
            dst.storage.bumpVersion();
            return dst;
        }
        return binary(BinaryOp.ADD, dst, alpha == 1.0 ? src : src.mul(alpha), "add_");
    }

    /** {@code dst += value * t1 * t2}. */
    static Tensor addcmul(Tensor dst, Tensor t1, Tensor t2, double value) {
        if (fusable(dst, t1, t2)) {
            float[] d = dst.storage.f();
            float[] a = t1.storage.f();
            float[] b = t2.storage.f();
            float v = (float) value;
            int n = dst.numel();
            for (int i = 0; i < n; i++) {
                d[dst.offset + i] += v * a[t1.offset + i] * b[t2.offset + i];
            }
            dst.storage.bumpVersion();
            return dst;
        }
        return binary(BinaryOp.ADD, dst, t1.mul(t2).mul(value), "addcmul_");
    }

    /** {@code dst += value * t1 / t2}. */
    static Tensor addcdiv(Tensor dst, Tensor t1, Tensor t2, double value) {
        if (fusable(dst, t1, t2)) {
            float[] d = dst.storage.f();
            float[] a = t1.storage.f();
            float[] b = t2.storage.f();
            float v = (float) value;
            int n = dst.numel();
            for (int i = 0; i < n; i++) {
                d[dst.offset + i] += v * a[t1.offset + i] / b[t2.offset + i];
            }
            dst.storage.bumpVersion();
            return dst;
        }
        return binary(BinaryOp.ADD, dst, t1.div(t2).mul(value), "addcdiv_");
    }

    private static boolean fusable(Tensor dst, Tensor t1, Tensor t2) {
        return dst.dtype() == DType.FLOAT32 && t1.dtype() == DType.FLOAT32 && t2.dtype() == DType.FLOAT32
                && dst.isContiguous() && t1.isContiguous() && t2.isContiguous()
                && Arrays.equals(dst.shape, t1.shape) && Arrays.equals(dst.shape, t2.shape)
                && t1.storage != dst.storage && t2.storage != dst.storage;
    }

    static Tensor maskedFill(Tensor dst, Tensor mask, double value) {
        checkWritable(dst, "masked_fill_");
        Elementwise.checkMask(mask, "masked_fill_");
        checkGrowth(dst.shape, mask.shape);
        Tensor filled = Elementwise.where(mask, Tensor.scalar(value, dst.dtype()), dst);
        Elementwise.copy(filled, dst);
        dst.storage.bumpVersion();
        return dst;
    }

    static Tensor copy(Tensor dst, Tensor src) {
        checkWritable(dst, "copy_");
        checkGrowth(dst.shape, src.shape);
        Elementwise.copy(unaliased(dst, src), dst);
        dst.storage.bumpVersion();
        return dst;
    }

    static Tensor fill(Tensor dst, double value) {
        checkWritable(dst, "fill_");
        fillRaw(dst, value);
        dst.storage.bumpVersion();
        return dst;
    }

    /** Fills without the checks and the version bump: for tensors being created. */
    static void fillRaw(Tensor dst, double value) {
        if (dst.storage.dtype == DType.FLOAT32 && dst.isContiguous()) {
            java.util.Arrays.fill(dst.storage.f(), dst.offset, dst.offset + dst.numel(), (float) value);
            return;
        }
        Elementwise.copy(Tensor.scalar(value, dst.dtype()), dst);
    }
}
