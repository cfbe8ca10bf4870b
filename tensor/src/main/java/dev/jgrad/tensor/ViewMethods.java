package dev.jgrad.tensor;

import java.util.ArrayList;
import java.util.List;

/**
 * Views and copies. Views share storage with their base and copy nothing ({@link #expand} has stride 0,
 * {@link #unfold} overlapping windows); {@link #reshape} copies only where no view is possible, and
 * {@link #flip} and {@link #clone} always copy, as in PyTorch. Everything that is a reshape, a permutation
 * or a set of slices ({@code flatten}, {@code movedim}, {@code split}, {@code chunk}, ...) is written once here.
 *
 * @param <T> the implementing type itself
 */
public interface ViewMethods<T extends ArrayOps<T>> extends ArrayCore<T> {
    /** Same data, new shape (one size may be -1); needs a layout the new shape can stride over, else use {@link #reshape}. */
    T view(int... shape);

    /** A view where the layout allows it, else a contiguous copy. */
    T reshape(int... shape);

    /**
     * {@code x.repeat(repeats)}: a copy tiled {@code repeats[i]} times along dim i, the tensor's dims aligned to the last
     * ones of {@code repeats} (which may name more dims than it has, never fewer). Made of an expand and a reshape, so its
     * gradient sums the tiles.
     */
    default T repeat(int... repeats) {
        int[] shape = shape();
        int n = repeats.length;
        if (n < shape.length) {
            throw new ShapeException("repeat: " + n + " repeat count(s) for a tensor of " + shape.length
                    + " dims; give at least one per dim (number of repeat dims can not be smaller than number of dims)");
        }
        int[] interleaved = new int[2 * n];
        int[] tiled = new int[2 * n];
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            if (repeats[i] < 0) {
                throw new ShapeException("repeat: the repeat count for dim " + i + " is " + repeats[i] + "; counts must be 0 or more");
            }
            int size = i < n - shape.length ? 1 : shape[i - (n - shape.length)];
            interleaved[2 * i] = 1;
            interleaved[2 * i + 1] = size;
            tiled[2 * i] = repeats[i];
            tiled[2 * i + 1] = size;
            long total = (long) repeats[i] * size;
            if (total > Integer.MAX_VALUE) {
                throw new ShapeException("repeat: dim " + i + " would hold " + total + " elements, more than a dim can");
            }
            out[i] = (int) total;
        }
        T tiledView = reshape(interleaved).expand(tiled).reshape(out);
        // Counts of 1 leave a view, and repeat always copies (as PyTorch's).
        return tiledView.data().sharesStorage(data()) ? tiledView.clone() : tiledView;
    }

    /** {@code dim0} and {@code dim1} swapped (a view). */
    T transpose(int dim0, int dim1);

    /** The dims in the order {@code dims} gives (a view). */
    T permute(int... dims);

    /** A stride-0 view with larger sizes where this has 1 (or new leading dims); -1 keeps a size. */
    T expand(int... sizes);

    /** A dim of size 1 inserted at {@code dim} (a view). */
    T unsqueeze(int dim);

    /** Removes {@code dim} if its size is 1; a no-op otherwise, as in PyTorch. */
    T squeeze(int dim);

    /** Removes every dim of size 1. */
    T squeeze();

    /** {@code x[..., start:end:step, ...]} on one dim; start and end clamp to the size as in Python. */
    T slice(int dim, int start, int end, int step);

    /** Index {@code index} along {@code dim}, removing that dim. */
    T select(int dim, int index);

    /** A view of the diagonal of dims {@code dim1} and {@code dim2}, appended as the last dim. */
    T diagonal(int offset, int dim1, int dim2);

    /**
     * {@code x.unfold(dim, size, step)}: every window of {@code size} elements, {@code step} apart, along
     * {@code dim}; {@code dim} becomes the window index and the window's elements a new last dim. A view:
     * overlapping windows share memory. Pooling and convolution are built from it.
     */
    T unfold(int dim, int size, int step);

    /** A copy reversed along {@code dims}. */
    T flip(int... dims);

    /**
     * {@code F.pad(x, pad, value=value)}, constant mode: {@code pad} holds (before, after) pairs from the last
     * dim backwards, {@code [left, right, top, bottom]} for an image; negative amounts crop. A copy.
     */
    T pad(int[] pad, double value);

    /** A contiguous copy with its own storage (connected to the graph, unlike a detach). */
    T clone();

    /** Zero padding: {@code pad(pad, 0)}. */
    default T pad(int... pad) {
        return pad(pad, 0.0);
    }

    /** This value where it is already contiguous, else a contiguous copy. */
    default T contiguous() {
        return data().isContiguous() ? self() : clone();
    }

    /** The transpose of a 2-d value (a 0-d or 1-d one is returned as it is). */
    default T t() {
        return dim() < 2 ? self() : transpose(0, 1);
    }

    /** {@code x.mT}: the last two dims swapped. */
    default T mT() {
        return transpose(-2, -1);
    }

    /** {@code torch.broadcast_to}: an expand to {@code sizes} (a view, stride 0 along the new dims). */
    default T broadcastTo(int... sizes) {
        return expand(sizes);
    }

    /** {@code other}'s shape by an expand (a view). */
    default T expandAs(T other) {
        return expand(other.shape());
    }

    /** Every dim in one (a view where the layout allows, else a copy). */
    default T flatten() {
        return flatten(0, -1);
    }

    /** Dims {@code startDim} to {@code endDim} (inclusive) in one. */
    default T flatten(int startDim, int endDim) {
        return reshape(Views.flattenedShape(shape(), startDim, endDim));
    }

    /** Dim {@code dim} split into {@code sizes} (one may be -1). */
    default T unflatten(int dim, int... sizes) {
        return view(Views.unflattenedShape(shape(), dim, sizes));
    }

    /** Dim {@code source} moved to position {@code destination}, the others in their order (a view). */
    default T movedim(int source, int destination) {
        return permute(Views.movedimPermutation(dim(), source, destination));
    }

    /** Elements {@code [start, end)} along {@code dim}, step 1 (a view). */
    default T slice(int dim, int start, int end) {
        return slice(dim, start, end, 1);
    }

    /** {@code torch.narrow}: {@code length} elements from {@code start} along {@code dim}. */
    default T narrow(int dim, int start, int length) {
        int d = Shape.wrapDim(dim, dim());
        int s = Views.narrowStart(size(d), d, start, length);
        return slice(d, s, s + length, 1);
    }

    /** Pieces of {@code splitSize} along {@code dim}; the last may be smaller. */
    default List<T> split(int splitSize, int dim) {
        int d = Shape.wrapDim(dim, dim());
        return pieces(Views.splitSizes(size(d), splitSize), d);
    }

    /** Pieces of the given sizes, which must add up to the dim's size. */
    default List<T> split(int[] sizes, int dim) {
        int d = Shape.wrapDim(dim, dim());
        return pieces(Views.checkedSplitSizes(size(d), sizes, d), d);
    }

    /** {@code chunks} pieces of equal size (the last smaller); may return fewer pieces, as PyTorch does. */
    default List<T> chunk(int chunks, int dim) {
        int d = Shape.wrapDim(dim, dim());
        return pieces(Views.chunkSizes(size(d), chunks), d);
    }

    /** Exactly {@code sections} pieces whose sizes differ by at most one. */
    default List<T> tensorSplit(int sections, int dim) {
        int d = Shape.wrapDim(dim, dim());
        return pieces(Views.tensorSplitSizes(size(d), sections), d);
    }

    /** The slices along {@code dim}, each without that dim. */
    default List<T> unbind(int dim) {
        int d = Shape.wrapDim(dim, dim());
        int n = size(d);
        List<T> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(select(d, i));
        }
        return out;
    }

    /** Consecutive slices of the given sizes along dim {@code d}. */
    private List<T> pieces(int[] sizes, int d) {
        List<T> out = new ArrayList<>(sizes.length);
        int start = 0;
        for (int len : sizes) {
            out.add(slice(d, start, start + len, 1));
            start += len;
        }
        return out;
    }
}
