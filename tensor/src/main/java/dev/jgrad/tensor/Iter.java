package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.Parallel;
import dev.jgrad.tensor.internal.kernels.Tuning;

/**
 * Walks an n-d index space shared by several operands, each with its own strides (0 where it is
 * broadcast), one contiguous-in-index "row" at a time. Dimensions of size 1 are dropped and
 * neighbouring dimensions that every operand lays out contiguously are merged first, so a
 * contiguous tensor is a single row and a kernel runs one tight loop over it.
 *
 * <p>Kernels receive the start offset of each operand for the row and the row length; the stride of
 * operand {@code k} along the row is {@link #rowStride(int)}.
 */
final class Iter {
    /** Called once per row; {@code off[k]} is operand k's offset of the row's first element. */
    interface Row {
        void run(int[] off, int n);
    }

    private final int[] shape;
    private final int[][] strides;
    private final int numel;

    private Iter(int[] shape, int[][] strides, int numel) {
        this.shape = shape;
        this.strides = strides;
        this.numel = numel;
    }

    /**
     * An iteration for an elementwise op, where the order of visits does not matter: the dims are first put in
     * the order of operand 0's (the destination's) memory layout, largest stride outermost, so that the rows
     * run along its contiguous dim even where that is not its last logical dim (a permuted or channels-last
     * result, a gradient kept in its own layout).
     */
    static Iter elementwise(int[] shape, int[]... strides) {
        int nd = shape.length;
        int[] order = Shape.dimsByStride(strides[0]);
        int[] s = new int[nd];
        int[][] st = new int[strides.length][nd];
        for (int i = 0; i < nd; i++) {
            s[i] = shape[order[i]];
            for (int o = 0; o < strides.length; o++) {
                st[o][i] = strides[o][order[i]];
            }
        }
        return of(s, st);
    }

