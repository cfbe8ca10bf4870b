package dev.jgrad.tensor;

import java.util.Arrays;
import java.util.List;

/**
 * A strided n-d array: a shared {@link Storage}, an offset into it, a shape and strides.
 *
 * <p>Views ({@link #view}, {@link #transpose}, {@link #expand}, {@link #slice}, ...) share the storage and
 * copy nothing; {@link #expand} gives stride 0 along the stretched dims. Elementwise ops broadcast
 * their operands as NumPy and PyTorch do, reading broadcast inputs through stride-0 views: only the
 * result is allocated. In-place ops end in {@code i} ({@code addi}, {@code muli}) and write through
 * views into the base; their destination never grows.
 *
 * <p>This class holds the data and a fluent surface with PyTorch's names; the work is done by one
 * class per family of operations ({@link Elementwise}, {@link Reduce}, {@link Views}, {@link Indexing},
 * {@link Scatter}, {@link Join}, {@link Linalg}, {@link Inplace}). Tensors know nothing of gradients:
 * see the autograd module for that.
 */
public final class Tensor implements ArrayOps<Tensor> {
    final Storage storage;
    final int offset;
    final int[] shape;
    final int[] strides;

    Tensor(Storage storage, int offset, int[] shape, int[] strides) {
        this.storage = storage;
        this.offset = offset;
        this.shape = shape;
        this.strides = strides;
    }

    // ---------------------------------------------------------------- creation

    /** A new contiguous tensor of zeros (false for bool). */
    public static Tensor zeros(DType dtype, int... shape) {
        int[] s = shape.clone();
        return new Tensor(Storage.allocate(dtype, Shape.numel(s)), 0, s, Shape.contiguousStrides(s));
    }

    /** A new float32 tensor of zeros. */
    public static Tensor zeros(int... shape) {
        return zeros(DType.FLOAT32, shape);
    }

    public static Tensor ones(DType dtype, int... shape) {
        return full(1.0, dtype, shape);
    }

    public static Tensor ones(int... shape) {
        return full(1.0, DType.FLOAT32, shape);
    }

    public static Tensor full(double value, DType dtype, int... shape) {
        Tensor t = zeros(dtype, shape);
        if (value != 0.0) {
            Inplace.fillRaw(t, value);
        }
        return t;
    }

    public static Tensor full(double value, int... shape) {
        return full(value, DType.FLOAT32, shape);
    }

    public static Tensor zerosLike(Tensor t) {
        return zeros(t.dtype(), t.shape);
    }

    public static Tensor onesLike(Tensor t) {
        return full(1.0, t.dtype(), t.shape);
    }

    public static Tensor fullLike(Tensor t, double value) {
        return full(value, t.dtype(), t.shape);
    }

    /** A 0-d float32 tensor. */
    public static Tensor scalar(double value) {
        return scalar(value, DType.FLOAT32);
    }

    /** A 0-d tensor of the given type. */
    public static Tensor scalar(double value, DType dtype) {
        Tensor t = zeros(dtype);
        t.storage.setDouble(0, value);
        return t;
    }

    /** A 1-d float32 tensor holding a copy of {@code data}. */
    public static Tensor of(float... data) {
        return of(data, data.length);
    }

    /** A float32 tensor of the given shape holding a copy of {@code data} (row-major). */
    public static Tensor of(float[] data, int... shape) {
        checkLength(data.length, shape);
        return new Tensor(Storage.wrap(data.clone()), 0, shape.clone(), Shape.contiguousStrides(shape));
    }

    public static Tensor of(double[] data, int... shape) {
        checkLength(data.length, shape);
        return new Tensor(Storage.wrap(data.clone()), 0, shape.clone(), Shape.contiguousStrides(shape));
    }

    public static Tensor of(long[] data, int... shape) {
        checkLength(data.length, shape);
        return new Tensor(Storage.wrap(data.clone()), 0, shape.clone(), Shape.contiguousStrides(shape));
    }

    public static Tensor of(boolean[] data, int... shape) {
        checkLength(data.length, shape);
        return new Tensor(Storage.wrap(data.clone()), 0, shape.clone(), Shape.contiguousStrides(shape));
    }

    /** A 2-d float32 tensor from rows of equal length. */
    public static Tensor of(float[][] rows) {
        int cols = rows.length == 0 ? 0 : rows[0].length;
        float[] data = new float[rows.length * cols];
        for (int i = 0; i < rows.length; i++) {
            if (rows[i].length != cols) {
                throw new ShapeException("Tensor.of: row " + i + " has " + rows[i].length + " values, row 0 has " + cols);
            }
            System.arraycopy(rows[i], 0, data, i * cols, cols);
        }
        return new Tensor(Storage.wrap(data), 0, new int[] {rows.length, cols}, new int[] {cols, 1});
    }

