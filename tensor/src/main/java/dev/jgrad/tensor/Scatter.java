package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.Parallel;
import dev.jgrad.tensor.internal.kernels.Tuning;

/**
 * gather, take_along_dim, scatter (plain, add and reduce), index_select and index_add. Every index is
 * bounds-checked, and an index out of range is an error naming the index, the dim and its size.
 */
final class Scatter {
    private Scatter() {
    }

    private static void checkIndexTensor(String op, Tensor index) {
        if (index.dtype() != DType.INT64) {
            throw new DTypeException(op + "(): Expected dtype int64 for index, got " + index.dtype());
        }
    }

    /** {@code index.size(d) <= self.size(d)} for every {@code d != dim}, as gather and scatter require. */
    private static void checkIndexFits(String op, Tensor self, int dim, Tensor index, String selfName) {
        if (index.dim() != self.dim() && !(index.dim() == 0 || self.dim() == 0)) {
            throw new ShapeException("Index tensor must have the same number of dimensions as " + selfName + " tensor ("
                    + op + ": index " + Shape.str(index.shape) + ", " + selfName + " " + Shape.str(self.shape) + ")");
        }
        for (int d = 0; d < index.dim() && d < self.dim(); d++) {
            if (d != dim && index.shape[d] > self.shape[d]) {
                throw new ShapeException("Size does not match at dimension " + d + " expected index " + Shape.str(index.shape)
                        + " to be smaller than " + selfName + " " + Shape.str(self.shape) + " apart from dimension " + dim);
            }
        }
    }

    /** An index tensor's entry, which must lie in [0, size): gather, scatter and index_select do not count from the end, as in PyTorch. */
    private static long position(long i, int size, int dim) {
        if (i < 0 || i >= size) {
            throw TensorIndexException.outOfBounds(i, dim, size);
        }
        return i;
    }

    static Tensor gather(Tensor x, int dim, Tensor index) {
        checkIndexTensor("gather", index);
        int d = Shape.wrapDim(dim, x.dim());
        checkIndexFits("gather", x, d, index, "input");
        // Every element is written (or an index out of bounds throws, and the result is dropped): no zeroing first.
        Tensor out = Tensor.empty(x.dtype(), index.shape);
        if (out.numel() == 0) {
            return out;
        }
        int[] xs = x.strides.clone();
        int step = x.dim() == 0 ? 0 : xs[d];
        int size = x.dim() == 0 ? 1 : x.shape[d];
        if (x.dim() > 0) {
            xs[d] = 0;
        }
        int[] xView = x.dim() == index.dim() ? xs : new int[index.dim()];
        Iter it = Iter.of(index.shape, out.strides, index.strides, xView);
        int os = it.rowStride(0);
        int is = it.rowStride(1);
        int ss = it.rowStride(2);
        Storage src = x.storage;
        Storage dst = out.storage;
        long[] ix = index.storage.l();
        if (dst.dtype == DType.FLOAT32 && x.dim() == 2 && index.dim() == 2 && d == 1 && index.isContiguous()) {
            // Rows of class indices into rows of scores (cross-entropy's targets, a top-k's picks): two plain loops.
            float[] from = src.f();
            float[] to = dst.f();
            int rows = index.shape[0];
            int k = index.shape[1];
            int rowStride = x.strides[0];
            for (int r = 0; r < rows; r++) {
                int in = x.offset + r * rowStride;
                int at = index.offset + r * k;
                for (int j = 0; j < k; j++) {
                    to[r * k + j] = from[in + (int) position(ix[at + j], size, d) * step];
                }
            }
            return out;
        }
        if (dst.dtype == DType.FLOAT32) {
            // A model's gather (cross-entropy's target classes): the arrays taken once, not per element.
            float[] from = src.f();
            float[] to = dst.f();
            it.forEachRow(new int[] {0, index.offset, x.offset}, (off, n) -> {
                for (int i = 0; i < n; i++) {
                    long p = position(ix[off[1] + i * is], size, d);
                    to[off[0] + i * os] = from[(int) (off[2] + i * ss + p * step)];
                }
            });
            return out;
        }
        it.forEachRow(new int[] {0, index.offset, x.offset}, (off, n) -> {
            for (int i = 0; i < n; i++) {
                long p = position(ix[off[1] + i * is], size, d);
                copyElement(src, (int) (off[2] + i * ss + p * step), dst, off[0] + i * os);
            }
        });
        return out;
    }

