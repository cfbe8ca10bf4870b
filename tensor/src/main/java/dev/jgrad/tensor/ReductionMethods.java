package dev.jgrad.tensor;

/**
 * Reductions, softmax and log-softmax. Primitives take a list of dims ({@code null} or empty: all of them)
 * and {@code keepdim}; the overloads for one dim and for all dims are written once here.
 *
 * @param <T> the implementing type itself
 */
public interface ReductionMethods<T extends ArrayOps<T>> extends ArrayCore<T> {
    /** The sum over {@code dims} (all of them when null or empty), accumulated in double for floats. */
    T sum(int[] dims, boolean keepdim);

    /** The mean over {@code dims} (all of them when null or empty). */
    T mean(int[] dims, boolean keepdim);

    /** The product over {@code dims} (all of them when null or empty). */
    T prod(int[] dims, boolean keepdim);

    /** The largest values over {@code dims}; the gradient is split evenly among ties, as in PyTorch. */
    T amax(int[] dims, boolean keepdim);

    /** The smallest element over {@code dims} (all of them when null or empty). */
    T amin(int[] dims, boolean keepdim);

    /** logsumexp over a list of dims, or over all of them where {@code dims} is null. */
    T logsumexp(int[] dims, boolean keepdim);

    /** Variance over {@code dims} (all where null) dividing by {@code N - correction}. */
    T var(int[] dims, double correction, boolean keepdim);

    /**
     * {@code torch.cumsum(x, dim)}: the running sums along {@code dim}, same shape (bool and int64 give int64). The
     * gradient of each input element is the sum of the output gradients at and after its position.
     */
    T cumsum(int dim);

    /** {@code torch.max(x, dim)}: the largest values along a dim and where they are (first on ties). */
    ValuesIndices<T> max(int dim, boolean keepdim);

    /**
     * {@code torch.sort(x, dim, descending)}: the values along {@code dim} in order and the int64 positions they came
     * from. Stable, as PyTorch's CPU sort: equal values keep their order either way; NaN sorts above every number. The
     * gradient goes back to each value's position.
     */
    ValuesIndices<T> sort(int dim, boolean descending);

    /** The smallest elements along {@code dim} and their positions. */
    ValuesIndices<T> min(int dim, boolean keepdim);

    /** Softmax along {@code dim}; finite for logits of any size, 0 at -inf entries. */
    T softmax(int dim);

    /** {@code log(softmax(x))} along {@code dim}, computed without the overflow of that composite. */
    T logSoftmax(int dim);

    /**
     * Sums this down to {@code target}, a shape it was broadcast from: leading dims are summed away and
     * dims where {@code target} has 1 are summed with keepdim, as {@code sum_to_size}.
     */
    T sumTo(int... target);

    /** The sum of all elements, as a 0-d value. */
    default T sum() {
        return sum(null, false);
    }

    /** The sum along {@code dim}, the dim removed. */
    default T sum(int dim) {
        return sum(new int[] {dim}, false);
    }

    /** The sum along {@code dim}. */
    default T sum(int dim, boolean keepdim) {
        return sum(new int[] {dim}, keepdim);
    }

    /** The mean of every element, a 0-d tensor. */
    default T mean() {
        return mean(null, false);
    }

    /** The mean along {@code dim}, the dim removed. */
    default T mean(int dim) {
        return mean(new int[] {dim}, false);
    }

    /** The mean along {@code dim}. */
    default T mean(int dim, boolean keepdim) {
        return mean(new int[] {dim}, keepdim);
    }

    /** The product of every element, a 0-d tensor. */
    default T prod() {
        return prod(null, false);
    }

    /** The product along {@code dim}. */
    default T prod(int dim, boolean keepdim) {
        return prod(new int[] {dim}, keepdim);
    }

    /** The largest element, a 0-d tensor. */
    default T amax() {
        return amax(null, false);
    }

    /** The largest element along {@code dim}. */
    default T amax(int dim, boolean keepdim) {
        return amax(new int[] {dim}, keepdim);
    }

    /** The smallest element, a 0-d tensor. */
    default T amin() {
        return amin(null, false);
    }

    /** The smallest element along {@code dim}. */
    default T amin(int dim, boolean keepdim) {
        return amin(new int[] {dim}, keepdim);
    }

    /** {@code log(sum(e^x))} along {@code dim}, shifted by the maximum so it does not overflow. */
    default T logsumexp(int dim, boolean keepdim) {
        return logsumexp(new int[] {dim}, keepdim);
    }

    /** The sample variance over all elements (correction 1). */
    default T var() {
        return var(null, 1, false);
    }

    /** The unbiased variance along {@code dim} (correction 1). */
    default T var(int dim, boolean keepdim) {
        return var(new int[] {dim}, 1, keepdim);
    }

    /**
     * {@code torch.std(x, dims, correction=correction, keepdim=keepdim)}: the square root of {@link #var(int[], double,
     * boolean)}. Where the variance is 0 the gradient is 0, as PyTorch's, not the NaN of sqrt's infinite slope.
     */
    default T std(int[] dims, double correction, boolean keepdim) {
        T variance = var(dims, correction, keepdim);
        // NaN and infinite variances are not 0 and go through sqrt as they are.
        return guarded(variance, variance.ne(0.0), T::sqrt, 0.0);
    }

