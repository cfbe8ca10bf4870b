package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.MathFns;

import dev.jgrad.tensor.internal.kernels.ElementwiseLoops;
import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.Parallel;
import dev.jgrad.tensor.internal.kernels.Tuning;

/**
 * Elementwise ops: unary, binary with broadcasting, where, masked fill, clamp and copies with type
 * conversion. Broadcast operands are read through stride-0 strides; only the result is allocated.
 * The inner loops live in {@link ElementwiseLoops}, one per element type.
 */
final class Elementwise {
    private Elementwise() {
    }

    /**
     * PyTorch's result type for two operands: dimensioned tensors decide within a category, and a 0-d
     * tensor only raises the category (an int tensor plus a 0-d float tensor is float).
     */
    static DType resultType(Tensor a, Tensor b) {
        boolean za = a.shape.length == 0;
        boolean zb = b.shape.length == 0;
        if (za == zb) {
            return DType.promote(a.dtype(), b.dtype());
        }
        DType dimensioned = za ? b.dtype() : a.dtype();
        DType zeroDim = za ? a.dtype() : b.dtype();
        return zeroDim.category() > dimensioned.category() ? zeroDim : dimensioned;
    }

    static Tensor binary(BinaryOp op, Tensor a, Tensor b) {
        if (op.kind == BinaryOp.Kind.ARITHMETIC && a.storage.dtype == DType.FLOAT32 && b.storage.dtype == DType.FLOAT32
                && java.util.Arrays.equals(a.shape, b.shape) && a.isContiguous() && b.isContiguous()) {
            // The common case of a training step, without the broadcasting machinery.
            Tensor r = Tensor.empty(DType.FLOAT32, a.shape);
            int n = r.numel();
            if (n < Tuning.parallelMin()) {
                ElementwiseLoops.binaryF(op, a.storage.f(), a.offset, 1, b.storage.f(), b.offset, 1, r.storage.f(), 0, 1, n);
            } else {
                Iter.forAlignedPieces(n, Tuning.parallelMin() / 2, (lo, hi) ->
                        ElementwiseLoops.binaryF(op, a.storage.f(), a.offset + lo, 1, b.storage.f(), b.offset + lo, 1, r.storage.f(), lo, 1, hi - lo));
            }
            return r;
        }
        int[] out = Shape.broadcast(a.shape, b.shape);
        DType ct = op.computeType(resultType(a, b));
        DType rt = op.resultType(ct);
        BroadcastGuard.check(op.pyName, new int[][] {a.shape, b.shape}, out, rt);
        Tensor r = Tensor.empty(rt, out);
        run(op, a.to(ct), b.to(ct), r);
        return r;
    }