    /** A tensor of type {@code dtype} and the given shape filled from doubles (row-major). */
    public static Tensor fromDoubles(double[] data, DType dtype, int... shape) {
        checkLength(data.length, shape);
        Tensor t = zeros(dtype, shape);
        for (int i = 0; i < data.length; i++) {
            t.storage.setDouble(i, data[i]);
        }
        return t;
    }

    /** {@code torch.arange(end)}: int64 values 0, 1, ..., end-1. */
    public static Tensor arange(int end) {
        long[] v = new long[Math.max(end, 0)];
        for (int i = 0; i < v.length; i++) {
            v[i] = i;
        }
        return of(v, v.length);
    }

    /** {@code torch.arange(start, end, step)} in the given type. */
    public static Tensor arange(double start, double end, double step, DType dtype) {
        if (step == 0) {
            throw new IllegalArgumentException("arange: step must be nonzero");
        }
        int n = (int) Math.max(0, Math.ceil((end - start) / step));
        Tensor t = zeros(dtype, n);
        for (int i = 0; i < n; i++) {
            t.storage.setDouble(i, start + i * step);
        }
        return t;
    }

    /** {@code torch.linspace(start, end, steps)} in float32. */
    public static Tensor linspace(double start, double end, int steps) {
        Tensor t = zeros(DType.FLOAT32, steps);
        for (int i = 0; i < steps; i++) {
            t.storage.setDouble(i, steps == 1 ? start : start + (end - start) * i / (steps - 1));
        }
        return t;
    }

    /** The n x n identity in float32. */
    public static Tensor eye(int n) {
        Tensor t = zeros(n, n);
        for (int i = 0; i < n; i++) {
            t.storage.f[i * n + i] = 1f;
        }
        return t;
    }

    /** Uniform samples in [0, 1). */
    public static Tensor rand(Generator gen, int... shape) {
        return uniform(gen, 0, 1, shape);
    }

    /** Uniform samples in [lo, hi) in float32. */
    public static Tensor uniform(Generator gen, double lo, double hi, int... shape) {
        Tensor t = zeros(shape);
        float[] f = t.storage.f;
        for (int i = 0; i < f.length; i++) {
            f[i] = (float) (lo + (hi - lo) * gen.nextDouble());
        }
        return t;
    }

    /** Standard normal samples in float32. */
    public static Tensor randn(Generator gen, int... shape) {
        Tensor t = zeros(shape);
        float[] f = t.storage.f;
        for (int i = 0; i < f.length; i++) {
            f[i] = (float) gen.nextGaussian();
        }
        return t;
    }

    /** int64 samples uniform in [lo, hi). */
    public static Tensor randint(Generator gen, long lo, long hi, int... shape) {
        Tensor t = zeros(DType.INT64, shape);
        long[] v = t.storage.l;
        for (int i = 0; i < v.length; i++) {
            v[i] = lo + gen.nextLong(hi - lo);
        }
        return t;
    }

    private static void checkLength(int length, int[] shape) {
        int n = Shape.numel(shape);
        if (n != length) {
            throw new ShapeException("shape " + Shape.str(shape) + " holds " + n + " elements, but " + length + " values were given");
        }
    }

    // ---------------------------------------------------------------- metadata

    public DType dtype() {
        return storage.dtype;
    }

    @Override
    public int[] shape() {
        return shape.clone();
    }

    /** The size of one dim; negative dims count from the end. */
    public int size(int dim) {
        return shape[Shape.wrapDim(dim, shape.length)];
    }

    @Override
    public int dim() {
        return shape.length;
    }

    public int numel() {
        return Shape.numel(shape);
    }

    public int[] strides() {
        return strides.clone();
    }

    public int stride(int dim) {
        return strides[Shape.wrapDim(dim, shape.length)];
    }

    /** The element offset of this tensor's first element in its storage. */
    public int storageOffset() {
        return offset;
    }

    public Storage storage() {
        return storage;
    }

    /** How many in-place writes the storage of this tensor has seen (shared by its views). */
    public int version() {
        return storage.version();
    }

    /** Whether this tensor and {@code other} share a buffer (one is a view of the other, or both of a third). */
    public boolean sharesStorage(Tensor other) {
        return storage == other.storage;
    }

