package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.Kernels;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code x[indices]} and {@code x[indices] = values}, with PyTorch's rules.
 *
 * <p>Basic entries (ints, slices, None, ...) are applied first as views; ints are selects, so an int
 * beside advanced indices does not count as one ({@code x[0, :, [1,2]]} is {@code (6, 2)} for a
 * {@code (5,6,7)} x). Advanced entries (int64 tensors, and bool masks turned into their nonzero
 * coordinates) broadcast together to a shape B. If they index neighbouring dims, B takes their place;
 * if a slice separates them, B goes first ({@code x[[0,1], :, [2,3]]} is {@code (2, 6)}).
 */
final class Indexing {
    private Indexing() {
    }

    /** Advanced indexing resolved against a tensor: which dims, which positions, and the result layout. */
    static final class Plan {
        /** The view left by the basic entries; advanced dims index into it. */
        Tensor view;
        /** The advanced dims of {@link #view}, ascending. */
        int[] dims;
        /** The broadcast shape of the index tensors. */
        int[] indexShape;
        /** For every position of {@link #indexShape} (row-major), the offset it selects in {@link #view}'s storage. */
        int[] bases;
        /** Shape and strides of the dims of {@link #view} that are not indexed. */
        int[] restShape;
        int[] restStrides;
        /** Where B lands in the result: index into the rest dims (0 = first). */
        int insertAt;

        int[] resultShape() {
            int[] r = new int[indexShape.length + restShape.length];
            int k = 0;
            for (int i = 0; i < insertAt; i++) {
                r[k++] = restShape[i];
            }
            for (int s : indexShape) {
                r[k++] = s;
            }
            for (int i = insertAt; i < restShape.length; i++) {
                r[k++] = restShape[i];
            }
            return r;
        }

        /** The permutation from the computation layout (B dims, then rest dims) to the result layout. */
        int[] toResultOrder() {
            int nb = indexShape.length;
            int[] perm = new int[nb + restShape.length];
            int k = 0;
            for (int i = 0; i < insertAt; i++) {
                perm[k++] = nb + i;
            }
            for (int i = 0; i < nb; i++) {
                perm[k++] = i;
            }
            for (int i = insertAt; i < restShape.length; i++) {
                perm[k++] = nb + i;
            }
            return perm;
        }
    }

    static Tensor index(Tensor x, Index... indices) {
        if (indices.length == 1 && indices[0].kind == Index.Kind.TENSOR && indices[0].tensor.dtype() == DType.BOOL
                && x.dtype() == DType.FLOAT32 && x.dim() > 0 && java.util.Arrays.equals(x.shape, indices[0].tensor.shape)) {
            return maskedElements(x, indices[0].tensor);
        }
        Plan p = plan(x, indices);
        if (p.dims == null) {
            return p.view;
        }
        int nb = p.indexShape.length;
        int[] computeShape = new int[nb + p.restShape.length];
        System.arraycopy(p.indexShape, 0, computeShape, 0, nb);
        System.arraycopy(p.restShape, 0, computeShape, nb, p.restShape.length);
        if (p.restShape.length == 0) {
            // Every dim indexed (x[mask] with a mask over all of x, x[i, j]): one element per position.
            Tensor out = Tensor.empty(x.dtype(), p.indexShape);
            gatherElements(p.view.storage, p.bases, out.storage);
            return out;
        }
        Tensor tmp = Tensor.zeros(x.dtype(), computeShape);
        int rest = Shape.numel(p.restShape);
        int[] restOut = Shape.contiguousStrides(p.restShape);
        for (int b = 0; b < p.bases.length; b++) {
            Tensor src = new Tensor(p.view.storage, p.bases[b], p.restShape, p.restStrides);
            Tensor dst = new Tensor(tmp.storage, b * rest, p.restShape, restOut);
            Elementwise.copy(src, dst);
        }
        return tmp.permute(p.toResultOrder()).contiguous();
    }

    /**
     * {@code x[mask]} for a float32 x and a mask of its shape: the elements where the mask is true, in row-major order,
     * counted first and then copied without a branch on the mask (as {@link #nonzero} writes its coordinates).
     */
    private static Tensor maskedElements(Tensor x, Tensor mask) {
        if (x.isContiguous() && mask.isContiguous()) {
            return maskedRun(x.storage.f(), x.offset, mask.storage.b(), mask.offset, x.numel());
        }
        Iter it = Iter.of(x.shape, x.strides, mask.strides);
        int xs = it.rowStride(0);
        int ms = it.rowStride(1);
        boolean[] m = mask.storage.b();
        float[] a = x.storage.f();
        int[] count = {0};
        it.forEachRow(new int[] {x.offset, mask.offset}, (off, n) -> {
            int c = 0;
            for (int i = 0; i < n; i++) {
                c += m[off[1] + i * ms] ? 1 : 0;
            }
            count[0] += c;
        });
        Tensor out = Tensor.empty(DType.FLOAT32, count[0]);
        float[] o = out.storage.f();
        int[] w = {0};
        it.forEachRow(new int[] {x.offset, mask.offset}, (off, n) -> {
            int at = w[0];
            for (int i = 0; i < n; i++) {
                if (at < o.length) {
                    o[at] = a[off[0] + i * xs];
                }
                at += m[off[1] + i * ms] ? 1 : 0;
            }
            w[0] = at;
        });
        return out;
    }