    /** {@code r = op(x, y)} where x and y (of one type) broadcast to r's shape; r may be strided. */
    static void run(BinaryOp op, Tensor x, Tensor y, Tensor r) {
        int[] sx = Shape.broadcastStrides(x.shape, x.strides, r.shape);
        int[] sy = Shape.broadcastStrides(y.shape, y.strides, r.shape);
        Iter it = Iter.elementwise(r.shape, r.strides, sx, sy);
        int rs = it.rowStride(0);
        int xs = it.rowStride(1);
        int ys = it.rowStride(2);
        int[] base = {r.offset, x.offset, y.offset};
        DType ct = x.dtype();
        boolean boolOut = r.dtype() == DType.BOOL && op.kind != BinaryOp.Kind.ARITHMETIC;
        switch (ct) {
            case FLOAT32: {
                float[] a = x.storage.f();
                float[] b = y.storage.f();
                if (boolOut) {
                    boolean[] o = r.storage.b();
                    it.forEachRowParallel(base, (off, n) -> ElementwiseLoops.compareF(op, a, off[1], xs, b, off[2], ys, o, off[0], rs, n));
                } else {
                    float[] o = r.storage.f();
                    int rb = it.blockStride(0);
                    int xb = it.blockStride(1);
                    int yb = it.blockStride(2);
                    it.forEachBlockParallel(base, (off, rows, n) ->
                            ElementwiseLoops.binaryRowsF(op, a, off[1], xb, xs, b, off[2], yb, ys, o, off[0], rb, rs, rows, n));
                }
                break;
            }
            case FLOAT64: {
                double[] a = x.storage.d();
                double[] b = y.storage.d();
                if (boolOut) {
                    boolean[] o = r.storage.b();
                    it.forEachRow(base, (off, n) -> ElementwiseLoops.compareD(op, a, off[1], xs, b, off[2], ys, o, off[0], rs, n));
                } else {
                    double[] o = r.storage.d();
                    it.forEachRow(base, (off, n) -> ElementwiseLoops.binaryD(op, a, off[1], xs, b, off[2], ys, o, off[0], rs, n));
                }
                break;
            }
            case INT64: {
                long[] a = x.storage.l();
                long[] b = y.storage.l();
                if (boolOut) {
                    boolean[] o = r.storage.b();
                    it.forEachRow(base, (off, n) -> ElementwiseLoops.compareL(op, a, off[1], xs, b, off[2], ys, o, off[0], rs, n));
                } else {
                    long[] o = r.storage.l();
                    it.forEachRow(base, (off, n) -> ElementwiseLoops.binaryL(op, a, off[1], xs, b, off[2], ys, o, off[0], rs, n));
                }
                break;
            }
            case BOOL: {
                boolean[] a = x.storage.b();
                boolean[] b = y.storage.b();
                boolean[] o = r.storage.b();
                it.forEachRowParallel(base, (off, n) -> ElementwiseLoops.logicalB(op, a, off[1], xs, b, off[2], ys, o, off[0], rs, n));
                break;
            }
            default:
                throw new AssertionError(ct);
        }
    }

    /** The scalar right operand of logical_not's comparison with zero. */
    private static final float[] ZERO = {0f};

    static Tensor unary(UnaryOp op, Tensor x) {
        DType in = x.dtype();
        DType ct = op.domain == UnaryOp.Domain.FLOAT && !in.isFloating() ? DType.FLOAT32 : in;
        if (op.domain == UnaryOp.Domain.PREDICATE) {
            Tensor r = Tensor.empty(DType.BOOL, x.shape);
            Tensor xc = x;
            int[] base = {r.offset, xc.offset};
            Iter it = Iter.elementwise(r.shape, r.strides, xc.strides);
            int rs = it.rowStride(0);
            int xs = it.rowStride(1);
            Storage src = xc.storage;
            boolean[] o = r.storage.b();
            if (in == DType.BOOL && op == UnaryOp.LOGICAL_NOT) {
                // A mask's negation, the backward of clamp and of ReLU-like masks: a plain loop over the flags.
                boolean[] b = src.b();
                it.forEachRowParallel(base, (off, n) -> {
                    for (int i = 0; i < n; i++) {
                        o[off[0] + i * rs] = !b[off[1] + i * xs];
                    }
                });
                return r;
            }
            if (in == DType.FLOAT32) {
                // isnan(x) is x != x, logical_not(x) is x == 0: the comparison kernels, a vector at a time.
                float[] a = src.f();
                boolean nan = op == UnaryOp.ISNAN;
                it.forEachRowParallel(base, (off, n) -> ElementwiseLoops.compareF(nan ? BinaryOp.NE : BinaryOp.EQ, a, off[1], xs,
                        nan ? a : ZERO, nan ? off[1] : 0, nan ? xs : 0, o, off[0], rs, n));
                return r;
            }
            it.forEachRowParallel(base, (off, n) -> {
                for (int i = 0; i < n; i++) {
                    o[off[0] + i * rs] = op.apply(src.getDouble(off[1] + i * xs)) != 0.0;
                }
            });
            return r;
        }
        if (ct == DType.BOOL) {
            ct = DType.INT64;
        }
        Tensor xc = x.to(ct);
        Tensor r = Tensor.empty(ct, x.shape);
        runUnary(op, xc, r);
        return r;
    }