    private static void copyElement(Storage src, int from, Storage dst, int to) {
        switch (dst.dtype) {
            case FLOAT32: dst.f()[to] = src.f()[from]; break;
            case FLOAT64: dst.d()[to] = src.d()[from]; break;
            case INT64: dst.l()[to] = src.l()[from]; break;
            default: dst.b()[to] = src.b()[from]; break;
        }
    }

    static Tensor takeAlongDim(Tensor x, Tensor index, int dim) {
        checkIndexTensor("take_along_dim", index);
        int n = Math.max(x.dim(), index.dim());
        if (x.dim() != index.dim()) {
            throw new ShapeException("torch.take_along_dim(): input and indices should have the same number of dimensions, but got "
                    + x.dim() + " dimensions for input, and " + index.dim() + " dimensions for indices");
        }
        int d = Shape.wrapDim(dim, n);
        int[] xs = x.shape();
        int[] is = index.shape();
        xs[d] = 1;
        is[d] = 1;
        int[] common = Shape.broadcast(xs, is);
        int[] xTarget = common.clone();
        xTarget[d] = x.shape[d];
        int[] iTarget = common.clone();
        iTarget[d] = index.shape[d];
        return gather(x.expand(xTarget), d, index.expand(iTarget));
    }

    /**
     * scatter, scatter_add and scatter_reduce, out of place: a copy of {@code self} with {@code src}
     * written (or reduced) at the positions {@code index} gives along {@code dim}. {@code reduce} null
     * means plain assignment. Without {@code includeSelf}, a position that receives values starts from
     * the first of them instead of from self; a position that receives none keeps self's value.
     */
    static Tensor scatter(Tensor self, int dim, Tensor index, Tensor src, ScatterReduce reduce, boolean includeSelf) {
        String op = reduce == null ? "scatter" : "scatter_reduce";
        checkIndexTensor(op, index);
        int d = Shape.wrapDim(dim, self.dim());
        checkIndexFits(op, self, d, index, "self");
        checkIndexFits(op, src, d, index, "src");
        if (index.dim() != 0 && src.dim() != 0 && index.shape[d] > src.shape[d]) {
            throw new ShapeException("Size does not match at dimension " + d + " expected index " + Shape.str(index.shape)
                    + " to be smaller than src " + Shape.str(src.shape) + " apart from dimension " + d);
        }
        Tensor out = self.contiguous().clone();
        Tensor s = src.to(self.dtype());
        if (self.dtype() == DType.FLOAT32 && (reduce == null || reduce == ScatterReduce.SUM && includeSelf)) {
            return scatterFloats(out, self, d, index, s, reduce != null);
        }
        int total = out.numel();
        double[] acc = new double[total];
        int[] count = new int[total];
        boolean[] touched = new boolean[total];
        Storage o = out.storage;
        for (int i = 0; i < total; i++) {
            acc[i] = o.getDouble(i);
        }
        int step = self.dim() == 0 ? 0 : out.strides[d];
        int size = self.dim() == 0 ? 1 : self.shape[d];
        Iter it = targets(out, self, d, index, s);
        int is = it.rowStride(0);
        int ss = it.rowStride(1);
        int ts = it.rowStride(2);
        long[] ix = index.storage.l();
        Storage sv = s.storage;
        it.forEachRow(new int[] {index.offset, s.offset, 0}, (off, n) -> {
            for (int i = 0; i < n; i++) {
                long p = position(ix[off[0] + i * is], size, d);
                int t = (int) (off[2] + i * ts + p * step);
                double v = sv.getDouble(off[1] + i * ss);
                if (reduce == null) {
                    acc[t] = v;
                    continue;
                }
                if (!touched[t]) {
                    touched[t] = true;
                    if (!includeSelf) {
                        acc[t] = v;
                        count[t] = 1;
                        continue;
                    }
                    count[t] = 1;
                }
                count[t]++;
                switch (reduce) {
                    case SUM:
                    case MEAN:
                        acc[t] += v;
                        break;
                    case PROD:
                        acc[t] *= v;
                        break;
                    case AMAX:
                        acc[t] = Double.isNaN(v) || v > acc[t] ? v : acc[t];
                        break;
                    default:
                        acc[t] = Double.isNaN(v) || v < acc[t] ? v : acc[t];
                }
            }
        });
        boolean integral = !self.dtype().isFloating();
        for (int i = 0; i < total; i++) {
            double v = acc[i];
            if (reduce == ScatterReduce.MEAN && touched[i]) {
                v = integral ? Math.floor(v / count[i]) : v / count[i];
            }
            o.setDouble(i, v);
        }
        return out;
    }