    /**
     * {@link #maskedElements} of n contiguous elements and flags: counted a vector of flags at a time, then every element
     * up to the last true one stored at the next free place, which moves on only for a true flag, so the loop neither
     * branches on the mask nor needs a bound check beyond the array's own.
     */
    private static Tensor maskedRun(float[] a, int ao, boolean[] m, int mo, int n) {
        int count = Kernels.REDUCTIONS.countTrue(m, mo, n);
        Tensor out = Tensor.empty(DType.FLOAT32, count);
        float[] o = out.storage.f();
        int last = n - 1;
        while (count > 0 && !m[mo + last]) {
            last--;
        }
        int at = 0;
        for (int i = 0; count > 0 && i <= last; i++) {
            o[at] = a[ao + i];
            at += m[mo + i] ? 1 : 0;
        }
        return out;
    }

    /**
     * {@code dst[b] = src[bases[b]]} for every b, dst contiguous from 0 and of src's dtype: float32 (gradients, masked
     * values) by its array, the other dtypes element by element through the storage.
     */
    private static void gatherElements(Storage src, int[] bases, Storage dst) {
        if (dst.dtype == DType.FLOAT32) {
            float[] a = src.f();
            float[] o = dst.f();
            for (int b = 0; b < bases.length; b++) {
                o[b] = a[bases[b]];
            }
        } else if (dst.dtype == DType.INT64) {
            for (int b = 0; b < bases.length; b++) {
                dst.setLong(b, src.getLong(bases[b]));
            }
        } else {
            for (int b = 0; b < bases.length; b++) {
                dst.setDouble(b, src.getDouble(bases[b]));
            }
        }
    }

    /**
     * {@code dst[bases[b]] = src[from + b]} for every b in order (a repeated position keeps the last), or with
     * {@code accumulate} {@code +=} (a repeated position adds each in turn); src and dst of one dtype, not bool when
     * accumulating. Float32 (the backward of x[mask]) by its array, the other dtypes through the storage.
     */
    private static void scatterElements(Storage src, int from, int[] bases, Storage dst, boolean accumulate) {
        if (dst.dtype == DType.FLOAT32) {
            float[] a = src.f();
            float[] o = dst.f();
            if (accumulate) {
                for (int b = 0; b < bases.length; b++) {
                    o[bases[b]] += a[from + b];
                }
            } else {
                for (int b = 0; b < bases.length; b++) {
                    o[bases[b]] = a[from + b];
                }
            }
        } else if (dst.dtype == DType.INT64) {
            for (int b = 0; b < bases.length; b++) {
                long v = src.getLong(from + b);
                dst.setLong(bases[b], accumulate ? dst.getLong(bases[b]) + v : v);
            }
        } else {
            for (int b = 0; b < bases.length; b++) {
                double v = src.getDouble(from + b);
                dst.setDouble(bases[b], accumulate ? dst.getDouble(bases[b]) + v : v);
            }
        }
    }

    static void indexPutInPlace(Tensor x, Index[] indices, Tensor values, boolean accumulate) {
        Plan p = plan(x, indices);
        if (p.dims == null) {
            Inplace.checkGrowth(p.view.shape, values.shape);
            if (accumulate) {
                Elementwise.run(BinaryOp.ADD, p.view, values.to(x.dtype()), p.view);
            } else {
                Elementwise.copy(values, p.view);
            }
            return;
        }
        int[] resultShape = p.resultShape();
        Tensor v = values.to(x.dtype());
        if (!Shape.broadcastsTo(v.shape, resultShape)) {
            throw new ShapeException("shape mismatch: value tensor of shape " + Shape.str(v.shape)
                    + " cannot be broadcast to indexing result of shape " + Shape.str(resultShape));
        }
        if (p.restShape.length == 0 && !(accumulate && x.dtype() == DType.BOOL)) {
            // Every dim indexed (the backward of x[mask]): one value per position, into its element.
            Tensor flat = v.expand(resultShape).contiguous();
            scatterElements(flat.storage, flat.offset, p.bases, p.view.storage, accumulate);
            return;
        }
        // Values in the computation layout: B dims first, then the rest.
        Tensor vc = v.expand(resultShape).permute(Shape.inversePermutation(p.toResultOrder()));
        int nb = p.indexShape.length;
        int[] bStrides = Shape.contiguousStrides(p.indexShape);
        for (int b = 0; b < p.bases.length; b++) {
            Tensor src = vc;
            int rem = b;
            for (int d = 0; d < nb; d++) {
                int i = rem / bStrides[d];
                rem %= bStrides[d];
                src = src.select(0, i);
            }
            Tensor dst = new Tensor(p.view.storage, p.bases[b], p.restShape, p.restStrides);
            if (accumulate) {
                Elementwise.run(BinaryOp.ADD, dst, src, dst);
            } else {
                Elementwise.copy(src, dst);
            }
        }
    }