    /** {@code r = op(x)}, x of r's type and shape; r may be strided. */
    static void runUnary(UnaryOp op, Tensor x, Tensor r) {
        if (x.storage.dtype == DType.FLOAT32 && x.isContiguous() && r.isContiguous() && r.numel() < Tuning.parallelMin()) {
            ElementwiseLoops.unaryF(op, x.storage.f(), x.offset, 1, r.storage.f(), r.offset, 1, r.numel());
            return;
        }
        Iter it = Iter.elementwise(r.shape, r.strides, x.strides);
        int rs = it.rowStride(0);
        int xs = it.rowStride(1);
        int[] base = {r.offset, x.offset};
        switch (x.dtype()) {
            case FLOAT32: {
                float[] a = x.storage.f();
                float[] o = r.storage.f();
                it.forEachRowParallel(base, (off, n) -> ElementwiseLoops.unaryF(op, a, off[1], xs, o, off[0], rs, n));
                break;
            }
            case FLOAT64: {
                double[] a = x.storage.d();
                double[] o = r.storage.d();
                it.forEachRow(base, (off, n) -> ElementwiseLoops.unaryD(op, a, off[1], xs, o, off[0], rs, n));
                break;
            }
            case INT64: {
                long[] a = x.storage.l();
                long[] o = r.storage.l();
                it.forEachRow(base, (off, n) -> {
                    for (int i = 0; i < n; i++) {
                        o[off[0] + i * rs] = (long) op.apply(a[off[1] + i * xs]);
                    }
                });
                break;
            }
            default:
                throw new DTypeException(op.pyName + ": not defined for " + x.dtype() + " tensors");
        }
    }

    static Tensor clamp(Tensor x, double min, double max) {
        Tensor r = Tensor.empty(x.dtype(), x.shape);
        Iter it = Iter.elementwise(r.shape, r.strides, x.strides);
        int xs = it.rowStride(1);
        boolean hasMin = !Double.isNaN(min);
        boolean hasMax = !Double.isNaN(max);
        if (x.dtype() == DType.FLOAT32) {
            float[] a = x.storage.f();
            float[] o = r.storage.f();
            float lo = hasMin ? (float) min : Float.NEGATIVE_INFINITY;
            float hi = hasMax ? (float) max : Float.POSITIVE_INFINITY;
            it.forEachRowParallel(new int[] {0, x.offset}, (off, n) -> {
                if (xs == 1) {
                    Kernels.ELEMENTWISE.clamp(a, off[1], lo, hi, o, off[0], n);
                    return;
                }
                for (int i = 0; i < n; i++) {
                    o[off[0] + i] = MathFns.clamp(a[off[1] + i * xs], lo, hi);
                }
            });
        } else {
            double lo = hasMin ? min : Double.NEGATIVE_INFINITY;
            double hi = hasMax ? max : Double.POSITIVE_INFINITY;
            Storage src = x.storage;
            Storage dst = r.storage;
            it.forEachRowParallel(new int[] {0, x.offset}, (off, n) -> {
                for (int i = 0; i < n; i++) {
                    dst.setDouble(off[0] + i, MathFns.clamp(src.getDouble(off[1] + i * xs), lo, hi));
                }
            });
        }
        return r;
    }

    static Tensor where(Tensor cond, Tensor a, Tensor b) {
        int[] out = Shape.broadcastShapes(cond.shape, a.shape, b.shape);
        DType rt = resultType(a, b);
        BroadcastGuard.check("where", new int[][] {a.shape, b.shape}, out, rt);
        Tensor c = cond.to(DType.BOOL);
        Tensor x = a.to(rt);
        Tensor y = b.to(rt);
        Tensor r = Tensor.empty(rt, out);
        Iter it = Iter.elementwise(out, r.strides, Shape.broadcastStrides(c.shape, c.strides, out),
                Shape.broadcastStrides(x.shape, x.strides, out), Shape.broadcastStrides(y.shape, y.strides, out));
        int cs = it.rowStride(1);
        int xs = it.rowStride(2);
        int ys = it.rowStride(3);
        boolean[] m = c.storage.b();
        int[] base = {0, c.offset, x.offset, y.offset};
        switch (rt) {
            case FLOAT32: {
                float[] p = x.storage.f();
                float[] q = y.storage.f();
                float[] o = r.storage.f();
                it.forEachRowParallel(base, (off, n) -> Kernels.ELEMENTWISE.where(m, off[1], cs, p, off[2], xs, q, off[3], ys, o, off[0], n));
                break;
            }
            case FLOAT64: {
                double[] p = x.storage.d();
                double[] q = y.storage.d();
                double[] o = r.storage.d();
                it.forEachRowParallel(base, (off, n) -> {
                    for (int i = 0; i < n; i++) {
                        long keep = m[off[1] + i * cs] ? -1L : 0L;
                        long bits = (Double.doubleToRawLongBits(p[off[2] + i * xs]) & keep) | (Double.doubleToRawLongBits(q[off[3] + i * ys]) & ~keep);
                        o[off[0] + i] = Double.longBitsToDouble(bits);
                    }
                });
                break;
            }
            default: {
                Storage p = x.storage;
                Storage q = y.storage;
                Storage o = r.storage;
                it.forEachRowParallel(base, (off, n) -> {
                    for (int i = 0; i < n; i++) {
                        o.setLong(off[0] + i, m[off[1] + i * cs] ? p.getLong(off[2] + i * xs) : q.getLong(off[3] + i * ys));
                    }
                });
            }
        }
        return r;
    }

