package dev.jgrad.tensor;

/**
 * One entry of a Python-style index expression, for {@link Tensor#index(Index...)}:
 * <pre>{@code
 * x[0, 1:5:2]        x.index(Index.at(0), Index.slice(1, 5, 2))
 * x[..., None]       x.index(Index.ELLIPSIS, Index.NONE)
 * x[:, -1]           x.index(Index.ALL, Index.at(-1))
 * x[idx, :, idx2]    x.index(Index.of(idx), Index.ALL, Index.of(idx2))   // advanced, int64 tensors
 * x[mask]            x.index(Index.of(mask))                             // advanced, bool tensor
 * }</pre>
 * Ints, slices, None and the ellipsis give views; int64 and bool tensors give copies, following
 * PyTorch's rules for where the indexed dims land.
 */
public final class Index {
    /** What an entry is: a position, a slice, a new dim, the ellipsis, or a tensor of positions or a mask. */
    public enum Kind {
        /** A single position ({@link #position()}); the dim disappears. */
        INT,
        /** {@code start:stop:step}. */
        SLICE,
        /** {@code None}: a new dim of size 1. */
        NONE,
        /** {@code ...}. */
        ELLIPSIS,
        /** An advanced index ({@link #tensor()}). */
        TENSOR
    }

    /** {@code :}, the whole dim. */
    public static final Index ALL = new Index(Kind.SLICE, 0, null, null, 1, null);
    /** {@code None}: a new dim of size 1. */
    public static final Index NONE = new Index(Kind.NONE, 0, null, null, 1, null);
    /** {@code ...}: as many {@code :} as the other entries leave. */
    public static final Index ELLIPSIS = new Index(Kind.ELLIPSIS, 0, null, null, 1, null);

    final Kind kind;
    final int at;
    final Integer start;
    final Integer stop;
    final int step;
    final Tensor tensor;

    private Index(Kind kind, int at, Integer start, Integer stop, int step, Tensor tensor) {
        this.kind = kind;
        this.at = at;
        this.start = start;
        this.stop = stop;
        this.step = step;
        this.tensor = tensor;
    }

    /** A single position; negative counts from the end. The dim disappears. */
    public static Index at(int i) {
        return new Index(Kind.INT, i, null, null, 1, null);
    }

    /** {@code start:stop:step}; null bounds mean the ends, as in Python. */
    public static Index slice(Integer start, Integer stop, int step) {
        return new Index(Kind.SLICE, 0, start, stop, step, null);
    }

    /** {@code start:stop}, step 1. */
    public static Index slice(Integer start, Integer stop) {
        return slice(start, stop, 1);
    }

    /** An advanced index: an int64 tensor of positions or a bool mask. */
    public static Index of(Tensor t) {
        if (t.dtype() != DType.INT64 && t.dtype() != DType.BOOL) {
            throw new TensorIndexException("tensors used as indices must be long, int, byte or bool tensors, got " + t.dtype());
        }
        return new Index(Kind.TENSOR, 0, null, null, 1, t);
    }

    /** An advanced index from positions. */
    public static Index of(long... positions) {
        return of(Tensor.of(positions, positions.length));
    }

    /** What this entry is. */
    public Kind kind() {
        return kind;
    }

    /** The position of an {@link Kind#INT} entry. */
    public int position() {
        return at;
    }

    /** A slice's start, or null for the beginning. */
    public Integer start() {
        return start;
    }

    /** A slice's stop, or null for the end. */
    public Integer stop() {
        return stop;
    }

    /** A slice's step. */
    public int step() {
        return step;
    }

    /** The tensor of a {@link Kind#TENSOR} entry, or null. */
    public Tensor tensor() {
        return tensor;
    }

    @Override
    public String toString() {
        switch (kind) {
            case INT: return String.valueOf(at);
            case NONE: return "None";
            case ELLIPSIS: return "...";
            case TENSOR: return "tensor" + Shape.str(tensor.shape);
            default:
                return (start == null ? "" : start) + ":" + (stop == null ? "" : stop) + (step == 1 ? "" : ":" + step);
        }
    }
}