    /** An iteration over {@code shape}; {@code strides[k]} is operand k's strides for that shape. */
    static Iter of(int[] shape, int[]... strides) {
        int numel = Shape.numel(shape);
        int k = strides.length;
        // Keep only dims of size > 1, outermost first.
        int nd = 0;
        int[] s = new int[Math.max(shape.length, 1)];
        int[][] st = new int[k][Math.max(shape.length, 1)];
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] == 1) {
                continue;
            }
            s[nd] = shape[i];
            for (int o = 0; o < k; o++) {
                st[o][nd] = strides[o][i];
            }
            nd++;
        }
        if (nd == 0) {
            s[0] = numel == 0 ? 0 : 1;
            nd = 1;
        }
        // Merge dim i into i+1 where every operand steps over i exactly as over a run of i+1.
        int w = 0;
        for (int i = 1; i < nd; i++) {
            boolean merge = true;
            for (int o = 0; o < k && merge; o++) {
                merge = st[o][w] == st[o][i] * s[i];
            }
            if (merge) {
                s[w] *= s[i];
                for (int o = 0; o < k; o++) {
                    st[o][w] = st[o][i];
                }
            } else {
                w++;
                s[w] = s[i];
                for (int o = 0; o < k; o++) {
                    st[o][w] = st[o][i];
                }
            }
        }
        nd = w + 1;
        int[] fs = java.util.Arrays.copyOf(s, nd);
        int[][] fst = new int[k][];
        for (int o = 0; o < k; o++) {
            fst[o] = java.util.Arrays.copyOf(st[o], nd);
        }
        return new Iter(fs, fst, numel);
    }

    /** Called once per block of {@code rows} consecutive rows along the second-innermost dimension. */
    interface Block {
        void run(int[] off, int rows, int n);
    }

    int rowLength() {
        return shape[shape.length - 1];
    }

    int rowStride(int operand) {
        return strides[operand][shape.length - 1];
    }

    /** Operand k's stride from one row of a {@link Block} to the next (0 for a single row). */
    int blockStride(int operand) {
        return shape.length < 2 ? 0 : strides[operand][shape.length - 2];
    }

    int numel() {
        return numel;
    }

    /**
     * {@link #forEachRow} split across threads when there are at least {@link Tuning#parallelMin()} elements. The
     * row kernel must only write the elements of its own rows (every elementwise kernel does).
     */
    void forEachRowParallel(int[] base, Row row) {
        forEachRowParallel(base, 1, row);
    }

    /** As {@link #forEachRowParallel(int[], Row)}, where each index stands for {@code work} elements (a softmax row, a reduced run). */
    void forEachRowParallel(int[] base, int work, Row row) {
        long total = (long) numel * Math.max(1, work);
        if (total < Tuning.parallelMin() || Parallel.threads() == 1) {
            forEachRow(base, row);
            return;
        }
        int perIndex = Math.max(1, work);
        int nd = shape.length;
        if (nd == 1) {
            forAlignedPieces(shape[0], Tuning.parallelMin() / 2 / perIndex, (lo, hi) -> row.run(offsetsAlong(base, lo), hi - lo));
            return;
        }
        int inner = shape[nd - 1];
        int rows = numel / inner;
        Parallel.forRange(rows, Math.max(1, Tuning.parallelMin() / 2 / Math.max(1, inner * perIndex)), (lo, hi) -> forEachRow(base, row, lo, hi));
    }

    /**
     * Where a one-dimensional iteration is split across the threads, each piece starts at a multiple of this many
     * elements: a multiple of every vector's lanes, so each element lands in the same lane of a kernel's vector loop
     * on one thread and on two. Kernels whose last few elements take a scalar formula (exp's Math.exp, for one) would
     * otherwise give other bits there when a piece's start cut a vector in two.
     */
    static final int PIECE_ALIGN = 64;

    /**
     * {@link Parallel#forRange} over {@code n} elements, at least about {@code grain} a piece, pieces cut at multiples of
     * {@link #PIECE_ALIGN}: one piece, on the calling thread, below two grains. Also the split of the elementwise passes
     * over contiguous tensors (binary ops of one shape, ReLU's, GELU's and the activations' backward).
     */
    static void forAlignedPieces(int n, int grain, Parallel.RangeBody body) {
        int units = (n + PIECE_ALIGN - 1) / PIECE_ALIGN;
        Parallel.forRange(units, Math.max(1, grain / PIECE_ALIGN), (lo, hi) -> body.run(lo * PIECE_ALIGN, Math.min(n, hi * PIECE_ALIGN)));
    }

    /** Each operand's offset of element {@code at} of a one-dimensional iteration. */
    private int[] offsetsAlong(int[] base, int at) {
        int[] off = new int[base.length];
        for (int o = 0; o < base.length; o++) {
            off[o] = base[o] + at * strides[o][0];
        }
        return off;
    }

    /**
     * As {@link #forEachRowParallel(int[], Row)}, handing the kernel whole runs of rows along the
     * second-innermost dimension ({@link #blockStride} apart): short rows then cost one call per run.
     */
    void forEachBlockParallel(int[] base, Block block) {
        int inner = shape[shape.length - 1];
        int rows = inner == 0 ? 0 : numel / inner;
        if (numel < Tuning.parallelMin() || Parallel.threads() == 1) {
            forEachBlock(base, block, 0, rows);
            return;
        }
        if (shape.length == 1) {
            // One row (operands laid out alike, as an in-place op on contiguous tensors): split along it.
            forAlignedPieces(inner, Tuning.parallelMin() / 2, (lo, hi) -> block.run(offsetsAlong(base, lo), 1, hi - lo));
            return;
        }
        Parallel.forRange(rows, Math.max(1, Tuning.parallelMin() / 2 / Math.max(1, inner)), (lo, hi) -> forEachBlock(base, block, lo, hi));
    }

    /** Runs {@code block} over rows [from, to), in runs that stop where the second-innermost index wraps. */
    void forEachBlock(int[] base, Block block, int from, int to) {
        if (from >= to || numel == 0) {
            return;
        }
        int nd = shape.length;
        int k = base.length;
        int inner = shape[nd - 1];
        if (nd == 1) {
            block.run(base.clone(), 1, inner);
            return;
        }
        int[] idx = new int[nd - 1];
        int[] off = seek(base, from, idx);
        int r = from;
        while (r < to) {
            int run = Math.min(to - r, shape[nd - 2] - idx[nd - 2]);
            block.run(off, run, inner);
            r += run;
            // Step to the next run: the second-innermost index moves by run, carrying outwards.
            idx[nd - 2] += run;
            for (int o = 0; o < k; o++) {
                off[o] += run * strides[o][nd - 2];
            }
            for (int d = nd - 2; d > 0 && idx[d] == shape[d]; d--) {
                idx[d] = 0;
                idx[d - 1]++;
                for (int o = 0; o < k; o++) {
                    off[o] += strides[o][d - 1] - strides[o][d] * shape[d];
                }
            }
        }
    }

    /**
     * The operands' offsets of row {@code row} (rows counted over every dim but the innermost), with its
     * index along those dims written into {@code idx}.
     */
    private int[] seek(int[] base, int row, int[] idx) {
        int[] off = base.clone();
        int rem = row;
        for (int d = shape.length - 2; d >= 0; d--) {
            idx[d] = rem % shape[d];
            rem /= shape[d];
            for (int o = 0; o < base.length; o++) {
                off[o] += idx[d] * strides[o][d];
            }
        }
        return off;
    }

    /** Runs {@code row} over rows [from, to) only. */
    void forEachRow(int[] base, Row row, int from, int to) {
        int nd = shape.length;
        int k = base.length;
        int inner = shape[nd - 1];
        int[] idx = new int[Math.max(nd - 1, 0)];
        int[] off = seek(base, from, idx);
        for (int r = from; r < to; r++) {
            row.run(off, inner);
            for (int d = nd - 2; d >= 0; d--) {
                idx[d]++;
                if (idx[d] < shape[d]) {
                    for (int o = 0; o < k; o++) {
                        off[o] += strides[o][d];
                    }
                    break;
                }
                idx[d] = 0;
                for (int o = 0; o < k; o++) {
                    off[o] -= strides[o][d] * (shape[d] - 1);
                }
            }
        }
    }

    /** Runs {@code row} over every row, starting from the operands' base offsets. */
    void forEachRow(int[] base, Row row) {
        if (numel == 0) {
            return;
        }
        if (shape.length == 1) {
            row.run(base.clone(), shape[0]);
            return;
        }
        forEachRow(base, row, 0, numel / shape[shape.length - 1]);
    }
}