    /**
     * Leaky ReLU's forward ({@code g} is x itself) or backward ({@code g} the incoming gradient): {@code x > 0 ? g : g *
     * slope}, the slope a float32 for float32 as PyTorch's scalar is: one pass where both are float32 of one shape
     * (strided ones copied first); for other types (and broadcasting gradients) a where.
     */
    static Tensor leakyRelu(Tensor x, Tensor g, double slope) {
        if (g.dtype() == DType.FLOAT32 && x.dtype() == DType.FLOAT32 && java.util.Arrays.equals(g.shape, x.shape)) {
            Tensor xc = x.contiguous();
            Tensor gc = g == x ? xc : g.contiguous();
            Tensor r = Tensor.empty(DType.FLOAT32, g.shape);
            int n = g.numel();
            float s = (float) slope;
            Iter.forAlignedPieces(n, Tuning.parallelMin(), (from, to) ->
                    Kernels.ELEMENTWISE.leakyRelu(xc.storage.f(), xc.offset + from, gc.storage.f(), gc.offset + from, s, r.storage.f(), from, to - from));
            return r;
        }
        return g.where(x.gt(0.0), g.mul(slope));
    }

    /**
     * ReLU's backward, {@code y <= 0 ? 0 : g} (a NaN output passes its gradient, as PyTorch's threshold_backward),
     * in one pass where both are float32 and contiguous, else as a masked fill.
     */
    static Tensor reluBackward(Tensor g, Tensor y) {
        if (g.dtype() == DType.FLOAT32 && y.dtype() == DType.FLOAT32 && g.isContiguous() && y.isContiguous()
                && java.util.Arrays.equals(g.shape, y.shape)) {
            Tensor r = Tensor.empty(DType.FLOAT32, g.shape);
            int n = g.numel();
            // Split in whole vectors across the threads: the pass is bound by memory, which two cores read faster.
            Iter.forAlignedPieces(n, Tuning.parallelMin(), (from, to) ->
                    Kernels.ELEMENTWISE.reluBackward(g.storage.f(), g.offset + from, y.storage.f(), y.offset + from, r.storage.f(), from, to - from));
            return r;
        }
        return g.maskedFill(y.le(0.0), 0.0);
    }

    /**
     * The exact GELU's backward, {@code g (Phi(x) + x phi(x))}, in one pass where both are float32 and contiguous,
     * else from its definition.
     */
    static Tensor geluBackward(Tensor g, Tensor x) {
        if (g.dtype() == DType.FLOAT32 && x.dtype() == DType.FLOAT32 && g.isContiguous() && x.isContiguous()
                && java.util.Arrays.equals(g.shape, x.shape)) {
            Tensor r = Tensor.empty(DType.FLOAT32, g.shape);
            int n = g.numel();
            Iter.forAlignedPieces(n, Tuning.parallelMin(), (from, to) ->
                    Kernels.ELEMENTWISE.geluBackward(g.storage.f(), g.offset + from, x.storage.f(), x.offset + from, r.storage.f(), from, to - from));
            return r;
        }
        Tensor cdf = x.mul(MathFns.INV_SQRT_2).erf().add(1.0).mul(0.5);
        Tensor pdf = x.square().mul(-0.5).exp().mul(MathFns.INV_SQRT_2PI);
        return g.mul(cdf.add(x.mul(pdf)));
    }

