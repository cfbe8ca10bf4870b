package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.Gemm;
import dev.jgrad.tensor.internal.kernels.Parallel;
import dev.jgrad.tensor.internal.kernels.Tuning;

/** matmul with PyTorch's rules for 1-d and batched operands, and linear. The inner products run in {@link Gemm}. */
final class Linalg {
    private Linalg() {
    }

    static Tensor matmul(Tensor a, Tensor b) {
        if (a.dtype() != b.dtype()) {
            throw new DTypeException("expected m1 and m2 to have the same dtype, but got: " + a.dtype() + " != " + b.dtype());
        }
        if (!a.dtype().isFloating()) {
            throw new DTypeException("matmul: only float32 and float64 are supported, got " + a.dtype());
        }
        int da = a.dim();
        int db = b.dim();
        if (da == 0 || db == 0) {
            throw new ShapeException("both arguments to matmul need to be at least 1D, but they are " + da + "D and " + db + "D");
        }
        if (da == 1 && db == 1) {
            if (a.shape[0] != b.shape[0]) {
                throw new ShapeException("inconsistent tensor size, expected tensor [" + a.shape[0] + "] and src [" + b.shape[0]
                        + "] to have the same number of elements, but got " + a.shape[0] + " and " + b.shape[0] + " elements respectively");
            }
            return product(a.unsqueeze(0), b.unsqueeze(1), a, b).reshape();
        }
        if (da == 2 && db == 2 && a.dtype() == DType.FLOAT32) {
            return matrixProduct(a, b);
        }
        if (da > 2 && db == 2 && a.dtype() == DType.FLOAT32 && a.shape[da - 1] == b.shape[0]) {
            // (..., n, k) @ (k, p) whose batch dims fold into the rows as a view, as linear's input (B, T, E):
            // one product of (B T, k) instead of one per batch entry, each packing the same B again.
            int[] rows = {a.numel() / Math.max(1, a.shape[da - 1]), a.shape[da - 1]};
            int[] strides = a.numel() == 0 ? null : Views.viewStrides(a.shape, a.strides, rows);
            if (strides != null) {
                int[] outShape = a.shape.clone();
                outShape[da - 1] = b.shape[1];
                return matrixProduct(new Tensor(a.storage, a.offset, rows, strides), b).view(outShape);
            }
        }
        Tensor a2 = da == 1 ? a.unsqueeze(0) : a;
        Tensor b2 = db == 1 ? b.unsqueeze(1) : b;
        Tensor out = product(a2, b2, a, b);
        if (da == 1) {
            out = out.squeeze(-2);
        }
        if (db == 1) {
            out = out.squeeze(-1);
        }
        return out;
    }

    /** (n, k) @ (k, p) in float32: one product, no batch machinery. */
    private static Tensor matrixProduct(Tensor a, Tensor b) {
        int n = a.shape[0];
        int k = a.shape[1];
        int k2 = b.shape[0];
        int p = b.shape[1];
        if (k != k2) {
            throw new ShapeException("mat1 and mat2 shapes cannot be multiplied (" + n + "x" + k + " and " + k2 + "x" + p + ")\n"
                    + "  matmul of " + Shape.str(a.shape) + " and " + Shape.str(b.shape) + ": the last dim of the first ("
                    + k + ") must equal the second-to-last dim of the second (" + k2 + ")");
        }
        Tensor out = Tensor.empty(DType.FLOAT32, n, p);
        if (out.numel() > 0) {
            Gemm.sgemmInto(n, k, p, a.storage.f(), a.offset, a.strides[0], a.strides[1], b.storage.f(), b.offset, b.strides[0], b.strides[1],
                    out.storage.f(), 0, p);
        }
        return out;
    }

