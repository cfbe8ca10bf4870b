package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.Parallel;
import dev.jgrad.tensor.internal.kernels.ReductionKernels;
import dev.jgrad.tensor.internal.kernels.ThreadBuffer;
import dev.jgrad.tensor.internal.kernels.Tuning;
import java.util.Arrays;

/**
 * Reductions over a dim, a list of dims or all of them, with {@code keepdim}; max/min with indices (softmax and
 * log-softmax are {@link Softmax}'s). Floating reductions accumulate in double precision (float32 sums over the leading dims
 * of a contiguous tensor add runs of 64 rows in float first, as PyTorch adds float32 in float).
 *
 * <p>Each reduction splits the input's dims into kept and reduced ones. The kept dims are walked with
 * {@link Iter}; the reduced ones form a sub-layout that is either one strided run (the common case:
 * reducing the last dims of a contiguous tensor) or a table of offsets.
 */
final class Reduce {
    enum Op {
        SUM("sum"), MEAN("mean"), PROD("prod"), AMAX("amax"), AMIN("amin"), LOGSUMEXP("logsumexp");

        final String pyName;

        Op(String pyName) {
            this.pyName = pyName;
        }
    }

    private Reduce() {
    }

    /** Which dims a reduction removes; null or empty means all, as in PyTorch. */
    static boolean[] reducedMask(int[] dims, int ndim) {
        boolean[] red = new boolean[ndim];
        if (dims == null || dims.length == 0) {
            Arrays.fill(red, true);
            return red;
        }
        for (int d : Shape.wrapDims(dims, ndim)) {
            if (ndim > 0) {
                red[d] = true;
            }
        }
        return red;
    }

    /** The shape a reduction leaves. */
    static int[] reducedShape(int[] shape, boolean[] red, boolean keepdim) {
        int n = 0;
        for (int i = 0; i < shape.length; i++) {
            n += !red[i] || keepdim ? 1 : 0;
        }
        int[] out = new int[n];
        for (int i = 0, j = 0; i < shape.length; i++) {
            if (!red[i]) {
                out[j++] = shape[i];
            } else if (keepdim) {
                out[j++] = 1;
            }
        }
        return out;
    }

    /**
     * The layout of one reduction: the kept sub-layout to walk and the reduced sub-layout to fold,
     * as a single run (start 0, {@link #runStride}, {@link #count}) or a table of {@link #offsets}.
     */
    static final class Plan {
        final int[] keptShape;
        final int[] keptStrides;
        final int count;
        final int runStride;
        final int[] offsets;

        Plan(Tensor x, boolean[] red) {
            this(x, red, reducedLayout(x, red));
        }

        /** A plan whose reduced layout, {@link #reducedLayout reducedLayout(x, red)}, the caller has already made. */
        Plan(Tensor x, boolean[] red, Iter it) {
            int nk = red.length - count(red);
            keptShape = new int[nk];
            keptStrides = new int[nk];
            for (int i = 0, k = 0; i < red.length; i++) {
                if (!red[i]) {
                    keptShape[k] = x.shape[i];
                    keptStrides[k++] = x.strides[i];
                }
            }
            count = it.numel();
            if (count == 0 || it.rowLength() == count) {
                runStride = count == 0 ? 0 : it.rowStride(0);
                offsets = null;
            } else {
                runStride = 0;
                offsets = new int[count];
                int[] pos = {0};
                int s = it.rowStride(0);
                it.forEachRow(new int[] {0}, (off, n) -> {
                    for (int i = 0; i < n; i++) {
                        offsets[pos[0]++] = off[0] + i * s;
                    }
                });
            }
        }

        /** Copies the reduced elements that start at {@code base} into {@code buf}. */
        void gather(Storage s, int base, double[] buf) {
            if (offsets == null) {
                if (s.dtype == DType.FLOAT32) {
                    float[] f = s.f();
                    for (int i = 0; i < count; i++) {
                        buf[i] = f[base + i * runStride];
                    }
                } else {
                    for (int i = 0; i < count; i++) {
                        buf[i] = s.getDouble(base + i * runStride);
                    }
                }
            } else {
                for (int i = 0; i < count; i++) {
                    buf[i] = s.getDouble(base + offsets[i]);
                }
            }
        }
    }

