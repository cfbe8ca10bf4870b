package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.TensorAccess;

/** The tensor package's side of {@link TensorAccess}: package-private state handed to jgrad's internal kernels. */
final class TensorInternals implements TensorAccess.Internals {
    @Override
    public float[] floats(Tensor t) {
        return t.storage.f();
    }

    @Override
    public double[] doubles(Tensor t) {
        return t.storage.d();
    }

    @Override
    public long[] longs(Tensor t) {
        return t.storage.l();
    }

    @Override
    public boolean[] bools(Tensor t) {
        return t.storage.b();
    }

    @Override
    public int offset(Tensor t) {
        return t.offset;
    }

    @Override
    public int[] shape(Tensor t) {
        return t.shape;
    }

    @Override
    public int[] strides(Tensor t) {
        return t.strides;
    }

    @Override
    public Tensor empty(DType dtype, int... shape) {
        return Tensor.empty(dtype, shape);
    }

    @Override
    public void bumpVersion(Tensor t) {
        t.storage.bumpVersion();
    }

    @Override
    public void copy(Tensor src, Tensor dst) {
        Elementwise.copy(src, dst);
    }

    @Override
    public Tensor dense(Tensor t) {
        return t.dense();
    }
}