    /**
     * Resolves {@code indices} against {@code x}: the basic entries applied as views, then the advanced ones broadcast
     * together and turned into the storage offsets they select.
     */
    static Plan plan(Tensor x, Index[] indices) {
        int consumed = consumedDims(x, indices);
        List<Integer> dims = new ArrayList<>();
        List<Tensor> idx = new ArrayList<>();
        Tensor view = applyBasic(x, indices, consumed, dims, idx);
        return resolveAdvanced(view, dims, idx);
    }

    /** The dims of {@code x} the entries consume (an ellipsis takes the rest); too many entries, or two ellipses, refused. */
    private static int consumedDims(Tensor x, Index[] indices) {
        int consumed = 0;
        int ellipses = 0;
        for (Index ix : indices) {
            switch (ix.kind) {
                case INT:
                case SLICE:
                    consumed++;
                    break;
                case TENSOR:
                    consumed += ix.tensor.dtype() == DType.BOOL ? Math.max(ix.tensor.dim(), 1) : 1;
                    break;
                case ELLIPSIS:
                    ellipses++;
                    break;
                default:
                    break;
            }
        }
        if (ellipses > 1) {
            throw new TensorIndexException("an index can only have a single ellipsis ('...')");
        }
        if (consumed > x.dim()) {
            throw new TensorIndexException("too many indices for tensor of dimension " + x.dim()
                    + " (got " + consumed + " indexing entries for shape " + Shape.str(x.shape) + ")");
        }
        return consumed;
    }

    /**
     * The view the basic entries leave (ints select, slices slice, None and a 0-d mask insert a dim), and, in
     * {@code dims} and {@code idx}, each advanced entry's dim in that view and its int64 positions (a mask as the
     * coordinates of its true elements, one index tensor per dim it covers).
     */
    private static Tensor applyBasic(Tensor x, Index[] indices, int consumed, List<Integer> dims, List<Tensor> idx) {
        Tensor cur = x;
        int d = 0;
        for (Index ix : indices) {
            switch (ix.kind) {
                case INT:
                    cur = Views.select(cur, d, checkedPosition(ix.at, cur.shape[d], d));
                    break;
                case SLICE: {
                    int size = cur.shape[d];
                    int start = ix.start == null ? 0 : ix.start;
                    int stop = ix.stop == null ? size : ix.stop;
                    cur = Views.slice(cur, d, start, stop, ix.step);
                    d++;
                    break;
                }
                case NONE:
                    cur = Views.unsqueeze(cur, d);
                    d++;
                    break;
                case ELLIPSIS:
                    d += x.dim() - consumed;
                    break;
                default:
                    if (ix.tensor.dtype() != DType.BOOL) {
                        dims.add(d);
                        idx.add(ix.tensor);
                        d++;
                    } else if (ix.tensor.dim() == 0) {
                        // A 0-d mask adds a dim of one position (true) or none (false).
                        cur = Views.unsqueeze(cur, d);
                        dims.add(d);
                        idx.add(ix.tensor.item() != 0 ? Tensor.zeros(DType.INT64, 1) : Tensor.zeros(DType.INT64, 0));
                        d++;
                    } else {
                        d = maskPositions(cur, d, ix.tensor, dims, idx);
                    }
            }
        }
        return cur;
    }

    /** A mask over dims {@code [d, d + mask.dim())} of {@code cur}, as the coordinates of its true elements; the next dim. */
    private static int maskPositions(Tensor cur, int d, Tensor mask, List<Integer> dims, List<Tensor> idx) {
        for (int k = 0; k < mask.dim(); k++) {
            if (mask.shape[k] != cur.shape[d + k]) {
                throw new TensorIndexException("The shape of the mask " + Shape.str(mask.shape) + " at index " + k
                        + " does not match the shape of the indexed tensor " + Shape.str(cur.shape) + " at index " + (d + k));
            }
        }
        Tensor nz = nonzero(mask);
        for (int k = 0; k < mask.dim(); k++) {
            dims.add(d + k);
            idx.add(nz.select(1, k));
        }
        return d + mask.dim();
    }