    /** A contiguous copy of x with its kept dims first and its reduced dims last, each group in its own order. */
    private static Tensor reducedDimsLast(Tensor x, boolean[] red) {
        int[] perm = new int[red.length];
        int p = 0;
        for (int i = 0; i < red.length; i++) {
            if (!red[i]) {
                perm[p++] = i;
            }
        }
        for (int i = 0; i < red.length; i++) {
            if (red[i]) {
                perm[p++] = i;
            }
        }
        return Views.permute(x, perm).contiguous();
    }

    /** Whether a dim of x with more than one position has stride 0 (a broadcast view, as expand makes). */
    private static boolean repeatsElements(Tensor x) {
        for (int d = 0; d < x.shape.length; d++) {
            if (x.shape[d] > 1 && x.strides[d] == 0) {
                return true;
            }
        }
        return false;
    }

    private static int count(boolean[] flags) {
        int n = 0;
        for (boolean f : flags) {
            n += f ? 1 : 0;
        }
        return n;
    }

    /** The last {@code k} of {@code n} dims. */
    private static int[] lastDims(int n, int k) {
        int[] dims = new int[k];
        for (int i = 0; i < k; i++) {
            dims[i] = n - k + i;
        }
        return dims;
    }

    /** An iteration over the reduced dims of x alone (coalesced where they form runs). */
    private static Iter reducedLayout(Tensor x, boolean[] red) {
        int nr = count(red);
        int[] rShape = new int[nr];
        int[] rStrides = new int[nr];
        for (int i = 0, r = 0; i < red.length; i++) {
            if (red[i]) {
                rShape[r] = x.shape[i];
                rStrides[r++] = x.strides[i];
            }
        }
        return Iter.of(rShape, rStrides);
    }

    static Tensor reduce(Op op, Tensor x, int[] dims, boolean keepdim) {
        int n = x.shape.length;
        boolean[] red = reducedMask(dims, n);
        if (op == Op.AMAX || op == Op.AMIN) {
            checkNonEmpty(op.pyName, x, dims, red);
        }
        DType in = x.dtype();
        DType outType;
        switch (op) {
            case SUM:
            case PROD:
                outType = in.isFloating() ? in : DType.INT64;
                break;
            case MEAN:
                if (!in.isFloating()) {
                    throw new DTypeException("mean(): could not infer output dtype. Input dtype must be either a floating point"
                            + " or complex dtype. Got: " + in + " (convert with .to(DType.FLOAT32) first)");
                }
                outType = in;
                break;
            case LOGSUMEXP:
                outType = in.isFloating() ? in : DType.FLOAT32;
                break;
            default:
                outType = in == DType.BOOL ? DType.BOOL : in;
        }
        Tensor collapsed = overBroadcastDims(op, x, red, dims, keepdim);
        if (collapsed != null) {
            return collapsed;
        }
        // The reduced dims' layout decides the paths below, before a Plan (whose table of offsets the first two do not
        // need) is made from it.
        Iter folded = reducedLayout(x, red);
        int count = folded.numel();
        boolean unitRun = count > 0 && folded.rowLength() == count && folded.rowStride(0) == 1;
        if ((op == Op.SUM || op == Op.MEAN) && in.isFloating() && !unitRun) {
            // Sums of elements that are not one unit-stride run are walked in memory order.
            Tensor r = Tensor.zeros(outType, reducedShape(x.shape, red, false));
            if (!columnSums(op, x, red, count, r)) {
                accumulate(op, x, red, count, r);
            }
            return keepdim ? r.view(reducedShape(x.shape, red, true)) : r;
        }
        if (in == DType.FLOAT32 && op != Op.SUM && op != Op.MEAN && count >= 16 && !unitRun && !repeatsElements(x)) {
            // The reduced elements are not one unit-stride run (a column, several dims apart): a copy with the kept dims
            // first and the reduced ones last makes each a run for the vector kernels, at the price of one (blocked)
            // copy, far less than reading a float per cache line. Not for a view that repeats elements (expand): its
            // copy could be far larger than its storage.
            Tensor r = reduce(op, reducedDimsLast(x, red), lastDims(x.shape.length, count(red)), false);
            return keepdim ? r.view(reducedShape(x.shape, red, true)) : r;
        }
        Plan plan = new Plan(x, red, folded);
        Tensor r = Tensor.zeros(outType, plan.keptShape);
        Storage src = x.storage;
        Storage dst = r.storage;
        Iter it = Iter.of(plan.keptShape, r.strides, plan.keptStrides);
        int rs = it.rowStride(0);
        int xs = it.rowStride(1);
        boolean fastFloat = in == DType.FLOAT32 && plan.offsets == null;
        // any(dim) and all(dim) (amax, amin of bools) read the flags themselves, stopping at the first that decides.
        boolean fastBool = in == DType.BOOL && (op == Op.AMAX || op == Op.AMIN) && plan.offsets == null;
        boolean exactLong = (op == Op.SUM || op == Op.PROD) && !in.isFloating();
        // Only the gather path needs a buffer: a full sum of a large tensor would otherwise zero 8 bytes per element first.
        // Only the float32 run path is split across threads: the gather path shares one buffer.
        if (fastFloat && (op == Op.SUM || op == Op.MEAN) && plan.runStride == 1) {
            lastDimSums(op == Op.MEAN, x, plan, r, it);
            return keepdim ? r.view(reducedShape(x.shape, red, true)) : r;
        }
        if (fastFloat && (op == Op.AMAX || op == Op.AMIN) && r.numel() == 1 && plan.runStride == 1 && plan.count >= Tuning.parallelMin()
                && Parallel.threads() > 1) {
            r.storage.setDouble(0, splitExtreme(op == Op.AMIN, x.storage.f(), x.offset, plan.count));
            return keepdim ? r.view(reducedShape(x.shape, red, true)) : r;
        }
        if (fastFloat && (long) plan.count * r.numel() >= Tuning.parallelMin()) {
            parallelRuns(op, x, plan, r, it);
            return keepdim ? r.view(reducedShape(x.shape, red, true)) : r;
        }
        double[] buf = fastFloat || fastBool || exactLong ? null : new double[plan.count];
        Iter.Row body = (off, len) -> {
            for (int i = 0; i < len; i++) {
                int base = off[1] + i * xs;
                int o = off[0] + i * rs;
                if (exactLong) {
                    dst.setLong(o, reduceLong(op, src, base, plan));
                } else if (fastFloat) {
                    dst.setDouble(o, reduceFloatRun(op, src.f(), base, plan.runStride, plan.count));
                } else if (fastBool) {
                    dst.b()[o] = boolRun(op == Op.AMAX, src.b(), base, plan.runStride, plan.count);
                } else {
                    plan.gather(src, base, buf);
                    dst.setDouble(o, reduceDoubles(op, buf, plan.count));
                }
            }
        };
        it.forEachRow(new int[] {0, x.offset}, body);
        return keepdim ? r.view(reducedShape(x.shape, red, true)) : r;
    }

