package dev.jgrad.tensor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Views: new shapes and strides over the same storage, no data copied (except {@link #flip} and the
 * copy {@link #reshape} makes when no view is possible).
 */
final class Views {
    private Views() {
    }

    static Tensor make(Tensor base, int offset, int[] shape, int[] strides) {
        return new Tensor(base.storage, offset, shape, strides);
    }

    /** Resolves a single -1 and checks the element count, with PyTorch's message. */
    static int[] inferSize(int[] requested, int numel) {
        int[] shape = requested.clone();
        int infer = -1;
        long known = 1;
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] == -1) {
                if (infer >= 0) {
                    throw new ShapeException("only one dimension can be inferred (shape " + Arrays.toString(requested) + ")");
                }
                infer = i;
            } else if (shape[i] < 0) {
                throw new ShapeException("invalid shape dimension " + shape[i] + " in " + Arrays.toString(requested));
            } else {
                known *= shape[i];
            }
        }
        if (infer >= 0) {
            if (known == 0 || numel % known != 0) {
                throw new ShapeException("shape '" + Arrays.toString(requested) + "' is invalid for input of size " + numel);
            }
            shape[infer] = (int) (numel / known);
        } else if (known != numel) {
            throw new ShapeException("shape '" + Arrays.toString(requested) + "' is invalid for input of size " + numel);
        }
        return shape;
    }

    static Tensor view(Tensor x, int[] requested) {
        int[] shape = inferSize(requested, x.numel());
        int[] strides = viewStrides(x.shape, x.strides, shape);
        if (strides == null) {
            throw new ShapeException("view size is not compatible with input tensor's size and stride (at least one dimension"
                    + " spans across two contiguous subspaces). Use .reshape(...) instead.\n"
                    + "  input shape " + Shape.str(x.shape) + " with strides " + Shape.str(x.strides)
                    + " cannot be viewed as " + Shape.str(shape)
                    + "; reshape copies when it must, or call contiguous() first.");
        }
        return make(x, x.offset, shape, strides);
    }

    static Tensor reshape(Tensor x, int[] requested) {
        int[] shape = inferSize(requested, x.numel());
        int[] strides = viewStrides(x.shape, x.strides, shape);
        if (strides != null) {
            return make(x, x.offset, shape, strides);
        }
        Tensor c = x.clone();
        return make(c, 0, shape, Shape.contiguousStrides(shape));
    }

    /**
     * Strides for viewing (shape, strides) as newShape, or null where the layout does not allow it.
     * PyTorch's {@code computeStride}: walk the old dims in chunks that are contiguous among themselves
     * and match each chunk with a run of new dims of the same element count.
     */
    static int[] viewStrides(int[] oldShape, int[] oldStrides, int[] newShape) {
        int numel = Shape.numel(oldShape);
        int[] newStrides = new int[newShape.length];
        if (numel == 0) {
            return Arrays.equals(oldShape, newShape) ? oldStrides.clone() : Shape.contiguousStrides(newShape);
        }
        if (oldShape.length == 0) {
            Arrays.fill(newStrides, 1);
            return newStrides;
        }
        int viewD = newShape.length - 1;
        long chunkBaseStride = oldStrides[oldStrides.length - 1];
        long tensorNumel = 1;
        long viewNumel = 1;
        for (int tensorD = oldShape.length - 1; tensorD >= 0; tensorD--) {
            tensorNumel *= oldShape[tensorD];
            if (tensorD == 0 || (oldShape[tensorD - 1] != 1 && oldStrides[tensorD - 1] != tensorNumel * chunkBaseStride)) {
                while (viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] == 1)) {
                    newStrides[viewD] = (int) (viewNumel * chunkBaseStride);
                    viewNumel *= newShape[viewD];
                    viewD--;
                }
                if (viewNumel != tensorNumel) {
                    return null;
                }
                if (tensorD > 0) {
                    chunkBaseStride = oldStrides[tensorD - 1];
                    tensorNumel = 1;
                    viewNumel = 1;
                }
            }
        }
        if (viewD != -1) {
            return null;
        }
        return newStrides;
    }

    static Tensor transpose(Tensor x, int d0, int d1) {
        int n = x.shape.length;
        if (n == 0) {
            Shape.wrapDim(d0, 0);
            Shape.wrapDim(d1, 0);
            return x;
        }
        int a = Shape.wrapDim(d0, n);
        int b = Shape.wrapDim(d1, n);
        int[] shape = x.shape.clone();
        int[] strides = x.strides.clone();
        shape[a] = x.shape[b];
        shape[b] = x.shape[a];
        strides[a] = x.strides[b];
        strides[b] = x.strides[a];
        return make(x, x.offset, shape, strides);
    }

    static Tensor permute(Tensor x, int[] dims) {
        int n = x.shape.length;
        if (dims.length != n) {
            throw new ShapeException("permute: number of dims don't match in permute: input.dim() = " + n
                    + " is not equal to len(dims) = " + dims.length + " (dims " + Arrays.toString(dims) + " for shape " + Shape.str(x.shape) + ")");
        }
        int[] d = Shape.wrapDims(dims, n);
        int[] shape = new int[n];
        int[] strides = new int[n];
        for (int i = 0; i < n; i++) {
            shape[i] = x.shape[d[i]];
            strides[i] = x.strides[d[i]];
        }
        return make(x, x.offset, shape, strides);
    }

    static Tensor expand(Tensor x, int[] sizes) {
        int n = sizes.length;
        if (n < x.shape.length) {
            throw new ShapeException("expand(" + Shape.str(x.shape) + "): the number of sizes provided (" + n
                    + ") must be greater or equal to the number of dimensions in the tensor (" + x.shape.length + ")");
        }
        int[] shape = new int[n];
        int[] strides = new int[n];
        int lead = n - x.shape.length;
        for (int i = n - 1; i >= 0; i--) {
            int j = i - lead;
            int target = sizes[i];
            if (j < 0) {
                if (target < 0) {
                    throw new ShapeException("The expanded size of the tensor (" + target
                            + ") isn't allowed in a leading, non-existing dimension " + i);
                }
                shape[i] = target;
                strides[i] = 0;
                continue;
            }
            int have = x.shape[j];
            if (target == -1) {
                target = have;
            }
            if (have == target) {
                shape[i] = have;
                strides[i] = x.strides[j];
            } else if (have == 1) {
                shape[i] = target;
                strides[i] = 0;
            } else {
                throw new ShapeException("The expanded size of the tensor (" + target + ") must match the existing size (" + have
                        + ") at non-singleton dimension " + i + ".  Target sizes: " + Arrays.toString(sizes)
                        + ".  Tensor sizes: " + Shape.str(x.shape) + "\n"
                        + Shape.aligned(new String[] {"tensor", "target"}, new int[][] {x.shape, sizes}, i));
            }
        }
        return make(x, x.offset, shape, strides);
    }

    static Tensor unsqueeze(Tensor x, int dim) {
        int n = x.shape.length;
        int d = Shape.wrapDim(dim, n + 1);
        int[] shape = new int[n + 1];
        int[] strides = new int[n + 1];
        for (int i = 0, j = 0; i <= n; i++) {
            if (i == d) {
                shape[i] = 1;
                strides[i] = d < n ? x.strides[d] * x.shape[d] : 1;
            } else {
                shape[i] = x.shape[j];
                strides[i] = x.strides[j];
                j++;
            }
        }
        return make(x, x.offset, shape, strides);
    }

    static Tensor squeeze(Tensor x, int dim) {
        int n = x.shape.length;
        if (n == 0) {
            Shape.wrapDim(dim, 0);
            return x;
        }
        int d = Shape.wrapDim(dim, n);
        if (x.shape[d] != 1) {
            return x;
        }
        return removeDim(x, d);
    }

    static Tensor squeezeAll(Tensor x) {
        int keep = 0;
        for (int s : x.shape) {
            keep += s == 1 ? 0 : 1;
        }
        int[] shape = new int[keep];
        int[] strides = new int[keep];
        for (int i = 0, j = 0; i < x.shape.length; i++) {
            if (x.shape[i] != 1) {
                shape[j] = x.shape[i];
                strides[j] = x.strides[i];
                j++;
            }
        }
        return make(x, x.offset, shape, strides);
    }

    private static Tensor removeDim(Tensor x, int d) {
        int n = x.shape.length;
        int[] shape = new int[n - 1];
        int[] strides = new int[n - 1];
        for (int i = 0, j = 0; i < n; i++) {
            if (i != d) {
                shape[j] = x.shape[i];
                strides[j] = x.strides[i];
                j++;
            }
        }
        return make(x, x.offset, shape, strides);
    }

    /** The shape {@code flatten(startDim, endDim)} gives: the dims from start to end merged into one. */
    static int[] flattenedShape(int[] shape, int startDim, int endDim) {
        int n = shape.length;
        if (n == 0) {
            return new int[] {1};
        }
        int s = Shape.wrapDim(startDim, n);
        int e = Shape.wrapDim(endDim, n);
        if (s > e) {
            throw new ShapeException("flatten() has invalid args: start_dim (" + startDim + ") cannot come after end_dim (" + endDim + ")");
        }
        int[] out = new int[n - (e - s)];
        int k = 0;
        for (int i = 0; i < s; i++) {
            out[k++] = shape[i];
        }
        long m = 1;
        for (int i = s; i <= e; i++) {
            m *= shape[i];
        }
        out[k++] = (int) m;
        for (int i = e + 1; i < n; i++) {
            out[k++] = shape[i];
        }
        return out;
    }

    /** The shape {@code unflatten(dim, sizes)} gives: dim split into {@code sizes} (one may be -1). */
    static int[] unflattenedShape(int[] shape, int dim, int[] sizes) {
        int n = shape.length;
        int d = Shape.wrapDim(dim, n);
        int[] resolved = inferSize(sizes, shape[d]);
        int[] out = new int[n - 1 + resolved.length];
        int k = 0;
        for (int i = 0; i < d; i++) {
            out[k++] = shape[i];
        }
        for (int s : resolved) {
            out[k++] = s;
        }
        for (int i = d + 1; i < n; i++) {
            out[k++] = shape[i];
        }
        return out;
    }

    /** The permutation {@code movedim(source, destination)} applies to {@code n} dims. */
    static int[] movedimPermutation(int n, int source, int destination) {
        int s = Shape.wrapDim(source, n);
        int d = Shape.wrapDim(destination, n);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (i != s) {
                order.add(i);
            }
        }
        order.add(d, s);
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) {
            perm[i] = order.get(i);
        }
        return perm;
    }

    static Tensor slice(Tensor x, int dim, int start, int end, int step) {
        int n = x.shape.length;
        int d = Shape.wrapDim(dim, n);
        if (step <= 0) {
            throw new ShapeException("slice step must be positive, got " + step
                    + (step < 0 ? " (negative steps are not supported, as in PyTorch; use flip(" + dim + ") to reverse)" : ""));
        }
        int size = x.shape[d];
        int s = clampIndex(start, size);
        int e = clampIndex(end, size);
        int len = e > s ? (e - s + step - 1) / step : 0;
        int[] shape = x.shape.clone();
        int[] strides = x.strides.clone();
        shape[d] = len;
        strides[d] = x.strides[d] * step;
        return make(x, x.offset + s * x.strides[d], shape, strides);
    }

    /** Python's slice-bound rule: negative counts from the end, then clamp into [0, size]. */
    static int clampIndex(int i, int size) {
        if (i < 0) {
            i += size;
        }
        return Math.max(0, Math.min(i, size));
    }

    /** The start of {@code narrow(dim, start, length)} on a dim of {@code size}, checked as PyTorch checks it. */
    static int narrowStart(int size, int dim, int start, int length) {
        int s = start < 0 ? start + size : start;
        if (s < 0 || length < 0 || s + length > size) {
            throw new TensorIndexException("narrow(): start (" + start + ") + length (" + length + ") exceeds dimension size (" + size + ") of dim " + dim);
        }
        return s;
    }

    static Tensor select(Tensor x, int dim, int index) {
        int n = x.shape.length;
        if (n == 0) {
            throw new TensorIndexException("select() cannot be applied to a 0-dim tensor.");
        }
        int d = Shape.wrapDim(dim, n);
        int size = x.shape[d];
        int i = index < 0 ? index + size : index;
        if (i < 0 || i >= size) {
            throw new TensorIndexException("select(): index " + index + " out of range for tensor of size " + Shape.str(x.shape) + " at dimension " + d);
        }
        Tensor r = removeDim(x, d);
        return make(x, x.offset + i * x.strides[d], r.shape, r.strides);
    }

    static Tensor diagonal(Tensor x, int offset, int dim1, int dim2) {
        int n = x.shape.length;
        int a = Shape.wrapDim(dim1, n);
        int b = Shape.wrapDim(dim2, n);
        if (a == b) {
            throw new ShapeException("diagonal dimensions cannot be identical " + dim1 + ", " + dim2);
        }
        int len;
        int start = x.offset;
        if (offset >= 0) {
            len = Math.max(0, Math.min(x.shape[a], x.shape[b] - offset));
            start += len > 0 ? offset * x.strides[b] : 0;
        } else {
            len = Math.max(0, Math.min(x.shape[a] + offset, x.shape[b]));
            start += len > 0 ? -offset * x.strides[a] : 0;
        }
        int[] shape = new int[n - 1];
        int[] strides = new int[n - 1];
        for (int i = 0, j = 0; i < n; i++) {
            if (i != a && i != b) {
                shape[j] = x.shape[i];
                strides[j] = x.strides[i];
                j++;
            }
        }
        shape[n - 2] = len;
        strides[n - 2] = x.strides[a] + x.strides[b];
        return make(x, start, shape, strides);
    }

    /** The piece sizes of {@code split(splitSize)} along a dim of {@code size}; the last may be smaller. */
    static int[] splitSizes(int size, int splitSize) {
        if (splitSize <= 0) {
            throw new ShapeException("split_size can only be 0 if dimension size is 0, but got split_size " + splitSize);
        }
        if (size == 0) {
            return new int[] {0};
        }
        int[] out = new int[(size + splitSize - 1) / splitSize];
        for (int i = 0; i < out.length; i++) {
            out[i] = Math.min(splitSize, size - i * splitSize);
        }
        return out;
    }

    /** Checks that the sizes of {@code split(int[] sizes)} add up to the dim's size, with PyTorch's message. */
    static int[] checkedSplitSizes(int size, int[] sizes, int dim) {
        long total = 0;
        for (int s : sizes) {
            if (s < 0) {
                throw new ShapeException("split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes="
                        + Arrays.toString(sizes));
            }
            total += s;
        }
        if (total != size) {
            throw new ShapeException("split_with_sizes expects split_sizes to sum exactly to " + size
                    + " (input tensor's size at dimension " + dim + "), but got split_sizes=" + Arrays.toString(sizes));
        }
        return sizes.clone();
    }

    /** The piece sizes of {@code chunk(chunks)}: pieces of equal size, the last smaller; possibly fewer pieces, as PyTorch. */
    static int[] chunkSizes(int size, int chunks) {
        if (chunks <= 0) {
            throw new ShapeException("chunk expects `chunks` to be greater than 0, got: " + chunks);
        }
        int splitSize = (size + chunks - 1) / chunks;
        return splitSize == 0 ? new int[chunks] : splitSizes(size, splitSize);
    }

    /** The piece sizes of {@code tensor_split(sections)}: exactly that many, differing by at most one. */
    static int[] tensorSplitSizes(int size, int sections) {
        if (sections <= 0) {
            throw new ShapeException("number of sections must be larger than 0, got " + sections);
        }
        int[] out = new int[sections];
        for (int i = 0; i < sections; i++) {
            out[i] = size / sections + (i < size % sections ? 1 : 0);
        }
        return out;
    }

    /**
     * {@code torch.Tensor.unfold}: the windows of {@code size} elements every {@code step} along {@code dim},
     * as a view with the window index in place of {@code dim} and the window's elements as a new last dim.
     * Nothing is copied: window i starts {@code i * step} elements along, and overlapping windows share memory.
     */
    static Tensor unfold(Tensor x, int dim, int size, int step) {
        int n = x.shape.length;
        int d = Shape.wrapDim(dim, n);
        int have = n == 0 ? 1 : x.shape[d];
        if (size < 0 || size > have) {
            throw new ShapeException("unfold: maximum size for tensor at dimension " + d + " is " + have + " but size is " + size
                    + " (shape " + Shape.str(x.shape) + ")");
        }
        if (step <= 0) {
            throw new ShapeException("unfold: step is " + step + " but must be > 0");
        }
        int[] shape = Arrays.copyOf(x.shape, n + 1);
        int[] strides = Arrays.copyOf(x.strides, n + 1);
        shape[n] = size;
        strides[n] = n == 0 ? 1 : x.strides[d];
        if (n > 0) {
            shape[d] = (have - size) / step + 1;
            strides[d] = x.strides[d] * step;
        }
        return make(x, x.offset, shape, strides);
    }

    static Tensor flip(Tensor x, int[] dims) {
        int n = x.shape.length;
        int[] d = Shape.wrapDims(dims, n);
        int offset = x.offset;
        int[] strides = x.strides.clone();
        for (int k : d) {
            if (x.shape[k] > 0) {
                offset += (x.shape[k] - 1) * x.strides[k];
            }
            strides[k] = -x.strides[k];
        }
        // A reversed view over the same storage, then a contiguous copy: flip copies, as in PyTorch.
        Tensor reversed = make(x, offset, x.shape.clone(), strides);
        return reversed.clone();
    }
}