    /**
     * The operands of a batched product, a2 {@code (..., n, k)} and b2 {@code (..., k, p)}, expanded to their
     * common batch dims; {@code a} and {@code b} are the user's operands, for the messages.
     */
    private record Batched(int n, int k, int p, int[] batch, Tensor A, Tensor B) {
        static Batched of(Tensor a2, Tensor b2, Tensor a, Tensor b) {
            int n = a2.shape[a2.dim() - 2];
            int k = a2.shape[a2.dim() - 1];
            int k2 = b2.shape[b2.dim() - 2];
            int p = b2.shape[b2.dim() - 1];
            if (k != k2) {
                throw new ShapeException("mat1 and mat2 shapes cannot be multiplied (" + n + "x" + k + " and " + k2 + "x" + p + ")\n"
                        + "  matmul of " + Shape.str(a.shape) + " and " + Shape.str(b.shape) + ": the last dim of the first ("
                        + k + ") must equal the " + (b.dim() == 1 ? "only" : "second-to-last") + " dim of the second (" + k2 + ")");
            }
            int[] ba = java.util.Arrays.copyOf(a2.shape, a2.dim() - 2);
            int[] bb = java.util.Arrays.copyOf(b2.shape, b2.dim() - 2);
            int[] batch;
            try {
                batch = Shape.broadcast(ba, bb);
            } catch (ShapeException e) {
                throw new ShapeException("matmul: the batch dims of " + Shape.str(a.shape) + " and " + Shape.str(b.shape)
                        + " do not broadcast\n" + e.getMessage());
            }
            int nb = batch.length;
            int[] aShape = java.util.Arrays.copyOf(batch, nb + 2);
            aShape[nb] = n;
            aShape[nb + 1] = k;
            int[] bShape = java.util.Arrays.copyOf(batch, nb + 2);
            bShape[nb] = k;
            bShape[nb + 1] = p;
            return new Batched(n, k, p, batch, a2.expand(aShape), b2.expand(bShape));
        }
    }

    /** The batched product of a2 (..., n, k) and b2 (..., k, p); a and b are the user's operands, for messages. */
    private static Tensor product(Tensor a2, Tensor b2, Tensor a, Tensor b) {
        Batched op = Batched.of(a2, b2, a, b);
        int n = op.n;
        int k = op.k;
        int p = op.p;
        int[] batch = op.batch;
        int nb = batch.length;
        int[] outShape = java.util.Arrays.copyOf(batch, nb + 2);
        outShape[nb] = n;
        outShape[nb + 1] = p;
        Tensor A = op.A;
        Tensor B = op.B;
        boolean f32 = a.dtype() == DType.FLOAT32;
        // float32 products write every element of their result (Gemm.sgemmInto); float64 ones add into zeros.
        Tensor out = f32 && k > 0 ? Tensor.empty(DType.FLOAT32, outShape) : Tensor.zeros(a.dtype(), outShape);
        if (out.numel() == 0 || k == 0) {
            return out;
        }
        int ars = A.strides[nb];
        int acs = A.strides[nb + 1];
        int brs = B.strides[nb];
        int bcs = B.strides[nb + 1];
        int outBatch = n * p;
        int[] batchStrides = Shape.contiguousStrides(batch);
        for (int i = 0; i < nb; i++) {
            batchStrides[i] *= outBatch;
        }
        int batches = Shape.numel(batch);
        // Every product's offsets first, then the products: in parallel across the batch when each one is
        // too small to be split itself, else one after the other (each then uses the threads inside).
        int[] offs = batchOffsets(batch, batchStrides, A, B, nb);
        Parallel.RangeBody body = (lo, hi) -> {
            for (int i = lo; i < hi; i++) {
                if (f32) {
                    Gemm.sgemmInto(n, k, p, A.storage.f(), offs[3 * i + 1], ars, acs, B.storage.f(), offs[3 * i + 2], brs, bcs,
                            out.storage.f(), offs[3 * i], p);
                } else {
                    Gemm.dgemm(n, k, p, A.storage.d(), offs[3 * i + 1], ars, acs, B.storage.d(), offs[3 * i + 2], brs, bcs,
                            out.storage.d(), offs[3 * i], p);
                }
            }
        };
        long flopsEach = 2L * n * k * p;
        // Many products (a convolution's, one per image) also go across the batch: whole products per
        // thread balance well and need no synchronisation inside each one.
        boolean acrossBatch = batches > 1 && flopsEach * batches >= (1L << 20)
                && (flopsEach < Tuning.PARALLEL_FLOPS || batches >= 4 * Parallel.threads());
        if (acrossBatch) {
            // Claimed one product at a time: with equal halves, the thread that started later (a helper waking up) kept
            // the other waiting at the end of attention's per-head products.
            Parallel.forEachTask(batches, body);
        } else {
            body.run(0, batches);
        }
        return out;
    }