    static Tensor maskedFill(Tensor x, Tensor mask, double value) {
        checkMask(mask, "masked_fill");
        return where(mask, Tensor.scalar(value, x.dtype()), x);
    }

    static void checkMask(Tensor mask, String op) {
        if (mask.dtype() != DType.BOOL) {
            throw new DTypeException(op + " only supports boolean masks, but got mask with dtype " + mask.dtype());
        }
    }

    /**
     * The conversions between the float types and into float32 (a float32 model's input or a mask made numbers) as
     * typed loops on both threads, each element as {@link Storage#getDouble} and {@link Storage#setDouble} convert it
     * (a long goes through double on its way to float32), where the general path below calls both per element.
     */
    private static boolean convertTyped(Iter it, int[] base, int ds, int xs, Tensor src, Tensor dst) {
        DType from = src.dtype();
        DType to = dst.dtype();
        if (to == DType.FLOAT64 && from == DType.FLOAT32) {
            float[] a = src.storage.f();
            double[] o = dst.storage.d();
            it.forEachRowParallel(base, (off, n) -> {
                if (ds == 1 && xs == 1) {
                    // Unit strides, which the JIT turns into vector conversions.
                    for (int i = 0; i < n; i++) {
                        o[off[0] + i] = a[off[1] + i];
                    }
                    return;
                }
                for (int i = 0; i < n; i++) {
                    o[off[0] + i * ds] = a[off[1] + i * xs];
                }
            });
            return true;
        }
        if (to != DType.FLOAT32) {
            return false;
        }
        float[] o = dst.storage.f();
        switch (from) {
            case FLOAT64: {
                double[] a = src.storage.d();
                it.forEachRowParallel(base, (off, n) -> {
                    if (ds == 1 && xs == 1) {
                        for (int i = 0; i < n; i++) {
                            o[off[0] + i] = (float) a[off[1] + i];
                        }
                        return;
                    }
                    for (int i = 0; i < n; i++) {
                        o[off[0] + i * ds] = (float) a[off[1] + i * xs];
                    }
                });
                return true;
            }
            case INT64: {
                long[] a = src.storage.l();
                it.forEachRowParallel(base, (off, n) -> {
                    for (int i = 0; i < n; i++) {
                        o[off[0] + i * ds] = (float) (double) a[off[1] + i * xs];
                    }
                });
                return true;
            }
            case BOOL: {
                boolean[] a = src.storage.b();
                it.forEachRowParallel(base, (off, n) -> {
                    for (int i = 0; i < n; i++) {
                        o[off[0] + i * ds] = a[off[1] + i * xs] ? 1f : 0f;
                    }
                });
                return true;
            }
            default:
                return false;
        }
    }