    /**
     * A reduction over dims that a view repeats (stride 0, as {@code expand} makes) reads each value once:
     * those dims shrink to 1 and the result is scaled (sum), shifted (logsumexp) or kept (mean, max, min),
     * so {@code ones(1, 1).expand(40000, 40000).sum()} neither materialises nor walks 1.6e9 elements.
     * Null when no reduced dim is repeated (or for prod, whose repeated products are left to the plain path).
     */
    private static Tensor overBroadcastDims(Op op, Tensor x, boolean[] red, int[] dims, boolean keepdim) {
        if (op == Op.PROD) {
            return null;
        }
        int[] shape = null;
        long repeat = 1;
        for (int d = 0; d < x.shape.length; d++) {
            if (red[d] && x.strides[d] == 0 && x.shape[d] > 1) {
                shape = shape == null ? x.shape.clone() : shape;
                repeat *= x.shape[d];
                shape[d] = 1;
            }
        }
        if (shape == null) {
            return null;
        }
        Tensor once = reduce(op, new Tensor(x.storage, x.offset, shape, x.strides), dims, keepdim);
        switch (op) {
            case SUM:
                return once.mul(Tensor.scalar(repeat, once.dtype()));
            case LOGSUMEXP:
                return once.add(Tensor.scalar(Math.log(repeat), once.dtype()));
            default:
                return once;
        }
    }