    /**
     * Every product's (out, a, b) offsets, three ints per product in batch order: the output's from
     * {@code outStrides}, the operands' from their strides over the first {@code nb} dims of A and B.
     */
    private static int[] batchOffsets(int[] batch, int[] outStrides, Tensor A, Tensor B, int nb) {
        int[] aBatch = java.util.Arrays.copyOf(A.strides, nb);
        int[] bBatch = java.util.Arrays.copyOf(B.strides, nb);
        Iter it = Iter.of(batch, outStrides, aBatch, bBatch);
        int os = it.rowStride(0);
        int as = it.rowStride(1);
        int bs = it.rowStride(2);
        int[] offs = new int[3 * it.numel()];
        int[] at = {0};
        it.forEachRow(new int[] {0, A.offset, B.offset}, (off, m) -> {
            for (int i = 0; i < m; i++) {
                offs[at[0]++] = off[0] + i * os;
                offs[at[0]++] = off[1] + i * as;
                offs[at[0]++] = off[2] + i * bs;
            }
        });
        return offs;
    }

    /** The most partial sums {@link #summedProduct} keeps, and the most floats they may take together. */
    private static final int SUM_GROUPS = 8;
    private static final long SUM_GROUP_FLOATS = 1L << 21;

    /**
     * {@code a.matmul(b).sumTo(n, p)} without the stack of products: {@code a (..., n, k)} and
     * {@code b (..., k, p)} (batch dims broadcast) give the {@code (n, p)} sum over the batch of their
     * products, the gradient of an operand that a batched product broadcast along its batch (a
     * convolution's weight). The batch is cut into a fixed number of runs, each added up in its own
     * buffer (the matrix kernels add into C) and run by whichever thread is free; the buffers are then
     * added in order, so the result does not depend on the thread count.
     */
    static Tensor summedProduct(Tensor a, Tensor b) {
        if (a.dtype() != b.dtype() || !a.dtype().isFloating()) {
            throw new DTypeException("matmul: expected two float32 or two float64 operands, got " + a.dtype() + " and " + b.dtype());
        }
        if (a.dim() < 2 || b.dim() < 2) {
            throw new ShapeException("summed matmul needs operands of at least 2 dims, got " + Shape.str(a.shape) + " and " + Shape.str(b.shape));
        }
        Batched op = Batched.of(a, b, a, b);
        int n = op.n;
        int k = op.k;
        int p = op.p;
        int[] batch = op.batch;
        int nb = batch.length;
        Tensor A = op.A;
        Tensor B = op.B;
        Tensor out = Tensor.zeros(a.dtype(), n, p);
        int batches = Shape.numel(batch);
        if (out.numel() == 0 || k == 0 || batches == 0) {
            return out;
        }
        int[] offs = batchOffsets(batch, new int[nb], A, B, nb);
        int ars = A.strides[nb];
        int acs = A.strides[nb + 1];
        int brs = B.strides[nb];
        int bcs = B.strides[nb + 1];
        int groups = (int) Math.max(1, Math.min(Math.min(batches, SUM_GROUPS), SUM_GROUP_FLOATS / ((long) n * p)));
        boolean f32 = a.dtype() == DType.FLOAT32;
        Object[] partial = new Object[groups];
        Parallel.RangeBody body = (lo, hi) -> {
            for (int gi = lo; gi < hi; gi++) {
                Object c = gi == 0 ? (f32 ? out.storage.f() : out.storage.d()) : (f32 ? new float[n * p] : new double[n * p]);
                partial[gi] = c;
                int from = (int) ((long) batches * gi / groups);
                int to = (int) ((long) batches * (gi + 1) / groups);
                for (int i = from; i < to; i++) {
                    if (f32) {
                        Gemm.sgemm(n, k, p, A.storage.f(), offs[3 * i + 1], ars, acs, B.storage.f(), offs[3 * i + 2], brs, bcs, (float[]) c, 0, p);
                    } else {
                        Gemm.dgemm(n, k, p, A.storage.d(), offs[3 * i + 1], ars, acs, B.storage.d(), offs[3 * i + 2], brs, bcs, (double[]) c, 0, p);
                    }
                }
            }
        };
        if (groups == 1) {
            body.run(0, 1);
            return out;
        }
        Parallel.forEachTask(groups, body);
        for (int gi = 1; gi < groups; gi++) {
            if (f32) {
                float[] o = out.storage.f();
                float[] c = (float[]) partial[gi];
                for (int i = 0; i < o.length; i++) {
                    o[i] += c[i];
                }
            } else {
                double[] o = out.storage.d();
                double[] c = (double[]) partial[gi];
                for (int i = 0; i < o.length; i++) {
                    o[i] += c[i];
                }
            }
        }
        return out;
    }