    /**
     * {@code f(x)} where {@code mask} holds and {@code fill} elsewhere, with {@code x} replaced by 1 outside the mask before
     * {@code f}: where f's slope is infinite (sqrt or pow at 0), where's zero gradient would otherwise meet it as 0 x
     * infinity = NaN.
     */
    private T guarded(T x, T mask, java.util.function.UnaryOperator<T> f, double fill) {
        return f.apply(x.where(mask, 1.0)).where(mask, fill);
    }

    /** The sample standard deviation over all elements (correction 1). */
    default T std() {
        return std(null, 1, false);
    }

    /** The sample standard deviation along {@code dim} (correction 1). */
    default T std(int dim, boolean keepdim) {
        return std(new int[] {dim}, 1, keepdim);
    }

    /**
     * {@code torch.linalg.vector_norm(x, p, dims, keepdim)}: {@code (sum |x|^p)^(1/p)} over {@code dims} (all of them when
     * null or empty); {@code p} infinite is the largest {@code |x|} (negative infinity the smallest), 0 the count of
     * nonzero elements. Floating types only. Where the norm is 0 its gradient is 0, as PyTorch's, and so is the gradient
     * at a zero element, not the NaN of {@code |x|^p}'s slope there; ties of an infinite norm share the gradient.
     */
    default T norm(double p, int[] dims, boolean keepdim) {
        if (!dtype().isFloating()) {
            throw new DTypeException("norm: expected a floating-point tensor, got " + dtype());
        }
        if (Double.isNaN(p)) {
            throw new IllegalArgumentException("norm: the order p is NaN");
        }
        T x = self();
        if (p == 2) {
            T sumSq = x.square().sum(dims, keepdim);
            return guarded(sumSq, sumSq.ne(0.0), T::sqrt, 0.0);
        }
        if (p == 0) {
            return constant(data().ne(0.0).to(dtype()).sum(dims, keepdim));
        }
        T a = x.abs();
        if (p == 1) {
            return a.sum(dims, keepdim);
        }
        if (p == Double.POSITIVE_INFINITY) {
            return a.amax(dims, keepdim);
        }
        if (p == Double.NEGATIVE_INFINITY) {
            return a.amin(dims, keepdim);
        }
        // |x|^p with the zeros kept out of pow: 0 for p > 0 and infinity for p < 0, each with a zero gradient.
        T powers = guarded(a, x.ne(0.0), t -> t.pow(p), p > 0 ? 0.0 : Double.POSITIVE_INFINITY);
        T sum = powers.sum(dims, keepdim);
        if (p < 0) {
            return sum.pow(1 / p);
        }
        return guarded(sum, sum.ne(0.0), t -> t.pow(1 / p), 0.0);
    }

    /** The Euclidean norm of every element, a 0-d value ({@code torch.linalg.vector_norm(x)}). */
    default T norm() {
        return norm(2, null, false);
    }

    /** The {@code p}-norm of every element, a 0-d value. */
    default T norm(double p) {
        return norm(p, null, false);
    }

    /** The {@code p}-norm along {@code dim} ({@code x.norm(p, dim, keepdim)}). */
    default T norm(double p, int dim, boolean keepdim) {
        return norm(p, new int[] {dim}, keepdim);
    }

    /** The index of the largest element of the flattened values (int64, no gradient). */
    default T argmax() {
        return constant(Reduce.maxMin(data().reshape(-1), 0, false, true).indices());
    }

    /** The position of the largest element along {@code dim} (int64; the first of ties). */
    default T argmax(int dim, boolean keepdim) {
        return constant(Reduce.maxMin(data(), dim, keepdim, true).indices());
    }

    /** {@code torch.sort(x)}: ascending along the last dim. */
    default ValuesIndices<T> sort() {
        return sort(-1, false);
    }

    /**
     * {@code torch.topk(x, k, dim, largest)}: the {@code k} largest values along {@code dim} (the smallest with
     * {@code largest} false), in order, and their int64 positions: the first k of {@link #sort(int, boolean)}'s order
     * (equal values in the order they came, NaN the largest), found without sorting the rest. The gradient goes back to
     * each value's position.
     */
    ValuesIndices<T> topk(int k, int dim, boolean largest);

    /** {@code torch.topk(x, k)}: the {@code k} largest along the last dim. */
    default ValuesIndices<T> topk(int k) {
        return topk(k, -1, true);
    }

    /** {@code torch.argsort(x, dim, descending)}: the positions {@link #sort(int, boolean)} gives (int64, no gradient). */
    default T argsort(int dim, boolean descending) {
        return constant(Sorting.indices(data(), dim, descending));
    }

    /** The flat position of the smallest element (int64). */
    default T argmin() {
        return constant(Reduce.maxMin(data().reshape(-1), 0, false, false).indices());
    }

    /** The position of the smallest element along {@code dim} (int64; the first of ties). */
    default T argmin(int dim, boolean keepdim) {
        return constant(Reduce.maxMin(data(), dim, keepdim, false).indices());
    }

    /** Whether any element is true (nonzero). */
    default boolean any() {
        return Reduce.any(data());
    }

    /** Whether every element is true (nonzero). */
    default boolean all() {
        return Reduce.all(data());
    }

    /** Along {@code dim}: whether any element is true, as a bool value. */
    default T any(int dim, boolean keepdim) {
        return constant(Reduce.reduce(Reduce.Op.AMAX, data().to(DType.BOOL), new int[] {dim}, keepdim));
    }

    /** Along {@code dim}: whether every element is true, as a bool value. */
    default T all(int dim, boolean keepdim) {
        return constant(Reduce.reduce(Reduce.Op.AMIN, data().to(DType.BOOL), new int[] {dim}, keepdim));
    }
}
