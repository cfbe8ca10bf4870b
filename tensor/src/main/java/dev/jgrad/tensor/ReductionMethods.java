package dev.jgrad.tensor;

/**
 * Reductions, softmax and log-softmax. Primitives take a list of dims ({@code null} or empty: all of them)
 * and {@code keepdim}; the overloads for one dim and for all dims are written once here.
 *
 * @param <T> the implementing type itself
 */
public interface ReductionMethods<T extends ArrayOps<T>> extends ArrayCore<T> {
    T sum(int[] dims, boolean keepdim);

    T mean(int[] dims, boolean keepdim);

    T prod(int[] dims, boolean keepdim);

    /** The largest values over {@code dims}; the gradient is split evenly among ties, as in PyTorch. */
    T amax(int[] dims, boolean keepdim);

    T amin(int[] dims, boolean keepdim);

    /** logsumexp over a list of dims, or over all of them where {@code dims} is null. */
    T logsumexp(int[] dims, boolean keepdim);

    /** Variance over {@code dims} (all where null) dividing by {@code N - correction}. */
    T var(int[] dims, double correction, boolean keepdim);

    /** {@code torch.max(x, dim)}: the largest values along a dim and where they are (first on ties). */
    ValuesIndices<T> max(int dim, boolean keepdim);

    ValuesIndices<T> min(int dim, boolean keepdim);

    /** Softmax along {@code dim}; finite for logits of any size, 0 at -inf entries. */
    T softmax(int dim);

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

    default T sum(int dim) {
        return sum(new int[] {dim}, false);
    }

    default T sum(int dim, boolean keepdim) {
        return sum(new int[] {dim}, keepdim);
    }

    default T mean() {
        return mean(null, false);
    }

    default T mean(int dim) {
        return mean(new int[] {dim}, false);
    }

    default T mean(int dim, boolean keepdim) {
        return mean(new int[] {dim}, keepdim);
    }

    default T prod() {
        return prod(null, false);
    }

    default T prod(int dim, boolean keepdim) {
        return prod(new int[] {dim}, keepdim);
    }

    default T amax() {
        return amax(null, false);
    }

    default T amax(int dim, boolean keepdim) {
        return amax(new int[] {dim}, keepdim);
    }

    default T amin() {
        return amin(null, false);
    }

    default T amin(int dim, boolean keepdim) {
        return amin(new int[] {dim}, keepdim);
    }

    default T logsumexp(int dim, boolean keepdim) {
        return logsumexp(new int[] {dim}, keepdim);
    }

    /** The sample variance over all elements (correction 1). */
    default T var() {
        return var(null, 1, false);
    }

    default T var(int dim, boolean keepdim) {
        return var(new int[] {dim}, 1, keepdim);
    }

    /** The index of the largest element of the flattened values (int64, no gradient). */
    default T argmax() {
        return constant(Reduce.maxMin(data().reshape(-1), 0, false, true).indices());
    }

    default T argmax(int dim, boolean keepdim) {
        return constant(Reduce.maxMin(data(), dim, keepdim, true).indices());
    }

    default T argmin() {
        return constant(Reduce.maxMin(data().reshape(-1), 0, false, false).indices());
    }

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