    /** Copies {@code src} (broadcast to dst's shape, converted to dst's type) into dst, which may be strided. */
    static void copy(Tensor src, Tensor dst) {
        int[] ss = Shape.broadcastStrides(src.shape, src.strides, dst.shape);
        if (src.dtype() == dst.dtype() && src.isContiguous() && dst.isContiguous()
                && java.util.Arrays.equals(src.shape, dst.shape)) {
            Object from = src.storage.array();
            Object to = dst.storage.array();
            int n = dst.numel();
            if (n < Tuning.parallelMin() || Parallel.threads() == 1) {
                System.arraycopy(from, src.offset, to, dst.offset, n);
            } else {
                Parallel.forRange(n, Tuning.parallelMin() / 2, (lo, hi) -> System.arraycopy(from, src.offset + lo, to, dst.offset + lo, hi - lo));
            }
            return;
        }
        Iter it = Iter.elementwise(dst.shape, dst.strides, ss);
        int ds = it.rowStride(0);
        int xs = it.rowStride(1);
        int[] base = {dst.offset, src.offset};
        DType from = src.dtype();
        DType to = dst.dtype();
        if (from == to) {
            switch (to) {
                case FLOAT32: {
                    // Rows that are runs in both (an im2col copy of a convolution's windows, a permute that keeps
                    // the last dim) are block copies, a run of rows per call, and runs read backwards (a flip) vector
                    // copies with the lanes reversed; where the source's runs go across the
                    // rows (a transpose) the rows are written together, sixteen at a time, so that neither side is
                    // read or written one float per cache line. A large copy is split across the threads.
                    float[] a = src.storage.f();
                    float[] o = dst.storage.f();
                    int dbs = it.blockStride(0);
                    int sbs = it.blockStride(1);
                    it.forEachBlockParallel(base, (off, rows, n) -> {
                        if (ds == 1 && xs == 1) {
                            for (int r = 0; r < rows; r++) {
                                System.arraycopy(a, off[1] + r * sbs, o, off[0] + r * dbs, n);
                            }
                        } else if (ds == 1 && xs == -1) {
                            for (int r = 0; r < rows; r++) {
                                Kernels.ELEMENTWISE.reversed(a, off[1] + r * sbs, o, off[0] + r * dbs, n);
                            }
                        } else if (ds == 1 && xs == 0) {
                            // An expanded element (a sum's gradient, a column broadcast along a row): a fill.
                            for (int r = 0; r < rows; r++) {
                                int d = off[0] + r * dbs;
                                java.util.Arrays.fill(o, d, d + n, a[off[1] + r * sbs]);
                            }
                        } else if (ds == 1 && sbs == 1 && rows > 1 && dbs >= n) {
                            Kernels.ELEMENTWISE.transposeLines(a, off[1], xs, n, rows, o, off[0], dbs);
                        } else {
                            for (int r = 0; r < rows; r++) {
                                int d = off[0] + r * dbs;
                                int x = off[1] + r * sbs;
                                for (int i = 0; i < n; i++) {
                                    o[d + i * ds] = a[x + i * xs];
                                }
                            }
                        }
                    });
                    return;
                }
                case FLOAT64: {
                    double[] a = src.storage.d();
                    double[] o = dst.storage.d();
                    it.forEachRow(base, (off, n) -> {
                        for (int i = 0; i < n; i++) {
                            o[off[0] + i * ds] = a[off[1] + i * xs];
                        }
                    });
                    return;
                }
                case INT64: {
                    long[] a = src.storage.l();
                    long[] o = dst.storage.l();
                    it.forEachRow(base, (off, n) -> {
                        for (int i = 0; i < n; i++) {
                            o[off[0] + i * ds] = a[off[1] + i * xs];
                        }
                    });
                    return;
                }
                default: {
                    boolean[] a = src.storage.b();
                    boolean[] o = dst.storage.b();
                    it.forEachRow(base, (off, n) -> {
                        for (int i = 0; i < n; i++) {
                            o[off[0] + i * ds] = a[off[1] + i * xs];
                        }
                    });
                    return;
                }
            }
        }
        if (convertTyped(it, base, ds, xs, src, dst)) {
            return;
        }
        Storage a = src.storage;
        Storage o = dst.storage;
        if (to == DType.INT64 || from == DType.INT64 && to != DType.FLOAT32 && to != DType.FLOAT64) {
            it.forEachRow(base, (off, n) -> {
                for (int i = 0; i < n; i++) {
                    o.setLong(off[0] + i * ds, a.getLong(off[1] + i * xs));
                }
            });
        } else {
            it.forEachRow(base, (off, n) -> {
                for (int i = 0; i < n; i++) {
                    o.setDouble(off[0] + i * ds, a.getDouble(off[1] + i * xs));
                }
            });
        }
    }

    static boolean allFinite(Tensor x) {
        if (!x.dtype().isFloating()) {
            return true;
        }
        Iter it = Iter.elementwise(x.shape, x.strides);
        int xs = it.rowStride(0);
        boolean[] ok = {true};
        Storage s = x.storage;
        it.forEachRow(new int[] {x.offset}, (off, n) -> {
            for (int i = 0; i < n && ok[0]; i++) {
                double v = s.getDouble(off[0] + i * xs);
                if (Double.isNaN(v) || Double.isInfinite(v)) {
                    ok[0] = false;
                }
            }
        });
        return ok[0];
    }
}