    /**
     * A sum or mean whose reduced elements are not one unit-stride run per result (over dim 0 of (N, M), as
     * a bias gradient needs, or dims 0, 2 and 3 of (N, C, H, W), as batch norm does): x is walked once in
     * its own memory order, each row added into a double accumulator of its result, so the reads stay sequential.
     */
    private static void accumulate(Op op, Tensor x, boolean[] red, int count, Tensor r) {
        int n = x.shape.length;
        int[] accStrides = new int[n];
        int stride = 1;
        for (int i = n - 1; i >= 0; i--) {
            if (!red[i]) {
                accStrides[i] = stride;
                stride *= x.shape[i];
            }
        }
        double[] acc = new double[r.numel()];
        Iter it = Iter.elementwise(x.shape, x.strides, accStrides);
        int xs = it.rowStride(0);
        int as = it.rowStride(1);
        Storage src = x.storage;
        it.forEachRow(new int[] {x.offset, 0}, (off, len) -> {
            if (as == 0) {
                acc[off[1]] += src.dtype == DType.FLOAT32 ? reduceFloatRun(Op.SUM, src.f(), off[0], xs, len) : runSum(src, off[0], xs, len);
            } else if (src.dtype == DType.FLOAT32) {
                float[] f = src.f();
                for (int i = 0; i < len; i++) {
                    acc[off[1] + i * as] += f[off[0] + i * xs];
                }
            } else {
                for (int i = 0; i < len; i++) {
                    acc[off[1] + i * as] += src.getDouble(off[0] + i * xs);
                }
            }
        });
        for (int i = 0; i < acc.length; i++) {
            r.storage.setDouble(i, op == Op.MEAN ? acc[i] / count : acc[i]);
        }
    }

    /** Rows added in float before their sum is added into the double sums (a bias's gradient, 512 rows of 384, is 8 runs). */
    private static final int COLUMN_RUN = 64;

    /**
     * Sums over the leading dims of a contiguous float32 x, the trailing ones kept (a bias's gradient, {@code g.sum(0)}):
     * x as {@code (R, C)} rows, added a run of up to {@link #COLUMN_RUN} rows at a time in float vectors, each run's
     * sums then added into double sums, where the general loop adds each element into a double one at a time. False
     * where this does not apply.
     */
    private static boolean columnSums(Op op, Tensor x, boolean[] red, int count, Tensor r) {
        if (x.dtype() != DType.FLOAT32 || !x.isContiguous() || count == 0) {
            return false;
        }
        int lead = 0;
        while (lead < red.length && red[lead]) {
            lead++;
        }
        for (int i = lead; i < red.length; i++) {
            if (red[i]) {
                return false;
            }
        }
        int cols = r.numel();
        if (cols < 16) {
            return false;
        }
        float[] f = x.storage.f();
        float[] out = r.storage.f();
        // Columns split across the threads in ranges: each column's sum is the same whatever range it falls in.
        int grain = Math.max(16, Tuning.parallelMin() / 2 / count);
        Parallel.forRange(cols, grain, (c0, c1) -> columnRangeSums(op == Op.MEAN, f, x.offset, cols, count, c0, c1, out));
        return true;
    }

    /**
     * The sums (or means) of columns {@code [c0, c1)} of a contiguous (count, cols) float32 block at {@code off}: blocks
     * of {@link #COLUMN_RUN} rows added in float a row at a time, each block's sums then added in double.
     */
    private static void columnRangeSums(boolean mean, float[] f, int off, int cols, int count, int c0, int c1, float[] out) {
        int width = c1 - c0;
        double[] acc = new double[width];
        float[] run = new float[width];
        for (int r0 = 0; r0 < count; r0 += COLUMN_RUN) {
            int r1 = Math.min(count, r0 + COLUMN_RUN);
            Kernels.REDUCTIONS.columnSums(f, off + r0 * cols + c0, cols, r1 - r0, run, width);
            for (int c = 0; c < width; c++) {
                acc[c] += run[c];
            }
        }
        for (int c = 0; c < width; c++) {
            out[c0 + c] = (float) (mean ? acc[c] / count : acc[c]);
        }
    }

    private static double runSum(Storage s, int off, int stride, int n) {
        double t = 0;
        for (int i = 0; i < n; i++) {
            t += s.getDouble(off + i * stride);
        }
        return t;
    }

    /** Sums (or means) of float32 runs of unit stride, a kept row of them per kernel call, split across threads when large. */
    private static void lastDimSums(boolean mean, Tensor x, Plan plan, Tensor r, Iter it) {
        int rs = it.rowStride(0);
        int xs = it.rowStride(1);
        float[] a = x.storage.f();
        float[] o = r.storage.f();
        int n = plan.count;
        it.forEachRowParallel(new int[] {0, x.offset}, n, (off, len) -> Kernels.REDUCTIONS.rowSums(a, off[1], xs, len, n, mean, o, off[0], rs));
    }

