package dev.jgrad.tensor;

/**
 * Indexing, gather and scatter, out of place. Positions are always int64 {@link Tensor}s (and masks bool
 * ones): they carry no gradient. Reads follow PyTorch's rules for where indexed dims land; the writes here
 * return a new value and leave this one as it was.
 *
 * @param <T> the implementing type itself
 */
public interface IndexingMethods<T extends ArrayOps<T>> extends ArrayCore<T> {
    /** {@code x[indices]} with basic ({@link Index#at}, {@link Index#slice}, {@link Index#NONE}, {@link Index#ELLIPSIS}) and advanced ({@link Index#of}) entries. */
    T index(Index... indices);

    /** {@code torch.gather}: along {@code dim}, the element at {@code index} for each position of index. */
    T gather(int dim, Tensor index);

    /** {@code torch.take_along_dim}: gather where index and input broadcast in the other dims. */
    T takeAlongDim(Tensor index, int dim);

    /** Out of place {@code scatter}: a copy with {@code src}'s elements written at {@code index} along {@code dim}. */
    T scatter(int dim, Tensor index, T src);

    /** Out of place {@code scatter_add}: a copy with {@code src}'s elements added at {@code index} along {@code dim}. */
    T scatterAdd(int dim, Tensor index, T src);

    /** {@code scatter_reduce} with {@code sum}, {@code prod}, {@code mean}, {@code amax} or {@code amin}. */
    T scatterReduce(int dim, Tensor index, T src, ScatterReduce reduce, boolean includeSelf);

    /** {@code torch.index_select}: the slices at {@code index} (int64, 1-d) along {@code dim}. */
    T indexSelect(int dim, Tensor index);

    /** Out of place {@code index_add}: rows of {@code source} added at {@code index} along {@code dim}. */
    T indexAdd(int dim, Tensor index, T source);

    /** Out of place {@code x.index_put((indices...), values, accumulate)}. */
    T indexPut(Index[] indices, T values, boolean accumulate);

    /**
     * {@code torch.masked_select}: the elements where the bool {@code mask} is true, as a 1-d result, the mask and this
     * broadcast against each other first (a {@code (T,)} mask picks the same columns of every row).
     */
    default T maskedSelect(Tensor mask) {
        int[] shape = Shape.broadcast(shape(), mask.shape());
        return self().expand(shape).index(Index.of(mask.expand(shape)));
    }

    /** {@code scatter} of one value at every index position. */
    default T scatter(int dim, Tensor index, double value) {
        return scatter(dim, index, newScalar(value).expand(index.shape()));
    }

    /** The int64 {@code (n, ndim)} coordinates of the nonzero elements, row-major. */
    default T nonzero() {
        return constant(Indexing.nonzero(data()));
    }

    /**
     * {@code F.one_hot(x, numClasses)}: an int64 value one dim larger, 1 at each element's class and 0 elsewhere (no
     * gradient). Takes int64 classes from 0 to {@code numClasses - 1}; {@code numClasses} -1 takes the largest class + 1.
     */
    default T oneHot(int numClasses) {
        Tensor classes = data();
        if (classes.dtype() != DType.INT64) {
            throw new DTypeException("oneHot: takes int64 classes, got " + classes.dtype());
        }
        long min = classes.numel() == 0 ? 0 : classes.amin().getLong();
        long max = classes.numel() == 0 ? -1 : classes.amax().getLong();
        if (min < 0) {
            throw new TensorIndexException("oneHot: class " + min + " is negative; classes must be 0 or more");
        }
        if (numClasses == -1) {
            if (classes.numel() == 0) {
                throw new IllegalArgumentException("oneHot: cannot infer the number of classes from an empty tensor; give numClasses");
            }
            numClasses = (int) Math.min(Integer.MAX_VALUE, max + 1);
        } else if (numClasses < 0) {
            throw new IllegalArgumentException("oneHot: numClasses must be -1 (inferred) or 0 or more, got " + numClasses);
        } else if (max >= numClasses) {
            throw new TensorIndexException("oneHot: class " + max + " is out of range for " + numClasses + " classes (0 to "
                    + (numClasses - 1) + ")");
        }
        int[] shape = classes.shape();
        int[] out = java.util.Arrays.copyOf(shape, shape.length + 1);
        out[shape.length] = numClasses;
        return constant(Tensor.zeros(DType.INT64, out).scatter(-1, classes.unsqueeze(-1), 1.0));
    }
}