    /**
     * Index, src and out walked together over the index's shape: out's stride along {@code d} is 0 there, as the index
     * picks the position along it ({@code position(i) * step} added by the caller).
     */
    private static Iter targets(Tensor out, Tensor self, int d, Tensor index, Tensor s) {
        int[] baseStrides = out.strides.clone();
        if (self.dim() > 0) {
            baseStrides[d] = 0;
        }
        int[] srcStrides = s.dim() == index.dim() ? s.strides : new int[index.dim()];
        int[] tgtStrides = self.dim() == index.dim() ? baseStrides : new int[index.dim()];
        return Iter.of(index.shape, index.strides, srcStrides, tgtStrides);
    }

    /**
     * scatter and scatter_add of float32 (the backward of every gather, a cross-entropy's among them) on the arrays
     * themselves, adding in index order in float32 as PyTorch's CPU kernel does; {@code out} is a contiguous copy of self.
     */
    private static Tensor scatterFloats(Tensor out, Tensor self, int d, Tensor index, Tensor s, boolean add) {
        int step = self.dim() == 0 ? 0 : out.strides[d];
        int size = self.dim() == 0 ? 1 : self.shape[d];
        Iter it = targets(out, self, d, index, s);
        int is = it.rowStride(0);
        int ss = it.rowStride(1);
        int ts = it.rowStride(2);
        long[] ix = index.storage.l();
        float[] sv = s.storage.f();
        float[] o = out.storage.f();
        int oo = out.offset;
        it.forEachRow(new int[] {index.offset, s.offset, 0}, (off, n) -> {
            for (int i = 0; i < n; i++) {
                int t = oo + (int) (off[2] + i * ts + position(ix[off[0] + i * is], size, d) * step);
                float v = sv[off[1] + i * ss];
                o[t] = add ? o[t] + v : v;
            }
        });
        return out;
    }

    static Tensor indexSelect(Tensor x, int dim, Tensor index) {
        checkIndexTensor("index_select", index);
        if (index.dim() > 1) {
            throw new ShapeException("index_select(): Index is supposed to be a vector, got shape " + Shape.str(index.shape));
        }
        if (x.dim() == 0) {
            Shape.wrapDim(dim, 0);
            long[] pos = index.toLongArray();
            for (long p : pos) {
                position(p, 1, 0);
            }
            return index.dim() == 0 ? x.clone() : x.reshape(1).expand(pos.length).contiguous();
        }
        int d = Shape.wrapDim(dim, x.dim());
        long[] pos = index.reshape(-1).toLongArray();
        int[] shape = x.shape();
        shape[d] = pos.length;
        if (x.isContiguous()) {
            return selectBlocks(x, d, positions(pos, x.shape[d], d), shape);
        }
        Tensor out = Tensor.zeros(x.dtype(), shape);
        for (int j = 0; j < pos.length; j++) {
            int p = (int) position(pos[j], x.shape[d], d);
            Elementwise.copy(Views.select(x, d, p), Views.select(out, d, j));
        }
        return out;
    }

    /** {@code self[..., index[j], ...] += alpha * source[..., j, ...]} along {@code dim}, in place. */
    static void indexAddInPlace(Tensor self, int dim, Tensor index, Tensor source, double alpha) {
        checkIndexTensor("index_add", index);
        if (index.dim() > 1) {
            throw new ShapeException("index_add_(): Index is supposed to be a vector, got shape " + Shape.str(index.shape));
        }
        long[] pos = index.reshape(-1).toLongArray();
        Tensor src = source.to(self.dtype());
        if (alpha != 1.0) {
            src = src.mul(alpha);
        }
        if (self.dim() == 0) {
            Tensor flat = src.reshape(-1);
            for (int j = 0; j < pos.length; j++) {
                position(pos[j], 1, 0);
                Elementwise.run(BinaryOp.ADD, self, Views.select(flat, 0, j), self);
            }
            return;
        }
        int d = Shape.wrapDim(dim, self.dim());
        int srcDimSize = src.dim() == 0 ? 1 : src.shape[d];
        if (srcDimSize != pos.length) {
            throw new ShapeException("index_add_(): Number of indices (" + pos.length + ") should be equal to source.size(dim) ("
                    + srcDimSize + ")");
        }
        if (blocksAddable(self, d, src)) {
            addBlocks(self, d, positions(pos, self.shape[d], d), src.contiguous());
            return;
        }
        for (int j = 0; j < pos.length; j++) {
            int p = (int) position(pos[j], self.shape[d], d);
            Tensor dst = Views.select(self, d, p);
            Tensor row = Views.select(src, d, j);
            if (!Shape.broadcastsTo(row.shape, dst.shape)) {
                throw new ShapeException("index_add_(): source slice " + Shape.str(row.shape) + " does not match self slice " + Shape.str(dst.shape));
            }
            Elementwise.run(BinaryOp.ADD, dst, row, dst);
        }
    }

