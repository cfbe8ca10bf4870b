package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.TensorAccess;

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
 * <p>This class holds the data and implements the primitives of {@link ArrayOps}, whose family
 * interfaces give every overload and composite with PyTorch's names (the same surface autograd's
 * values have). The work is done by one class per family of operations ({@link Elementwise},
 * {@link Reduce}, {@link Views}, {@link Indexing}, {@link Scatter}, {@link Join}, {@link Linalg},
 * {@link Inplace}). Tensors know nothing of gradients: see the autograd module for that.
 */
public final class Tensor implements ArrayOps<Tensor> {
    static {
        TensorAccess.install(new TensorInternals());
    }

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

    /**
     * A new contiguous tensor for a kernel that writes every element: inside a {@link Memory#scope()} its
     * recycled array is not zeroed first (outside one, a new array is zero anyway).
     */
    static Tensor empty(DType dtype, int... shape) {
        int[] s = shape.clone();
        return new Tensor(Storage.allocateUnzeroed(dtype, Shape.numel(s)), 0, s, Shape.contiguousStrides(s));
    }

    /** A new float32 tensor of zeros. */
    public static Tensor zeros(int... shape) {
        return zeros(DType.FLOAT32, shape);
    }

    /** A tensor of ones of {@code dtype}. */
    public static Tensor ones(DType dtype, int... shape) {
        return full(1.0, dtype, shape);
    }

    /** A float32 tensor of ones. */
    public static Tensor ones(int... shape) {
        return full(1.0, DType.FLOAT32, shape);
    }

    /** A tensor of {@code dtype} and {@code shape} filled with {@code value}. */
    public static Tensor full(double value, DType dtype, int... shape) {
        Tensor t = zeros(dtype, shape);
        if (value != 0.0) {
            Inplace.fillRaw(t, value);
        }
        return t;
    }

    /** A float32 tensor of {@code shape} filled with {@code value}. */
    public static Tensor full(double value, int... shape) {
        return full(value, DType.FLOAT32, shape);
    }

    /** Zeros of {@code t}'s shape and type. */
    public static Tensor zerosLike(Tensor t) {
        return zeros(t.dtype(), t.shape);
    }

    /** Ones of {@code t}'s shape and type. */
    public static Tensor onesLike(Tensor t) {
        return full(1.0, t.dtype(), t.shape);
    }

    /** A tensor of {@code t}'s shape and type filled with {@code value}. */
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

    /** A float64 tensor of {@code shape} holding {@code data} (row-major; copied). */
    public static Tensor of(double[] data, int... shape) {
        checkLength(data.length, shape);
        return new Tensor(Storage.wrap(data.clone()), 0, shape.clone(), Shape.contiguousStrides(shape));
    }

    /** An int64 tensor of {@code shape} holding {@code data} (row-major; copied). */
    public static Tensor of(long[] data, int... shape) {
        checkLength(data.length, shape);
        return new Tensor(Storage.wrap(data.clone()), 0, shape.clone(), Shape.contiguousStrides(shape));
    }