    /** Row-major with no gaps: what {@link #view} needs and what kernels read fastest. */
    public boolean isContiguous() {
        int expected = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            if (shape[i] != 1 && strides[i] != expected) {
                return false;
            }
            expected *= shape[i];
        }
        return true;
    }

    public boolean isFloatingPoint() {
        return dtype().isFloating();
    }

    // ---------------------------------------------------------------- element access

    /** The value of a one-element tensor. */
    public double item() {
        if (numel() != 1) {
            throw new ShapeException("a Tensor with " + numel() + " elements cannot be converted to Scalar (shape " + Shape.str(shape) + ")");
        }
        return storage.getDouble(offset);
    }

    public double getDouble(int... index) {
        return storage.getDouble(position(index));
    }

    public long getLong(int... index) {
        return storage.getLong(position(index));
    }

    public boolean getBool(int... index) {
        return storage.getDouble(position(index)) != 0.0;
    }

    /** Writes one element in place (through views into the base). */
    public Tensor set(double value, int... index) {
        Inplace.checkWritable(this, "set");
        storage.setDouble(position(index), value);
        storage.bumpVersion();
        return this;
    }

    private int position(int[] index) {
        if (index.length != shape.length) {
            throw new TensorIndexException("expected " + shape.length + " indices for shape " + Shape.str(shape) + ", got " + index.length);
        }
        int p = offset;
        for (int d = 0; d < index.length; d++) {
            int i = index[d] < 0 ? index[d] + shape[d] : index[d];
            if (i < 0 || i >= shape[d]) {
                throw TensorIndexException.outOfBounds(index[d], d, shape[d]);
            }
            p += i * strides[d];
        }
        return p;
    }

    /** The values in row-major order as a new array, converted to float. */
    public float[] toFloatArray() {
        Tensor c = to(DType.FLOAT32).contiguous();
        return Arrays.copyOfRange(c.storage.f, c.offset, c.offset + c.numel());
    }

    public double[] toDoubleArray() {
        Tensor c = to(DType.FLOAT64).contiguous();
        return Arrays.copyOfRange(c.storage.d, c.offset, c.offset + c.numel());
    }

    public long[] toLongArray() {
        Tensor c = to(DType.INT64).contiguous();
        return Arrays.copyOfRange(c.storage.l, c.offset, c.offset + c.numel());
    }

    public boolean[] toBooleanArray() {
        Tensor c = to(DType.BOOL).contiguous();
        return Arrays.copyOfRange(c.storage.b, c.offset, c.offset + c.numel());
    }

    /** This tensor in another element type; itself where the type already matches. */
    public Tensor to(DType dtype) {
        if (dtype == dtype()) {
            return this;
        }
        Tensor out = zeros(dtype, shape);
        Elementwise.copy(this, out);
        return out;
    }

    // ---------------------------------------------------------------- elementwise, binary

    @Override
    public Tensor add(Tensor other) {
        return Elementwise.binary(BinaryOp.ADD, this, other);
    }

    /** {@code this + alpha * other}, as {@code torch.add(input, other, alpha=alpha)}. */
    public Tensor add(Tensor other, double alpha) {
        return alpha == 1.0 ? add(other) : add(other.mul(alpha));
    }

    public Tensor add(double s) {
        return add(scalarLike(s, this));
    }

    @Override
    public Tensor sub(Tensor other) {
        return Elementwise.binary(BinaryOp.SUB, this, other);
    }

    public Tensor sub(double s) {
        return sub(scalarLike(s, this));
    }

    /** {@code s - this}. */
    public Tensor rsub(double s) {
        return scalarLike(s, this).sub(this);
    }

    @Override
    public Tensor mul(Tensor other) {
        return Elementwise.binary(BinaryOp.MUL, this, other);
    }

    public Tensor mul(double s) {
        return mul(scalarLike(s, this));
    }

    @Override
    public Tensor div(Tensor other) {
        return Elementwise.binary(BinaryOp.DIV, this, other);
    }

    public Tensor div(double s) {
        return div(scalarLike(s, this));
    }

    /** {@code s / this}. */
    public Tensor rdiv(double s) {
        return scalarLike(s, this).div(this);
    }

    public Tensor pow(Tensor exponent) {
        return Elementwise.binary(BinaryOp.POW, this, exponent);
    }

    public Tensor pow(double exponent) {
        return pow(scalarLike(exponent, this));
    }

    /** {@code base ** this}. */
    public Tensor rpow(double base) {
        return scalarLike(base, this).pow(this);
    }

    public Tensor maximum(Tensor other) {
        return Elementwise.binary(BinaryOp.MAXIMUM, this, other);
    }

    public Tensor minimum(Tensor other) {
        return Elementwise.binary(BinaryOp.MINIMUM, this, other);
    }

    public Tensor eq(Tensor other) {
        return Elementwise.binary(BinaryOp.EQ, this, other);
    }

    public Tensor eq(double s) {
        return eq(scalarLike(s, this));
    }

    public Tensor ne(Tensor other) {
        return Elementwise.binary(BinaryOp.NE, this, other);
    }

    public Tensor ne(double s) {
        return ne(scalarLike(s, this));
    }

    public Tensor lt(Tensor other) {
        return Elementwise.binary(BinaryOp.LT, this, other);
    }

    public Tensor lt(double s) {
        return lt(scalarLike(s, this));
    }

    public Tensor le(Tensor other) {
        return Elementwise.binary(BinaryOp.LE, this, other);
    }

    public Tensor le(double s) {
        return le(scalarLike(s, this));
    }

    public Tensor gt(Tensor other) {
        return Elementwise.binary(BinaryOp.GT, this, other);
    }

    public Tensor gt(double s) {
        return gt(scalarLike(s, this));
    }

    public Tensor ge(Tensor other) {
        return Elementwise.binary(BinaryOp.GE, this, other);
    }

    public Tensor ge(double s) {
        return ge(scalarLike(s, this));
    }

    public Tensor logicalAnd(Tensor other) {
        return Elementwise.binary(BinaryOp.LOGICAL_AND, this, other);
    }

    public Tensor logicalOr(Tensor other) {
        return Elementwise.binary(BinaryOp.LOGICAL_OR, this, other);
    }

    public Tensor logicalXor(Tensor other) {
        return Elementwise.binary(BinaryOp.LOGICAL_XOR, this, other);
    }

    public Tensor logicalNot() {
        return Elementwise.unary(UnaryOp.LOGICAL_NOT, this);
    }

    /**
     * A 0-d tensor holding {@code value} that combines with {@code like} without changing its type: the
     * type of {@code like} where it is floating (or where the value is integral and {@code like} is an
     * integer tensor), float32 otherwise. This is how PyTorch treats a Python number beside a tensor.
     */
    public static Tensor scalarLike(double value, Tensor like) {
        DType t = like.dtype();
        if (!t.isFloating()) {
            boolean integral = value == Math.rint(value) && !Double.isInfinite(value);
            t = integral && t == DType.INT64 ? DType.INT64 : DType.FLOAT32;
        }
        return scalar(value, t);
    }

    // ---------------------------------------------------------------- elementwise, unary

    @Override
    public Tensor neg() {
        return Elementwise.unary(UnaryOp.NEG, this);
    }

    public Tensor abs() {
        return Elementwise.unary(UnaryOp.ABS, this);
    }

    public Tensor sign() {
        return Elementwise.unary(UnaryOp.SIGN, this);
    }

    @Override
    public Tensor exp() {
        return Elementwise.unary(UnaryOp.EXP, this);
    }

    @Override
    public Tensor log() {
        return Elementwise.unary(UnaryOp.LOG, this);
    }

    public Tensor sqrt() {
        return Elementwise.unary(UnaryOp.SQRT, this);
    }

    public Tensor rsqrt() {
        return Elementwise.unary(UnaryOp.RSQRT, this);
    }

    public Tensor sin() {
        return Elementwise.unary(UnaryOp.SIN, this);
    }

    public Tensor cos() {
        return Elementwise.unary(UnaryOp.COS, this);
    }

    public Tensor tanh() {
        return Elementwise.unary(UnaryOp.TANH, this);
    }

    public Tensor sigmoid() {
        return Elementwise.unary(UnaryOp.SIGMOID, this);
    }

    public Tensor relu() {
        return Elementwise.unary(UnaryOp.RELU, this);
    }

    public Tensor silu() {
        return Elementwise.unary(UnaryOp.SILU, this);
    }

    /** The exact GELU, {@code x * Phi(x)}. */
    public Tensor gelu() {
        return Elementwise.unary(UnaryOp.GELU, this);
    }

    /** GELU, exact or with PyTorch's tanh approximation ({@code approximate="tanh"}). */
    public Tensor gelu(boolean tanhApproximation) {
        return Elementwise.unary(tanhApproximation ? UnaryOp.GELU_TANH : UnaryOp.GELU, this);
    }

    @Override
    public Tensor square() {
        return Elementwise.unary(UnaryOp.SQUARE, this);
    }

    public Tensor reciprocal() {
        return Elementwise.unary(UnaryOp.RECIPROCAL, this);
    }

    public Tensor erf() {
        return Elementwise.unary(UnaryOp.ERF, this);
    }

    public Tensor log1p() {
        return Elementwise.unary(UnaryOp.LOG1P, this);
    }

    public Tensor floor() {
        return Elementwise.unary(UnaryOp.FLOOR, this);
    }

    public Tensor isnan() {
        return Elementwise.unary(UnaryOp.ISNAN, this);
    }

    /** Whether every element is finite (no NaN, no infinity). */
    public boolean allFinite() {
        return Elementwise.allFinite(this);
    }

    /** {@code torch.clamp(x, min, max)}; pass NaN for a bound that is absent. */
    public Tensor clamp(double min, double max) {
        return Elementwise.clamp(this, min, max);
    }

    public Tensor clampMin(double min) {
        return Elementwise.clamp(this, min, Double.NaN);
    }

    public Tensor clampMax(double max) {
        return Elementwise.clamp(this, Double.NaN, max);
    }

    /** {@code torch.where(cond, a, b)}: {@code a} where {@code cond} is true, {@code b} elsewhere; all three broadcast. */
    public static Tensor where(Tensor cond, Tensor a, Tensor b) {
        return Elementwise.where(cond, a, b);
    }

    public static Tensor where(Tensor cond, Tensor a, double b) {
        return Elementwise.where(cond, a, scalarLike(b, a));
    }

    public static Tensor where(Tensor cond, double a, Tensor b) {
        return Elementwise.where(cond, scalarLike(a, b), b);
    }

    public static Tensor where(Tensor cond, double a, double b) {
        return Elementwise.where(cond, scalar(a), scalar(b));
    }

    /** {@code x.masked_fill(mask, value)}: {@code value} where the bool mask (broadcast to this shape) is true. */
    public Tensor maskedFill(Tensor mask, double value) {
        return Elementwise.maskedFill(this, mask, value);
    }

    // ---------------------------------------------------------------- reductions

    /** The sum of all elements, as a 0-d tensor. */
    @Override
    public Tensor sum() {
        return Reduce.reduce(Reduce.Op.SUM, this, null, false);
    }

    public Tensor sum(int dim) {
        return sum(dim, false);
    }

    public Tensor sum(int dim, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.SUM, this, new int[] {dim}, keepdim);
    }

    @Override
    public Tensor sum(int[] dims, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.SUM, this, dims, keepdim);
    }

    public Tensor mean() {
        return Reduce.reduce(Reduce.Op.MEAN, this, null, false);
    }

    public Tensor mean(int dim) {
        return mean(dim, false);
    }

    public Tensor mean(int dim, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.MEAN, this, new int[] {dim}, keepdim);
    }

    public Tensor mean(int[] dims, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.MEAN, this, dims, keepdim);
    }

    public Tensor prod() {
        return Reduce.reduce(Reduce.Op.PROD, this, null, false);
    }

    public Tensor prod(int dim, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.PROD, this, new int[] {dim}, keepdim);
    }

    public Tensor prod(int[] dims, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.PROD, this, dims, keepdim);
    }

    public Tensor amax() {
        return Reduce.reduce(Reduce.Op.AMAX, this, null, false);
    }

    public Tensor amax(int dim, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.AMAX, this, new int[] {dim}, keepdim);
    }

    public Tensor amax(int[] dims, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.AMAX, this, dims, keepdim);
    }

    public Tensor amin() {
        return Reduce.reduce(Reduce.Op.AMIN, this, null, false);
    }

    public Tensor amin(int dim, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.AMIN, this, new int[] {dim}, keepdim);
    }

    public Tensor amin(int[] dims, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.AMIN, this, dims, keepdim);
    }

    public Tensor logsumexp(int dim, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.LOGSUMEXP, this, new int[] {dim}, keepdim);
    }

    /** logsumexp over a list of dims, or over all of them where {@code dims} is null. */
    public Tensor logsumexp(int[] dims, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.LOGSUMEXP, this, dims, keepdim);
    }

    /** The sample variance over all elements (correction 1). */
    public Tensor var() {
        return Reduce.var(this, null, 1, false);
    }

    public Tensor var(int dim, boolean keepdim) {
        return Reduce.var(this, new int[] {dim}, 1, keepdim);
    }

    /** Variance over {@code dims} (all where null) dividing by {@code N - correction}. */
    public Tensor var(int[] dims, double correction, boolean keepdim) {
        return Reduce.var(this, dims, correction, keepdim);
    }

    /** {@code torch.max(x, dim)}: the largest values along a dim and where they are (first on ties). */
    public ValuesIndices max(int dim, boolean keepdim) {
        return Reduce.maxMin(this, dim, keepdim, true);
    }

    public ValuesIndices min(int dim, boolean keepdim) {
        return Reduce.maxMin(this, dim, keepdim, false);
    }

    /** The index of the largest element of the flattened tensor. */
    public Tensor argmax() {
        return Reduce.maxMin(reshape(-1), 0, false, true).indices();
    }

    public Tensor argmax(int dim, boolean keepdim) {
        return Reduce.maxMin(this, dim, keepdim, true).indices();
    }

    public Tensor argmin(int dim, boolean keepdim) {
        return Reduce.maxMin(this, dim, keepdim, false).indices();
    }

    /** Softmax along {@code dim}; finite for logits of any size, 0 at -inf entries. */
    public Tensor softmax(int dim) {
        return Reduce.softmax(this, dim, false);
    }

    public Tensor logSoftmax(int dim) {
        return Reduce.softmax(this, dim, true);
    }

    /** Whether any element is true (nonzero). */
    public boolean any() {
        return Reduce.any(this);
    }

    /** Whether every element is true (nonzero). */
    public boolean all() {
        return Reduce.all(this);
    }

    /** Along {@code dim}: whether any element is true, as a bool tensor. */
    public Tensor any(int dim, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.AMAX, to(DType.BOOL), new int[] {dim}, keepdim);
    }

    /** Along {@code dim}: whether every element is true, as a bool tensor. */
    public Tensor all(int dim, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.AMIN, to(DType.BOOL), new int[] {dim}, keepdim);
    }

    /**
     * Sums this tensor down to {@code target}, a shape it was broadcast from: leading dims are summed
     * away and dims where {@code target} has 1 are summed with keepdim. This is how a gradient returns
     * to the shape of an input that was broadcast.
     */
    @Override
    public Tensor sumTo(int... target) {
        return Reduce.sumTo(this, target);
    }

    // ---------------------------------------------------------------- views

    /** Same data, new shape (one size may be -1); needs a layout the new shape can stride over, else use {@link #reshape}. */
    @Override
    public Tensor view(int... newShape) {
        return Views.view(this, newShape);
    }

    /** A view where the layout allows it, else a contiguous copy. */
    @Override
    public Tensor reshape(int... newShape) {
        return Views.reshape(this, newShape);
    }

    @Override
    public Tensor transpose(int dim0, int dim1) {
        return Views.transpose(this, dim0, dim1);
    }

    /** The transpose of a 2-d tensor (a 0-d or 1-d tensor is returned as it is). */
    public Tensor t() {
        return shape.length < 2 ? this : transpose(0, 1);
    }

    /** {@code x.mT}: the last two dims swapped. */
    public Tensor mT() {
        return transpose(-2, -1);
    }

    @Override
    public Tensor permute(int... dims) {
        return Views.permute(this, dims);
    }

    /** A stride-0 view with larger sizes where this has 1 (or new leading dims); -1 keeps a size. */
    @Override
    public Tensor expand(int... sizes) {
        return Views.expand(this, sizes);
    }

    public Tensor broadcastTo(int... sizes) {
        return Views.expand(this, sizes);
    }

    public Tensor expandAs(Tensor other) {
        return Views.expand(this, other.shape);
    }

    @Override
    public Tensor unsqueeze(int dim) {
        return Views.unsqueeze(this, dim);
    }

    /** Removes every dim of size 1. */
    public Tensor squeeze() {
        return Views.squeezeAll(this);
    }

    /** Removes {@code dim} if its size is 1; a no-op otherwise, as in PyTorch. */
    @Override
    public Tensor squeeze(int dim) {
        return Views.squeeze(this, dim);
    }

    public Tensor flatten() {
        return Views.flatten(this, 0, -1);
    }

    public Tensor flatten(int startDim, int endDim) {
        return Views.flatten(this, startDim, endDim);
    }

    public Tensor unflatten(int dim, int... sizes) {
        return Views.unflatten(this, dim, sizes);
    }

    public Tensor movedim(int source, int destination) {
        return Views.movedim(this, source, destination);
    }

    /** {@code x[..., start:end:step, ...]} on one dim; start and end clamp to the size as in Python. */
    public Tensor slice(int dim, int start, int end, int step) {
        return Views.slice(this, dim, start, end, step);
    }

    public Tensor slice(int dim, int start, int end) {
        return Views.slice(this, dim, start, end, 1);
    }

    /** {@code torch.narrow}: {@code length} elements from {@code start} along {@code dim}. */
    public Tensor narrow(int dim, int start, int length) {
        return Views.narrow(this, dim, start, length);
    }

    /** Index {@code index} along {@code dim}, removing that dim. */
    @Override
    public Tensor select(int dim, int index) {
        return Views.select(this, dim, index);
    }

    /** A view of the diagonal of dims {@code dim1} and {@code dim2}, appended as the last dim. */
    @Override
    public Tensor diagonal(int offset, int dim1, int dim2) {
        return Views.diagonal(this, offset, dim1, dim2);
    }

    /** Pieces of {@code splitSize} along {@code dim}; the last may be smaller. */
    public List<Tensor> split(int splitSize, int dim) {
        return Views.split(this, splitSize, dim);
    }

    public List<Tensor> split(int[] sizes, int dim) {
        return Views.splitSizes(this, sizes, dim);
    }

    /** {@code chunks} pieces of equal size (the last smaller); may return fewer pieces, as PyTorch does. */
    public List<Tensor> chunk(int chunks, int dim) {
        return Views.chunk(this, chunks, dim);
    }

    /** Exactly {@code sections} pieces whose sizes differ by at most one. */
    public List<Tensor> tensorSplit(int sections, int dim) {
        return Views.tensorSplit(this, sections, dim);
    }

    /** The slices along {@code dim}, each without that dim. */
    public List<Tensor> unbind(int dim) {
        return Views.unbind(this, dim);
    }

    /** This tensor where it is already contiguous, else a contiguous copy. */
    @Override
    public Tensor contiguous() {
        return isContiguous() ? this : clone();
    }

    /** A contiguous copy with its own storage. */
    @Override
    public Tensor clone() {
        Tensor out = zeros(dtype(), shape);
        Elementwise.copy(this, out);
        return out;
    }

    /** A copy reversed along {@code dims}. */
    public Tensor flip(int... dims) {
        return Views.flip(this, dims);
    }

    // ---------------------------------------------------------------- indexing

    /** {@code x[indices]} with basic ({@link Index#at}, {@link Index#slice}, {@link Index#NONE}, {@link Index#ELLIPSIS}) and advanced ({@link Index#of}) entries. */
    public Tensor index(Index... indices) {
        return Indexing.index(this, indices);
    }

    /** {@code x[mask]} for a bool mask of this shape (or of its leading dims). */
    public Tensor maskedSelect(Tensor mask) {
        return Indexing.index(this, Index.of(mask));
    }

    /** Out of place {@code x.index_put((indices...), values, accumulate)}. */
    public Tensor indexPut(Index[] indices, Tensor values, boolean accumulate) {
        Tensor out = clone();
        Indexing.indexPutInPlace(out, indices, values, accumulate);
        return out;
    }

    public Tensor gather(int dim, Tensor index) {
        return Scatter.gather(this, dim, index);
    }

    /** {@code torch.take_along_dim}: gather where index and input broadcast in the other dims. */
    public Tensor takeAlongDim(Tensor index, int dim) {
        return Scatter.takeAlongDim(this, index, dim);
    }

    public Tensor scatter(int dim, Tensor index, Tensor src) {
        return Scatter.scatter(this, dim, index, src, null, true);
    }

    public Tensor scatter(int dim, Tensor index, double value) {
        return Scatter.scatter(this, dim, index, scalarLike(value, this).expand(index.shape), null, true);
    }

    public Tensor scatterAdd(int dim, Tensor index, Tensor src) {
        return Scatter.scatter(this, dim, index, src, ScatterReduce.SUM, true);
    }

    /** {@code scatter_reduce} with {@code sum}, {@code prod}, {@code mean}, {@code amax} or {@code amin}. */
    public Tensor scatterReduce(int dim, Tensor index, Tensor src, ScatterReduce reduce, boolean includeSelf) {
        return Scatter.scatter(this, dim, index, src, reduce, includeSelf);
    }

    public Tensor indexSelect(int dim, Tensor index) {
        return Scatter.indexSelect(this, dim, index);
    }

    /** Out of place {@code index_add}: rows of {@code source} added at {@code index} along {@code dim}. */
    public Tensor indexAdd(int dim, Tensor index, Tensor source) {
        Tensor out = clone();
        Scatter.indexAddInPlace(out, dim, index, source, 1.0);
        return out;
    }

    /** The int64 {@code (n, ndim)} coordinates of the nonzero elements, row-major. */
    public Tensor nonzero() {
        return Indexing.nonzero(this);
    }

    // ---------------------------------------------------------------- joining

    public static Tensor cat(List<Tensor> tensors, int dim) {
        return Join.cat(tensors, dim);
    }

    public static Tensor cat(int dim, Tensor... tensors) {
        return Join.cat(Arrays.asList(tensors), dim);
    }

    public static Tensor stack(List<Tensor> tensors, int dim) {
        return Join.stack(tensors, dim);
    }

    public static Tensor stack(int dim, Tensor... tensors) {
        return Join.stack(Arrays.asList(tensors), dim);
    }

    /** {@code torch.broadcast_shapes}. */
    public static int[] broadcastShapes(int[]... shapes) {
        return Shape.broadcastShapes(shapes);
    }

    // ---------------------------------------------------------------- linear algebra

    /** {@code torch.matmul}: dot, matrix-vector, matrix-matrix and batched products with broadcast batch dims. */
    @Override
    public Tensor matmul(Tensor other) {
        return Linalg.matmul(this, other);
    }

    /** {@code F.linear(x, w, b)}: {@code x @ w.T + b}; {@code b} may be null. */
    public static Tensor linear(Tensor x, Tensor w, Tensor b) {
        return Linalg.linear(x, w, b);
    }

    /** {@code torch.einsum}, {@code ...} included; the equation reads as the shape comment. */
    public static Tensor einsum(String equation, Tensor... operands) {
        return Einsum.einsum(equation, Arrays.asList(operands));
    }

    // ---------------------------------------------------------------- in place

    /** {@code this += other} in place; {@code other} may broadcast, this tensor's shape never changes. */
    public Tensor addi(Tensor other) {
        return Inplace.binary(BinaryOp.ADD, this, other, "add_");
    }

    /** {@code this += alpha * other} in place. */
    public Tensor addi(Tensor other, double alpha) {
        return Inplace.addScaled(this, other, alpha);
    }

    public Tensor addi(double s) {
        return Inplace.binary(BinaryOp.ADD, this, scalarLike(s, this), "add_");
    }

    public Tensor subi(Tensor other) {
        return Inplace.binary(BinaryOp.SUB, this, other, "sub_");
    }

    public Tensor subi(double s) {
        return Inplace.binary(BinaryOp.SUB, this, scalarLike(s, this), "sub_");
    }

    public Tensor muli(Tensor other) {
        return Inplace.binary(BinaryOp.MUL, this, other, "mul_");
    }

    public Tensor muli(double s) {
        return Inplace.binary(BinaryOp.MUL, this, scalarLike(s, this), "mul_");
    }

    public Tensor divi(Tensor other) {
        return Inplace.binary(BinaryOp.DIV, this, other, "div_");
    }

    public Tensor divi(double s) {
        return Inplace.binary(BinaryOp.DIV, this, scalarLike(s, this), "div_");
    }

    /** {@code this += value * t1 * t2} in place ({@code addcmul_}). */
    public Tensor addcmuli(Tensor t1, Tensor t2, double value) {
        return Inplace.addcmul(this, t1, t2, value);
    }

    /** {@code this += value * t1 / t2} in place ({@code addcdiv_}). */
    public Tensor addcdivi(Tensor t1, Tensor t2, double value) {
        return Inplace.addcdiv(this, t1, t2, value);
    }

    public Tensor maskedFilli(Tensor mask, double value) {
        return Inplace.maskedFill(this, mask, value);
    }

    /** {@code copy_}: the values of {@code src} (broadcast to this shape, converted to this type) written in place. */
    public Tensor copyFrom(Tensor src) {
        return Inplace.copy(this, src);
    }

    public Tensor fill(double value) {
        return Inplace.fill(this, value);
    }

    public Tensor zero() {
        return Inplace.fill(this, 0.0);
    }

    public Tensor indexAddi(int dim, Tensor index, Tensor source) {
        Inplace.checkWritable(this, "index_add_");
        Scatter.indexAddInPlace(this, dim, index, source, 1.0);
        storage.bumpVersion();
        return this;
    }

    public Tensor indexPuti(Index[] indices, Tensor values, boolean accumulate) {
        Inplace.checkWritable(this, "index_put_");
        Indexing.indexPutInPlace(this, indices, values, accumulate);
        storage.bumpVersion();
        return this;
    }

    // ---------------------------------------------------------------- printing

    /** PyTorch-style: {@code tensor([[1.0000, 2.0000]], shape=[1, 2], dtype=float32)}, truncated when large. */
    @Override
    public String toString() {
        return Format.format(this);
    }
}