    /** Every index checked against the dim's size, as ints: the fast paths below index arrays with them. */
    private static int[] positions(long[] pos, int size, int dim) {
        int[] out = new int[pos.length];
        for (int j = 0; j < pos.length; j++) {
            out[j] = (int) position(pos[j], size, dim);
        }
        return out;
    }

    /**
     * index_select of a contiguous x: along dim its elements are blocks of {@code inner} elements (a row of an
     * embedding's weight, an image of a dataset), so each selected block is one array copy into a result no one has to
     * zero first, instead of a view and a strided copy per index. Large selections (a batch of images) are split across
     * the threads by output block; each block is written once, so the split changes nothing in the result.
     */
    private static Tensor selectBlocks(Tensor x, int d, int[] pos, int[] shape) {
        Tensor out = Tensor.empty(x.dtype(), shape);
        int n = x.shape[d];
        int m = pos.length;
        int inner = Shape.contiguousStrides(x.shape)[d];
        int outer = m == 0 ? 0 : out.numel() / (m * inner);
        Object src = x.storage.array();
        Object dst = out.storage.array();
        int xo = x.offset;
        int blocks = outer * m;
        Parallel.forRange(blocks, Math.max(1, Tuning.parallelMin() / inner), (lo, hi) -> {
            for (int b = lo; b < hi; b++) {
                int o = b / m;
                int j = b - o * m;
                System.arraycopy(src, xo + (o * n + pos[j]) * inner, dst, b * inner, inner);
            }
        });
        return out;
    }

    /**
     * Whether index_add can add src's blocks into self's directly: both contiguous, of one numeric type, not sharing an
     * array, and src shaped as self but along dim (the shapes a view-per-index add would broadcast go the general way).
     */
    private static boolean blocksAddable(Tensor self, int d, Tensor src) {
        if (self.dtype() == DType.BOOL || src.dtype() != self.dtype() || !self.isContiguous() || src.dim() != self.dim()
                || self.storage.array() == src.storage.array()) {
            return false;
        }
        for (int k = 0; k < self.dim(); k++) {
            if (k != d && src.shape[k] != self.shape[k]) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code self[o, pos[j], :] += src[o, j, :]} over contiguous blocks, in the order of j for every element of self,
     * the order the view-per-index add takes, so an index repeated (an embedding's token seen twice) sums its rows in
     * the same order and to the same bits.
     */
    private static void addBlocks(Tensor self, int d, int[] pos, Tensor src) {
        int n = self.shape[d];
        int m = pos.length;
        int inner = Shape.contiguousStrides(self.shape)[d];
        int outer = m == 0 ? 0 : src.numel() / (m * inner);
        int so = self.offset;
        int ro = src.offset;
        for (int o = 0; o < outer; o++) {
            for (int j = 0; j < m; j++) {
                int to = so + (o * n + pos[j]) * inner;
                int from = ro + (o * m + j) * inner;
                switch (self.dtype()) {
                    case FLOAT32:
                        // Through the vector kernel, which a plain loop here did not keep up with; one rounded add per
                        // element either way, so the same bits.
                        Kernels.ELEMENTWISE.binary(BinaryOp.ADD, self.storage.f(), to, src.storage.f(), from, self.storage.f(), to, inner);
                        break;
                    case FLOAT64: {
                        double[] a = self.storage.d();
                        double[] b = src.storage.d();
                        for (int i = 0; i < inner; i++) {
                            a[to + i] += b[from + i];
                        }
                        break;
                    }
                    default: {
                        long[] a = self.storage.l();
                        long[] b = src.storage.l();
                        for (int i = 0; i < inner; i++) {
                            a[to + i] += b[from + i];
                        }
                        break;
                    }
                }
            }
        }
    }
}
