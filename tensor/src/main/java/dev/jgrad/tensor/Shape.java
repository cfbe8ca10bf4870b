package dev.jgrad.tensor;

import java.util.Arrays;

/**
 * All shape logic in one small pure place: element counts, strides, broadcasting, dimension
 * wrapping and the messages that explain a mismatch. Static, allocation-light and property-tested.
 */
public final class Shape {
    private Shape() {
    }

    /** The number of elements of a shape; the empty shape (a scalar) has one. */
    public static int numel(int[] shape) {
        long n = 1;
        for (int s : shape) {
            if (s < 0) {
                throw new ShapeException("negative dimension " + s + " in shape " + str(shape));
            }
            n *= s;
            if (n > Integer.MAX_VALUE) {
                throw new ShapeException("shape " + str(shape) + " has more than " + Integer.MAX_VALUE
                        + " elements, which one Java array cannot hold");
            }
        }
        return (int) n;
    }

    /** Row-major strides of a contiguous tensor of this shape. */
    public static int[] contiguousStrides(int[] shape) {
        int[] strides = new int[shape.length];
        int s = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            strides[i] = s;
            s *= Math.max(shape[i], 1);
        }
        return strides;
    }

    /** The row-major index of the {@code flat}-th element of a tensor of this shape (numpy's unravel_index). */
    public static int[] unravel(int flat, int[] shape) {
        int[] idx = new int[shape.length];
        for (int d = shape.length - 1; d >= 0; d--) {
            if (shape[d] > 0) {
                idx[d] = flat % shape[d];
                flat /= shape[d];
            }
        }
        return idx;
    }

    /** Wraps a possibly negative dim into {@code [0, ndim)}; a scalar accepts -1 and 0 as PyTorch does. */
    public static int wrapDim(int dim, int ndim) {
        int n = Math.max(ndim, 1);
        if (dim < -n || dim >= n) {
            throw new TensorIndexException("Dimension out of range (expected to be in range of [" + (-n) + ", "
                    + (n - 1) + "], but got " + dim + ")");
        }
        return dim < 0 ? dim + n : dim;
    }

    /** Wraps each dim and refuses repeats. */
    public static int[] wrapDims(int[] dims, int ndim) {
        int[] out = new int[dims.length];
        boolean[] seen = new boolean[Math.max(ndim, 1)];
        for (int i = 0; i < dims.length; i++) {
            out[i] = wrapDim(dims[i], ndim);
            if (seen[out[i]]) {
                throw new ShapeException("dim " + out[i] + " appears multiple times in the list of dims " + Arrays.toString(dims));
            }
            seen[out[i]] = true;
        }
        return out;
    }

    /**
     * The broadcast shape of two operands of a binary op, or a {@link ShapeException} whose first line is
     * PyTorch's and whose next lines show both shapes aligned from the right with the bad dimension marked.
     */
    public static int[] broadcast(int[] a, int[] b) {
        int n = Math.max(a.length, b.length);
        int[] out = new int[n];
        for (int i = n - 1; i >= 0; i--) {
            int sa = sizeAt(a, i, n);
            int sb = sizeAt(b, i, n);
            if (sa != sb && sa != 1 && sb != 1) {
                throw new ShapeException("The size of tensor a (" + sa + ") must match the size of tensor b (" + sb
                        + ") at non-singleton dimension " + i + "\n"
                        + aligned(new String[] {"a", "b"}, new int[][] {a, b}, i)
                        + "\nSizes must be equal, or one of them 1. Use unsqueeze or reshape to line up the dimensions you mean.");
            }
            out[i] = sa == 1 ? sb : sa;
        }
        return out;
    }

    /** {@code torch.broadcast_shapes}: the common shape of any number of shapes. */
    public static int[] broadcastShapes(int[]... shapes) {
        int n = 0;
        for (int[] s : shapes) {
            n = Math.max(n, s.length);
        }
        int[] out = new int[n];
        Arrays.fill(out, 1);
        for (int i = n - 1; i >= 0; i--) {
            for (int[] s : shapes) {
                int size = sizeAt(s, i, n);
                if (size == out[i] || size == 1) {
                    continue;
                }
                if (out[i] == 1) {
                    out[i] = size;
                    continue;
                }
                String[] names = new String[shapes.length];
                for (int k = 0; k < names.length; k++) {
                    names[k] = "shape " + k;
                }
                throw new ShapeException("Shape mismatch: objects cannot be broadcast to a single shape\n"
                        + aligned(names, shapes, i)
                        + "\nAt dimension " + i + " the sizes " + out[i] + " and " + size + " differ and neither is 1.");
            }
        }
        return out;
    }

    /** Whether {@code from} broadcasts to {@code to} without changing {@code to}. */
    public static boolean broadcastsTo(int[] from, int[] to) {
        if (from.length > to.length) {
            return false;
        }
        for (int i = 0; i < from.length; i++) {
            int s = from[from.length - 1 - i];
            int t = to[to.length - 1 - i];
            if (s != t && s != 1) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether broadcasting {@code shape} to {@code out} stretches it: a missing leading dim or a size-1 dim
     * that becomes larger (or 0). This is what the strict broadcasting scope watches.
     */
    static boolean isStretched(int[] shape, int[] out) {
        int lead = out.length - shape.length;
        for (int i = 0; i < out.length; i++) {
            int s = i < lead ? 1 : shape[i - lead];
            if (s != out[i] && (i < lead || s == 1)) {
                return true;
            }
        }
        return false;
    }

    /** The size at output position {@code i} of an {@code n}-dim broadcast, counting missing leading dims as 1. */
    static int sizeAt(int[] shape, int i, int n) {
        int j = i - (n - shape.length);
        return j < 0 ? 1 : shape[j];
    }

    /** Strides that read a tensor of {@code shape}/{@code strides} as if it had shape {@code out}: 0 where stretched. */
    static int[] broadcastStrides(int[] shape, int[] strides, int[] out) {
        int[] r = new int[out.length];
        int lead = out.length - shape.length;
        for (int i = 0; i < shape.length; i++) {
            r[lead + i] = shape[i] == out[lead + i] ? strides[i] : 0;
        }
        return r;
    }

    /** {@code [2, 3]}, as PyTorch prints sizes. */
    public static String str(int[] shape) {
        StringBuilder sb = new StringBuilder("[");
        boolean cut = shape.length > MAX_PRINTED_DIMS;
        for (int i = 0; i < shape.length; i++) {
            if (cut && i == MAX_PRINTED_DIMS / 2) {
                sb.append(", ...");
                i = shape.length - MAX_PRINTED_DIMS / 2;
            }
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(shape[i]);
        }
        sb.append(']');
        return cut ? sb.append(" (").append(shape.length).append(" dims)").toString() : sb.toString();
    }

    /** The permutation that undoes {@code perm}: {@code t.permute(perm).permute(inversePermutation(perm))} is t. */
    public static int[] inversePermutation(int[] perm) {
        int[] inverse = new int[perm.length];
        for (int i = 0; i < perm.length; i++) {
            inverse[perm[i]] = i;
        }
        return inverse;
    }

    /**
     * The dims in memory order of a layout: largest stride (in magnitude) first, ties in their logical
     * order. Where a permuted or channels-last tensor's rows really run.
     */
    public static int[] dimsByStride(int[] strides) {
        Integer[] order = new Integer[strides.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Integer.compare(Math.abs(strides[b]), Math.abs(strides[a])));
        int[] r = new int[order.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = order[i];
        }
        return r;
    }

    /** Shapes with more dims than this print their first and last few only, so a message stays one readable line. */
    static final int MAX_PRINTED_DIMS = 12;

    /**
     * Shapes printed one per line, aligned from the right so that broadcast partners sit in one column,
     * with a caret under output dimension {@code markDim} (none where it is negative):
     * <pre>
     *   a: [3, 4]
     *   b: [   3]
     *          ^ dimension 1
     * </pre>
     */
    public static String aligned(String[] names, int[][] shapes, int markDim) {
        int n = 0;
        int nameWidth = 0;
        for (int k = 0; k < shapes.length; k++) {
            n = Math.max(n, shapes[k].length);
            nameWidth = Math.max(nameWidth, names[k].length());
        }
        int[] width = new int[n];
        for (int[] s : shapes) {
            for (int j = 0; j < s.length; j++) {
                int col = n - s.length + j;
                width[col] = Math.max(width[col], String.valueOf(s[j]).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        int caretCol = -1;
        for (int k = 0; k < shapes.length; k++) {
            int[] s = shapes[k];
            StringBuilder line = new StringBuilder("  ");
            line.append(" ".repeat(nameWidth - names[k].length())).append(names[k]).append(": [");
            boolean started = false;
            for (int col = 0; col < n; col++) {
                int j = col - (n - s.length);
                String sep = col == 0 ? "" : (started ? ", " : "  ");
                line.append(sep);
                if (col == markDim && caretCol < 0) {
                    caretCol = line.length() + width[col] - 1;
                }
                String cell = j >= 0 ? String.valueOf(s[j]) : "";
                line.append(" ".repeat(width[col] - cell.length())).append(cell);
                started |= j >= 0;
            }
            line.append(']');
            sb.append(line);
            if (k < shapes.length - 1) {
                sb.append('\n');
            }
        }
        if (markDim >= 0 && caretCol >= 0) {
            sb.append('\n').append(" ".repeat(caretCol)).append("^ dimension ").append(markDim);
        }
        return sb.toString();
    }
}