    /**
     * The largest (or smallest) of one long run, its pieces on the threads: Java's max and min are associative and
     * commutative (NaN wins, +0 above -0), so the pieces' extremes combine to the one-thread result whatever the split.
     */
    private static double splitExtreme(boolean min, float[] a, int off, int n) {
        int parts = Math.max(1, Math.min(Parallel.threads(), n / (Tuning.parallelMin() / 2)));
        double[] part = new double[parts];
        Parallel.forRange(parts, 1, (lo, hi) -> {
            for (int p = lo; p < hi; p++) {
                int from = (int) ((long) n * p / parts);
                int to = (int) ((long) n * (p + 1) / parts);
                part[p] = Kernels.REDUCTIONS.extreme(a, off + from, to - from, min);
            }
        });
        double m = part[0];
        for (int p = 1; p < parts; p++) {
            m = min ? Math.min(m, part[p]) : Math.max(m, part[p]);
        }
        return m;
    }

    /** The float32 run reduction with the kept elements split across threads. */
    private static void parallelRuns(Op op, Tensor x, Plan plan, Tensor r, Iter it) {
        int rs = it.rowStride(0);
        int xs = it.rowStride(1);
        float[] a = x.storage.f();
        Storage dst = r.storage;
        it.forEachRowParallel(new int[] {0, x.offset}, plan.count, (off, len) -> {
            for (int i = 0; i < len; i++) {
                dst.setDouble(off[0] + i * rs, reduceFloatRun(op, a, off[1] + i * xs, plan.runStride, plan.count));
            }
        });
    }

    private static void checkNonEmpty(String name, Tensor x, int[] dims, boolean[] red) {
        if (x.numel() != 0) {
            return;
        }
        if (dims == null || dims.length == 0) {
            throw new ShapeException(name + "(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.");
        }
        for (int i = 0; i < red.length; i++) {
            if (red[i] && x.shape[i] == 0) {
                throw new ShapeException(name + "(): Expected reduction dim " + i + " to have non-zero size.");
            }
        }
    }

    private static long reduceLong(Op op, Storage s, int base, Plan plan) {
        long acc = op == Op.PROD ? 1 : 0;
        for (int i = 0; i < plan.count; i++) {
            long v = s.getLong(base + (plan.offsets == null ? i * plan.runStride : plan.offsets[i]));
            acc = op == Op.PROD ? acc * v : acc + v;
        }
        return acc;
    }

    /** Whether any (or, for {@code any} false, every) of the n flags at {@code b[off + i * stride]} is set. */
    static boolean boolRun(boolean any, boolean[] b, int off, int stride, int n) {
        for (int i = 0; i < n; i++) {
            if (b[off + i * stride] == any) {
                return any;
            }
        }
        return !any;
    }

    /** A reduction over {@code n} floats at {@code a[off + i * stride]}. */
    static double reduceFloatRun(Op op, float[] a, int off, int stride, int n) {
        switch (op) {
            case SUM:
                return Kernels.REDUCTIONS.sum(a, off, stride, n);
            case MEAN:
                return Kernels.REDUCTIONS.sum(a, off, stride, n) / n;
            case PROD:
                return stride == 1 ? Kernels.REDUCTIONS.product(a, off, n) : ReductionKernels.productChains(a, off, stride, n);
            case AMAX: {
                if (stride == 1) {
                    return Kernels.REDUCTIONS.extreme(a, off, n, false);
                }
                double m = Double.NEGATIVE_INFINITY;
                for (int i = 0; i < n; i++) {
                    float v = a[off + i * stride];
                    if (v != v) {
                        return Double.NaN;
                    }
                    m = Math.max(m, v);
                }
                return m;
            }
            case AMIN: {
                if (stride == 1) {
                    return Kernels.REDUCTIONS.extreme(a, off, n, true);
                }
                double m = Double.POSITIVE_INFINITY;
                for (int i = 0; i < n; i++) {
                    float v = a[off + i * stride];
                    if (v != v) {
                        return Double.NaN;
                    }
                    m = Math.min(m, v);
                }
                return m;
            }
            default: {
                if (stride == 1) {
                    // The vector kernels of softmax: its row maximum, then the sum of e^(x - max) in float lanes.
                    float m = Kernels.SOFTMAX.max(a, off, n);
                    if (!Float.isFinite(m)) {
                        return m;
                    }
                    return Math.log(Kernels.SOFTMAX.expShifted(a, off, EXP_RUN.get(n), 0, n, m, 1.0)) + m;
                }
                double m = Double.NEGATIVE_INFINITY;
                for (int i = 0; i < n; i++) {
                    m = Math.max(m, a[off + i * stride]);
                }
                double shift = Double.isInfinite(m) ? 0 : m;
                double s = 0;
                for (int i = 0; i < n; i++) {
                    s += Math.exp(a[off + i * stride] - shift);
                }
                return Math.log(s) + shift;
            }
        }
    }