    /**
     * The plan over {@code view}: the index tensors broadcast to one shape B, the storage offset each position of B
     * selects, the dims left, and where B lands among them (in place of the indexed dims where they are neighbours, else
     * first, as PyTorch does).
     */
    private static Plan resolveAdvanced(Tensor view, List<Integer> dims, List<Tensor> idx) {
        Plan p = new Plan();
        p.view = view;
        if (dims.isEmpty()) {
            return p;
        }
        int k = dims.size();
        p.dims = new int[k];
        int[][] shapes = new int[k][];
        for (int i = 0; i < k; i++) {
            p.dims[i] = dims.get(i);
            shapes[i] = idx.get(i).shape;
        }
        try {
            p.indexShape = Shape.broadcastShapes(shapes);
        } catch (ShapeException e) {
            StringBuilder sb = new StringBuilder("shape mismatch: indexing tensors could not be broadcast together with shapes");
            for (int[] s : shapes) {
                sb.append(' ').append(Shape.str(s));
            }
            throw new TensorIndexException(sb.toString());
        }
        int count = Shape.numel(p.indexShape);
        p.bases = new int[count];
        java.util.Arrays.fill(p.bases, view.offset);
        for (int i = 0; i < k; i++) {
            int dim = p.dims[i];
            int size = view.shape[dim];
            int stride = view.strides[dim];
            long[] pos = idx.get(i).expand(p.indexShape).contiguous().toLongArray();
            for (int b = 0; b < count; b++) {
                p.bases[b] += checkedPosition(pos[b], size, dim) * stride;
            }
        }
        boolean adjacent = true;
        for (int i = 1; i < k; i++) {
            adjacent &= p.dims[i] == p.dims[i - 1] + 1;
        }
        int nr = view.dim() - k;
        p.restShape = new int[nr];
        p.restStrides = new int[nr];
        for (int i = 0, j = 0; i < view.dim(); i++) {
            if (!dims.contains(i)) {
                p.restShape[j] = view.shape[i];
                p.restStrides[j] = view.strides[i];
                j++;
            }
        }
        p.insertAt = adjacent ? p.dims[0] : 0;
        return p;
    }

    private static int checkedPosition(long i, int size, int dim) {
        long r = i < 0 ? i + size : i;
        if (r < 0 || r >= size) {
            throw TensorIndexException.outOfBounds(i, dim, size);
        }
        return (int) r;
    }

    /**
     * The coordinates of the nonzero (true, or NaN) elements in row-major order: the elements are counted first, so the
     * result is written once into an array of its size, each hit's coordinates taken from the row being walked.
     */
    static Tensor nonzero(Tensor x) {
        int n = x.dim();
        int total = x.numel();
        Tensor flags = (x.dtype() == DType.BOOL ? x : x.ne(0.0)).contiguous();
        boolean[] f = flags.storage.b();
        int from = flags.offset;
        int count = Kernels.REDUCTIONS.countTrue(f, from, total);
        Tensor result = Tensor.empty(DType.INT64, count, n);
        long[] data = result.storage.l();
        if (n == 0) {
            return result;
        }
        int last = x.shape[n - 1];
        // The coordinates of the current row along every dim but the last, advanced as an odometer.
        int[] outer = new int[Math.max(n - 1, 0)];
        int w = 0;
        // Each row's hits are first listed by position, without a branch on the mask (one would be mispredicted on
        // every other element of a random mask): every position is written at c, and c moves on only for a hit.
        int[] hits = new int[last];
        for (int base = 0; base < total; base += last) {
            int c = 0;
            for (int j = 0; j < last; j++) {
                hits[c] = j;
                c += f[from + base + j] ? 1 : 0;
            }
            if (n == 2) {
                long row = outer[0];
                for (int h = 0; h < c; h++, w += 2) {
                    data[w] = row;
                    data[w + 1] = hits[h];
                }
            } else {
                for (int h = 0; h < c; h++, w += n) {
                    for (int d = 0; d < n - 1; d++) {
                        data[w + d] = outer[d];
                    }
                    data[w + n - 1] = hits[h];
                }
            }
            for (int d = n - 2; d >= 0; d--) {
                if (++outer[d] < x.shape[d]) {
                    break;
                }
                outer[d] = 0;
            }
        }
        return result;
    }
}