    /** A bool tensor of {@code shape} holding {@code data} (row-major; copied). */
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
        double count = Math.ceil((end - start) / step);
        if (!(count <= Integer.MAX_VALUE)) {
            throw new ShapeException("arange(" + start + ", " + end + ", " + step + ") would have " + count
                    + " elements, more than one tensor can hold (" + Integer.MAX_VALUE + ")");
        }
        int n = (int) Math.max(0, count);
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
            t.storage.f()[i * n + i] = 1f;
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
        float[] f = t.storage.f();
        for (int i = 0; i < f.length; i++) {
            f[i] = (float) (lo + (hi - lo) * gen.nextDouble());
        }
        return t;
    }

    /** Standard normal samples in float32. */
    public static Tensor randn(Generator gen, int... shape) {
        Tensor t = zeros(shape);
        float[] f = t.storage.f();
        for (int i = 0; i < f.length; i++) {
            f[i] = (float) gen.nextGaussian();
        }
        return t;
    }

    /** int64 samples uniform in [lo, hi). */
    public static Tensor randint(Generator gen, long lo, long hi, int... shape) {
        if (lo >= hi) {
            throw new IllegalArgumentException("randint: low (" + lo + ") must be less than high (" + hi + "), as in torch.randint(low, high)");
        }
        Tensor t = zeros(DType.INT64, shape);
        long[] v = t.storage.l();
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

    @Override
    public DType dtype() {
        return storage.dtype;
    }

    @Override
    public int[] shape() {
        return shape.clone();
    }

    /** Reads the field rather than copying the shape, as the default would. */
    @Override
    public int size(int dim) {
        return shape[Shape.wrapDim(dim, shape.length)];
    }

    @Override
    public int dim() {
        return shape.length;
    }

    @Override
    public int numel() {
        return Shape.numel(shape);
    }

    /** A tensor is its own data. */
    @Override
    public Tensor data() {
        return this;
    }

    /** A tensor carries no gradient: its constants are the values themselves. */
    @Override
    public Tensor constant(Tensor values) {
        return values;
    }

    /** The stride of each dim, in elements (a copy). */
    public int[] strides() {
        return strides.clone();
    }

    /** The stride of one dim, in elements; negative dims count from the end. */
    public int stride(int dim) {
        return strides[Shape.wrapDim(dim, shape.length)];
    }

    /** The element offset of this tensor's first element in its storage. */
    public int storageOffset() {
        return offset;
    }

    /** The storage this tensor is a view of. */
    public Storage storage() {
        return storage;
    }

    /** How many in-place writes the storage of this tensor has seen (shared by its views). */
    public int version() {
        return storage.version();
    }

    /**
     * ReLU's backward, PyTorch's {@code threshold_backward}: {@code grad} where {@code output > 0}, zero
     * elsewhere (a NaN output passes its gradient), in one fused pass for float32.
     */
    public static Tensor thresholdBackward(Tensor grad, Tensor output) {
        return Elementwise.reluBackward(grad, output);
    }

    /**
     * Leaky ReLU's backward, PyTorch's {@code leaky_relu_backward}: {@code grad} where {@code x > 0}, {@code grad *
     * negativeSlope} elsewhere, in one pass for float32.
     */
    public static Tensor leakyReluBackward(Tensor grad, Tensor x, double negativeSlope) {
        return Elementwise.leakyRelu(x, grad, negativeSlope);
    }

    /** Sigmoid's backward from its output, PyTorch's {@code sigmoid_backward}: {@code grad output (1 - output)}, in one pass for float32. */
    public static Tensor sigmoidBackward(Tensor grad, Tensor output) {
        return ActivationBackward.sigmoid(grad, output);
    }

    /** Tanh's backward from its output, PyTorch's {@code tanh_backward}: {@code grad (1 - output^2)}, in one pass for float32. */
    public static Tensor tanhBackward(Tensor grad, Tensor output) {
        return ActivationBackward.tanh(grad, output);
    }

    /**
     * SiLU's backward from its input, PyTorch's {@code silu_backward}: {@code grad s (1 + x (1 - s))} with s = sigmoid(x),
     * in one pass for float32.
     */
    public static Tensor siluBackward(Tensor grad, Tensor input) {
        return ActivationBackward.silu(grad, input);
    }

    /**
     * Softmax's backward from its output, PyTorch's {@code _softmax_backward_data}: {@code output (grad - sum(grad output))},
     * the sum over {@code dim}; in one pass over blocks of rows where both are contiguous float32 and dim is the last.
     */
    public static Tensor softmaxBackward(Tensor grad, Tensor output, int dim) {
        return SoftmaxBackward.softmaxBackward(grad, output, dim);
    }

    /**
     * Log-softmax's backward from its output, PyTorch's {@code _log_softmax_backward_data}: {@code grad - exp(output)
     * sum(grad)}, the sum over {@code dim}; in one pass over blocks of rows where both are contiguous float32 and dim is
     * the last.
     */
    public static Tensor logSoftmaxBackward(Tensor grad, Tensor output, int dim) {
        return SoftmaxBackward.logSoftmaxBackward(grad, output, dim);
    }

    /**
     * The exact GELU's backward: {@code grad (Phi(x) + x phi(x))}, Phi and phi the standard normal CDF and density, in
     * one fused pass for float32.
     */
    public static Tensor geluBackward(Tensor grad, Tensor x) {
        return Elementwise.geluBackward(grad, x);
    }

    /**
     * Keeps this tensor's memory (shared with its views) when the {@link Memory#scope()} it was made in
     * closes, so it can be used after it; outside a scope it does nothing. Returns this tensor.
     */
    public Tensor keep() {
        storage.keep();
        return this;
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

    // ---------------------------------------------------------------- element access

    /** The value of a one-element tensor. */
    @Override
    public double item() {
        if (numel() != 1) {
            throw new ShapeException("a Tensor with " + numel() + " elements cannot be converted to Scalar (shape " + Shape.str(shape) + ")");
        }
        return storage.getDouble(offset);
    }

    /** The element at {@code index} as a double. */
    public double getDouble(int... index) {
        return storage.getDouble(position(index));
    }

    /** The element at {@code index} as a long. */
    public long getLong(int... index) {
        return storage.getLong(position(index));
    }

    /** The element at {@code index} as a boolean (non-zero is true). */
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
        return Arrays.copyOfRange(c.storage.f(), c.offset, c.offset + c.numel());
    }

    /** The elements as doubles, in row-major order. */
    public double[] toDoubleArray() {
        Tensor c = to(DType.FLOAT64).contiguous();
        return Arrays.copyOfRange(c.storage.d(), c.offset, c.offset + c.numel());
    }

    /** The elements as longs, in row-major order. */
    public long[] toLongArray() {
        Tensor c = to(DType.INT64).contiguous();
        return Arrays.copyOfRange(c.storage.l(), c.offset, c.offset + c.numel());
    }

    /** The elements as booleans, in row-major order. */
    public boolean[] toBooleanArray() {
        Tensor c = to(DType.BOOL).contiguous();
        return Arrays.copyOfRange(c.storage.b(), c.offset, c.offset + c.numel());
    }

    @Override
    public Tensor to(DType dtype) {
        if (dtype == dtype()) {
            return this;
        }
        // Every element is written, so the result needs no zeroing first.
        Tensor out = empty(dtype, shape);
        Elementwise.copy(this, out);
        return out;
    }

    // ---------------------------------------------------------------- elementwise

    @Override
    public Tensor unary(UnaryOp op) {
        return Elementwise.unary(op, this);
    }

    @Override
    public Tensor binary(BinaryOp op, Tensor other) {
        return Elementwise.binary(op, this, other);
    }

    @Override
    public Tensor clamp(double min, double max) {
        return Elementwise.clamp(this, min, max);
    }

    @Override
    public Tensor leakyRelu(double negativeSlope) {
        return Elementwise.leakyRelu(this, this, negativeSlope);
    }

    @Override
    public Tensor where(Tensor cond, Tensor other) {
        return Elementwise.where(cond, this, other);
    }

    /** {@code torch.where(cond, a, b)}: {@code a} where {@code cond} is true, {@code b} elsewhere; all three broadcast. */
    public static Tensor where(Tensor cond, Tensor a, Tensor b) {
        return a.where(cond, b);
    }

    /** {@code a} where {@code cond} is true, else {@code b}, broadcast. */
    public static Tensor where(Tensor cond, Tensor a, double b) {
        return a.where(cond, b);
    }

    /** {@code a} where {@code cond} is true, else {@code b}, broadcast. */
    public static Tensor where(Tensor cond, double a, Tensor b) {
        return b.newScalar(a).where(cond, b);
    }

    /** {@code a} where {@code cond} is true, else {@code b}. */
    public static Tensor where(Tensor cond, double a, double b) {
        return scalar(a).where(cond, scalar(b));
    }

    @Override
    public Tensor maskedFill(Tensor mask, double value) {
        return Elementwise.maskedFill(this, mask, value);
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

    // ---------------------------------------------------------------- reductions

    @Override
    public Tensor sum(int[] dims, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.SUM, this, dims, keepdim);
    }

    @Override
    public Tensor mean(int[] dims, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.MEAN, this, dims, keepdim);
    }

    @Override
    public Tensor prod(int[] dims, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.PROD, this, dims, keepdim);
    }

    @Override
    public Tensor amax(int[] dims, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.AMAX, this, dims, keepdim);
    }

    @Override
    public Tensor amin(int[] dims, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.AMIN, this, dims, keepdim);
    }

    @Override
    public Tensor logsumexp(int[] dims, boolean keepdim) {
        return Reduce.reduce(Reduce.Op.LOGSUMEXP, this, dims, keepdim);
    }

    @Override
    public Tensor var(int[] dims, double correction, boolean keepdim) {
        return Reduce.var(this, dims, correction, keepdim);
    }

    @Override
    public ValuesIndices<Tensor> sort(int dim, boolean descending) {
        return Sorting.sort(this, dim, descending);
    }

    @Override
    public ValuesIndices<Tensor> topk(int k, int dim, boolean largest) {
        return Sorting.topk(this, k, dim, largest);
    }

    @Override
    public Tensor cumsum(int dim) {
        return Cumulative.cumsum(this, dim);
    }

    @Override
    public ValuesIndices<Tensor> max(int dim, boolean keepdim) {
        return Reduce.maxMin(this, dim, keepdim, true);
    }

    @Override
    public ValuesIndices<Tensor> min(int dim, boolean keepdim) {
        return Reduce.maxMin(this, dim, keepdim, false);
    }

    @Override
    public Tensor softmax(int dim) {
        return Softmax.softmax(this, dim, false);
    }

    @Override
    public Tensor logSoftmax(int dim) {
        return Softmax.softmax(this, dim, true);
    }

    @Override
    public Tensor sumTo(int... target) {
        return Reduce.sumTo(this, target);
    }

    // ---------------------------------------------------------------- views

    @Override
    public Tensor view(int... newShape) {
        return Views.view(this, newShape);
    }

    @Override
    public Tensor reshape(int... newShape) {
        return Views.reshape(this, newShape);
    }

    @Override
    public Tensor transpose(int dim0, int dim1) {
        return Views.transpose(this, dim0, dim1);
    }

    @Override
    public Tensor permute(int... dims) {
        return Views.permute(this, dims);
    }

    @Override
    public Tensor expand(int... sizes) {
        return Views.expand(this, sizes);
    }

    @Override
    public Tensor unsqueeze(int dim) {
        return Views.unsqueeze(this, dim);
    }

    @Override
    public Tensor squeeze() {
        return Views.squeezeAll(this);
    }

    @Override
    public Tensor squeeze(int dim) {
        return Views.squeeze(this, dim);
    }

    @Override
    public Tensor slice(int dim, int start, int end, int step) {
        return Views.slice(this, dim, start, end, step);
    }

    @Override
    public Tensor select(int dim, int index) {
        return Views.select(this, dim, index);
    }

    @Override
    public Tensor diagonal(int offset, int dim1, int dim2) {
        return Views.diagonal(this, offset, dim1, dim2);
    }

    @Override
    public Tensor unfold(int dim, int size, int step) {
        return Views.unfold(this, dim, size, step);
    }

    @Override
    public Tensor flip(int... dims) {
        return Views.flip(this, dims);
    }

    @Override
    public Tensor pad(int[] pad, double value) {
        return Padding.constant(this, pad, value);
    }

    /** This tensor row-major from offset 0, as kernels that index its array directly need: itself when it is, else a copy. */
    Tensor dense() {
        return isContiguous() && offset == 0 ? this : clone();
    }

    @Override
    public Tensor clone() {
        Tensor out = empty(dtype(), shape);
        Elementwise.copy(this, out);
        return out;
    }

    // ---------------------------------------------------------------- indexing

    @Override
    public Tensor index(Index... indices) {
        return Indexing.index(this, indices);
    }

    @Override
    public Tensor gather(int dim, Tensor index) {
        return Scatter.gather(this, dim, index);
    }

    @Override
    public Tensor takeAlongDim(Tensor index, int dim) {
        return Scatter.takeAlongDim(this, index, dim);
    }

    @Override
    public Tensor scatter(int dim, Tensor index, Tensor src) {
        return Scatter.scatter(this, dim, index, src, null, true);
    }

    @Override
    public Tensor scatterAdd(int dim, Tensor index, Tensor src) {
        return Scatter.scatter(this, dim, index, src, ScatterReduce.SUM, true);
    }

    @Override
    public Tensor scatterReduce(int dim, Tensor index, Tensor src, ScatterReduce reduce, boolean includeSelf) {
        return Scatter.scatter(this, dim, index, src, reduce, includeSelf);
    }

    @Override
    public Tensor indexSelect(int dim, Tensor index) {
        return Scatter.indexSelect(this, dim, index);
    }

    @Override
    public Tensor indexAdd(int dim, Tensor index, Tensor source) {
        Tensor out = clone();
        Scatter.indexAddInPlace(out, dim, index, source, 1.0);
        return out;
    }

    @Override
    public Tensor indexPut(Index[] indices, Tensor values, boolean accumulate) {
        Tensor out = clone();
        Indexing.indexPutInPlace(out, indices, values, accumulate);
        return out;
    }

    // ---------------------------------------------------------------- joining

    /** {@code torch.cat(tensors, dim)}: the tensors joined along {@code dim}, every other size equal. */
    public static Tensor cat(List<Tensor> tensors, int dim) {
        return Join.cat(tensors, dim);
    }

    /** {@code torch.cat} along {@code dim}. */
    public static Tensor cat(int dim, Tensor... tensors) {
        return Join.cat(Arrays.asList(tensors), dim);
    }

    /** {@code torch.stack(tensors, dim)}: the tensors, all of one shape, along a new dim. */
    public static Tensor stack(List<Tensor> tensors, int dim) {
        return Join.stack(tensors, dim);
    }

    /** {@code torch.stack} along {@code dim}. */
    public static Tensor stack(int dim, Tensor... tensors) {
        return Join.stack(Arrays.asList(tensors), dim);
    }

    /** {@code torch.broadcast_shapes}. */
    public static int[] broadcastShapes(int[]... shapes) {
        return Shape.broadcastShapes(shapes);
    }

    // ---------------------------------------------------------------- linear algebra

    @Override
    public Tensor matmul(Tensor other) {
        return Linalg.matmul(this, other);
    }

    /**
     * {@code torch.matmul(this, other).sum_to_size(n, p)}: the {@code (n, p)} sum over the batch of the
     * products of {@code this (..., n, k)} and {@code other (..., k, p)} (batch dims broadcast), without
     * making the stack of products. The gradient of a matrix that a batched product broadcast.
     */
    public Tensor matmulSummed(Tensor other) {
        return Linalg.summedProduct(this, other);
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

    @Override
    public Tensor inplace(BinaryOp op, Tensor other) {
        return Inplace.binary(op, this, other, op.pyName + "_");
    }

    @Override
    public Tensor addi(Tensor other, double alpha) {
        return Inplace.addScaled(this, other, alpha);
    }

    @Override
    public Tensor maskedFilli(Tensor mask, double value) {
        return Inplace.maskedFill(this, mask, value);
    }

    @Override
    public Tensor copyFrom(Tensor src) {
        return Inplace.copy(this, src);
    }

    @Override
    public Tensor fill(double value) {
        return Inplace.fill(this, value);
    }

    /** {@code this += value * t1 * t2} in place ({@code addcmul_}), an optimizer's update. */
    public Tensor addcmuli(Tensor t1, Tensor t2, double value) {
        return Inplace.addcmul(this, t1, t2, value);
    }

    /** {@code this += value * t1 / t2} in place ({@code addcdiv_}), an optimizer's update. */
    public Tensor addcdivi(Tensor t1, Tensor t2, double value) {
        return Inplace.addcdiv(this, t1, t2, value);
    }

    /** {@code index_add_}: rows of {@code source} added at {@code index} along {@code dim}, in place. */
    public Tensor indexAddi(int dim, Tensor index, Tensor source) {
        Inplace.checkWritable(this, "index_add_");
        Scatter.indexAddInPlace(this, dim, index, source, 1.0);
        storage.bumpVersion();
        return this;
    }

    /** {@code x[indices] = values} (or {@code +=} with {@code accumulate}, repeated positions adding up), in place. */
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