    /** Each thread's scratch row for logsumexp's exponentials, of which only the sum is kept. */
    private static final ThreadBuffer EXP_RUN = new ThreadBuffer();

    static double reduceDoubles(Op op, double[] v, int n) {
        switch (op) {
            case SUM:
                return sumDoubles(v, n);
            case MEAN:
                return sumDoubles(v, n) / n;
            case PROD: {
                double p = 1;
                for (int i = 0; i < n; i++) {
                    p *= v[i];
                }
                return p;
            }
            case AMAX: {
                double m = Double.NEGATIVE_INFINITY;
                for (int i = 0; i < n; i++) {
                    if (Double.isNaN(v[i])) {
                        return Double.NaN;
                    }
                    m = Math.max(m, v[i]);
                }
                return m;
            }
            case AMIN: {
                double m = Double.POSITIVE_INFINITY;
                for (int i = 0; i < n; i++) {
                    if (Double.isNaN(v[i])) {
                        return Double.NaN;
                    }
                    m = Math.min(m, v[i]);
                }
                return m;
            }
            default: {
                double m = Double.NEGATIVE_INFINITY;
                for (int i = 0; i < n; i++) {
                    m = Math.max(m, v[i]);
                }
                double shift = Double.isInfinite(m) ? 0 : m;
                double s = 0;
                for (int i = 0; i < n; i++) {
                    s += Math.exp(v[i] - shift);
                }
                return Math.log(s) + shift;
            }
        }
    }

    /** Pairwise summation: float64 sums stay within a few ulps of PyTorch's cascade sums. */
    static double sumDoubles(double[] v, int n) {
        return pairwise(v, 0, n);
    }