    static Tensor linear(Tensor x, Tensor w, Tensor b) {
        if (w.dim() != 2 && w.dim() != 1) {
            throw new ShapeException("linear: weight must be 2-d (out_features, in_features), got shape " + Shape.str(w.shape));
        }
        int in = w.shape[w.dim() - 1];
        if (x.dim() == 0 || x.shape[x.dim() - 1] != in) {
            throw new ShapeException("linear: input shape " + Shape.str(x.shape) + " does not end in in_features = " + in
                    + " of weight " + Shape.str(w.shape) + "\n"
                    + "mat1 and mat2 shapes cannot be multiplied (" + (x.dim() == 0 ? 1 : x.numel() / Math.max(1, x.shape[x.dim() - 1]))
                    + "x" + (x.dim() == 0 ? 1 : x.shape[x.dim() - 1]) + " and " + in + "x" + (w.dim() == 2 ? w.shape[0] : 1) + ")");
        }
        int out = w.dim() == 2 ? w.shape[0] : 1;
        if (b != null && b.numel() != out && b.dim() != 0) {
            throw new ShapeException("linear: bias shape " + Shape.str(b.shape) + " does not match out_features = " + out);
        }
        Tensor fused = b == null ? null : withBiasFirst(x, w, b);
        if (fused != null) {
            return fused;
        }
        Tensor y = matmul(x, w.t());
        return b == null ? y : y.add(b);
    }

    /**
     * {@code x @ w^T + b} in float32 with x's batch dims folded into its rows as a view: each row of the result
     * starts as the bias and the product is added into it, so there is neither a zeroed result nor a second pass
     * (and a second result) for the bias. Null where that does not apply (other dtypes, a 0-d bias, rows that are
     * not a view).
     */
    private static Tensor withBiasFirst(Tensor x, Tensor w, Tensor b) {
        if (x.dtype() != DType.FLOAT32 || w.dtype() != DType.FLOAT32 || b.dtype() != DType.FLOAT32 || w.dim() != 2 || b.dim() != 1
                || x.dim() < 2) {
            return null;
        }
        int in = w.shape[1];
        int out = w.shape[0];
        int[] rows = {x.numel() / Math.max(1, in), in};
        int[] strides = x.numel() == 0 ? null : Views.viewStrides(x.shape, x.strides, rows);
        if (strides == null) {
            return null;
        }
        int n = rows[0];
        Tensor y = Tensor.empty(DType.FLOAT32, n, out);
        float[] bias = b.dense().storage.f();
        float[] o = y.storage.f();
        for (int r = 0; r < n; r++) {
            System.arraycopy(bias, 0, o, r * out, out);
        }
        if (in > 0) {
            Gemm.sgemm(n, in, out, x.storage.f(), x.offset, strides[0], strides[1], w.storage.f(), w.offset, w.strides[1], w.strides[0],
                    o, 0, out);
        }
        int[] outShape = x.shape.clone();
        outShape[outShape.length - 1] = out;
        return y.view(outShape);
    }
}