    private static double pairwise(double[] v, int from, int n) {
        if (n <= 16) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                s += v[from + i];
            }
            return s;
        }
        int h = n / 2;
        return pairwise(v, from, h) + pairwise(v, from + h, n - h);
    }

    static Tensor var(Tensor x, int[] dims, double correction, boolean keepdim) {
        if (!x.dtype().isFloating()) {
            throw new DTypeException("var(): input dtype should be floating point, got " + x.dtype());
        }
        boolean[] red = reducedMask(dims, x.shape.length);
        Plan plan = new Plan(x, red);
        Tensor r = Tensor.zeros(x.dtype(), plan.keptShape);
        double[] buf = new double[plan.count];
        double denom = Math.max(0.0, plan.count - correction);
        Iter it = Iter.of(plan.keptShape, r.strides, plan.keptStrides);
        int rs = it.rowStride(0);
        int xs = it.rowStride(1);
        it.forEachRow(new int[] {0, x.offset}, (off, len) -> {
            for (int i = 0; i < len; i++) {
                plan.gather(x.storage, off[1] + i * xs, buf);
                double mean = sumDoubles(buf, plan.count) / plan.count;
                for (int k = 0; k < plan.count; k++) {
                    double dv = buf[k] - mean;
                    buf[k] = dv * dv;
                }
                r.storage.setDouble(off[0] + i * rs, sumDoubles(buf, plan.count) / denom);
            }
        });
        return keepdim ? r.view(reducedShape(x.shape, red, true)) : r;
    }

    static ValuesIndices<Tensor> maxMin(Tensor x, int dim, boolean keepdim, boolean isMax) {
        String name = isMax ? "max" : "min";
        int n = x.shape.length;
        int d = Shape.wrapDim(dim, n);
        if (n == 0) {
            return new ValuesIndices<>(x.clone(), Tensor.zeros(DType.INT64));
        }
        if (x.shape[d] == 0) {
            throw new ShapeException(name + "(): Expected reduction dim " + d + " to have non-zero size.");
        }
        boolean[] red = new boolean[n];
        red[d] = true;
        Plan plan = new Plan(x, red);
        Tensor values = Tensor.zeros(x.dtype(), plan.keptShape);
        Tensor indices = Tensor.zeros(DType.INT64, plan.keptShape);
        Iter it = Iter.of(plan.keptShape, values.strides, plan.keptStrides);
        int rs = it.rowStride(0);
        int xs = it.rowStride(1);
        Storage s = x.storage;
        int step = x.strides[d];
        int len = x.shape[d];
        float[] f = x.dtype() == DType.FLOAT32 ? s.f() : null;
        it.forEachRowParallel(new int[] {0, x.offset}, len, (off, m) -> {
            if (f != null && step == 1) {
                // The vector kernel's extreme (NaN if there is one), then the first element equal to it (or the first
                // NaN): the first of the largest, as the loop below finds it, and that element's own bits (-0 or +0).
                float[] vo = values.storage.f();
                long[] io = indices.storage.l();
                for (int i = 0; i < m; i++) {
                    int base = off[1] + i * xs;
                    float e = Kernels.REDUCTIONS.extreme(f, base, len, !isMax);
                    int k = 0;
                    if (e == e) {
                        while (f[base + k] != e) {
                            k++;
                        }
                    } else {
                        while (f[base + k] == f[base + k]) {
                            k++;
                        }
                    }
                    vo[off[0] + i * rs] = f[base + k];
                    io[off[0] + i * rs] = k;
                }
                return;
            }
            if (f != null) {
                float[] vo = values.storage.f();
                long[] io = indices.storage.l();
                for (int i = 0; i < m; i++) {
                    int base = off[1] + i * xs;
                    float best = f[base];
                    int bestIdx = 0;
                    for (int k = 1; k < len && best == best; k++) {
                        float v = f[base + k * step];
                        if (v != v || (isMax ? v > best : v < best)) {
                            best = v;
                            bestIdx = k;
                        }
                    }
                    vo[off[0] + i * rs] = best;
                    io[off[0] + i * rs] = bestIdx;
                }
                return;
            }
            for (int i = 0; i < m; i++) {
                int base = off[1] + i * xs;
                double best = s.getDouble(base);
                int bestIdx = 0;
                for (int k = 1; k < len && !Double.isNaN(best); k++) {
                    double v = s.getDouble(base + k * step);
                    if (Double.isNaN(v) || (isMax ? v > best : v < best)) {
                        best = v;
                        bestIdx = k;
                    }
                }
                values.storage.setDouble(off[0] + i * rs, best);
                indices.storage.l()[off[0] + i * rs] = bestIdx;
            }
        });
        if (keepdim) {
            int[] ks = reducedShape(x.shape, red, true);
            return new ValuesIndices<>(values.view(ks), indices.view(ks));
        }
        return new ValuesIndices<>(values, indices);
    }

    static Tensor sumTo(Tensor x, int[] target) {
        if (Arrays.equals(x.shape, target)) {
            return x;
        }
        if (!Shape.broadcastsTo(target, x.shape)) {
            throw new ShapeException("sumTo: shape " + Shape.str(x.shape) + " is not a broadcast of " + Shape.str(target) + "\n"
                    + Shape.aligned(new String[] {"tensor", "target"}, new int[][] {x.shape, target}, -1));
        }
        int lead = x.shape.length - target.length;
        int count = 0;
        int[] dims = new int[x.shape.length];
        for (int i = 0; i < x.shape.length; i++) {
            if (i < lead || (target[i - lead] == 1 && x.shape[i] != 1)) {
                dims[count++] = i;
            }
        }
        if (count == 0) {
            return x.reshape(target);
        }
        Tensor s = reduce(Op.SUM, x, Arrays.copyOf(dims, count), true);
        return s.reshape(target);
    }

    static boolean any(Tensor x) {
        Iter it = Iter.of(x.shape, x.strides);
        int xs = it.rowStride(0);
        boolean[] found = {false};
        it.forEachRow(new int[] {x.offset}, (off, n) -> {
            for (int i = 0; i < n && !found[0]; i++) {
                found[0] = x.storage.getDouble(off[0] + i * xs) != 0.0;
            }
        });
        return found[0];
    }

    static boolean all(Tensor x) {
        return !any(x.logicalNot());
    }
}
