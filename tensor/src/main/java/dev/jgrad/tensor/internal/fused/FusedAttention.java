package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.Parallel;
import dev.jgrad.tensor.internal.kernels.ThreadBuffer;

import java.util.Arrays;

import static dev.jgrad.tensor.internal.TensorAccess.dense;
import static dev.jgrad.tensor.internal.TensorAccess.empty;
import static dev.jgrad.tensor.internal.TensorAccess.floats;
import static dev.jgrad.tensor.internal.TensorAccess.offset;
import static dev.jgrad.tensor.internal.TensorAccess.strides;

/**
 * Scaled dot-product attention without a mask tensor, {@code softmax(scale q k^T) v} (with {@code causal}, query i sees
 * keys 0..i only), in float32, forward and backward one head at a time. In place of two batched products, a
 * softmax and their five backward products, each over every (query, key) pair, a head's work stays in its thread's
 * caches, the products read q, k and v where they lie (heads cut out of one projection need no copies), and with the
 * causal mask a block of four queries (or keys) works only on the keys (queries) its rows can see: about half the work.
 * Within a block the pairs one row cannot see enter as zero weights, so a non-finite value there spreads into its
 * block's rows, as in the composite it spreads into every row.
 *
 * <p>q is {@code (..., T, d)}, k {@code (..., S, d)}, v {@code (..., S, dv)} with the same leading dims. The weights
 * {@code (..., T, S)} (zero past each query) are kept for the backward. Heads run on the threads, each whole on one, so
 * no result depends on the thread count. The products are {@link Kernels#ATTENTION}'s; the softmax rows are
 * {@link Kernels#SOFTMAX}'s, as the fused masked softmax's.
 */
public final class FusedAttention {
    /** Query rows per product: the kernels' register block. */
    private static final int ROWS = 4;
    private static final int LANES = Kernels.PROVIDER.vectorLanes();
    private static final ThreadBuffer SCRATCH = new ThreadBuffer();

    private FusedAttention() {
    }

    /** The output {@code (..., T, dv)} and the attention weights {@code (..., T, S)}. */
    public record Forward(Tensor output, Tensor weights) {
    }

    /** Whether these operands take the fused path: float32, at least 2 dims, the same leading dims, no empty dim. */
    public static boolean applies(Tensor q, Tensor k, Tensor v) {
        if (q.dtype() != DType.FLOAT32 || k.dtype() != DType.FLOAT32 || v.dtype() != DType.FLOAT32 || q.dim() < 2
                || k.dim() != q.dim() || v.dim() != q.dim() || q.numel() == 0 || k.numel() == 0 || v.numel() == 0) {
            return false;
        }
        int n = q.dim();
        for (int i = 0; i < n - 2; i++) {
            if (q.size(i) != k.size(i) || q.size(i) != v.size(i)) {
                return false;
            }
        }
        return q.size(-1) == k.size(-1) && k.size(-2) == v.size(-2);
    }

    /** One head's operands: where each starts in its array, and the row strides. */
    private record Head(Tensor t, float[] a, int[] base, int rs) {
        static Head of(Tensor t) {
            Tensor rows = strides(t)[t.dim() - 1] == 1 ? t : dense(t);
            return new Head(rows, floats(rows), headOffsets(rows), strides(rows)[rows.dim() - 2]);
        }
    }

    /**
     * The output, laid out as q (so that heads cut out of one projection come back together as a view), and the weights
     * (contiguous) for the backward. The operands must pass {@link #applies}.
     */
    public static Forward forward(Tensor q, Tensor k, Tensor v, boolean causal, double scale) {
        int t = q.size(-2);
        int s = k.size(-2);
        int d = q.size(-1);
        int dv = v.size(-1);
        Head hq = Head.of(q);
        Head hk = Head.of(k);
        Head hv = Head.of(v);
        int[] outShape = q.shape();
        outShape[outShape.length - 1] = dv;
        int[] wShape = q.shape();
        wShape[wShape.length - 1] = s;
        Head ho = Head.of(emptyLike(q, outShape));
        Tensor weights = empty(DType.FLOAT32, wShape);
        float[] w = floats(weights);
        float sc = (float) scale;
        forHeads(hq.base.length, (long) t * s * (d + dv), h -> {
            float[] kt = SCRATCH.get(d * s);
            Kernels.ATTENTION.transpose(hk.a, hk.base[h], hk.rs, s, d, kt, 0);
            int wo = h * t * s;
            for (int i0 = 0; i0 < t; i0 += ROWS) {
                int rows = Math.min(ROWS, t - i0);
                int n = seen(causal, i0 + rows - 1, s);
                Kernels.ATTENTION.rowsTimes(hq.a, hq.base[h] + i0 * hq.rs, hq.rs, 1, rows, 0, d, kt, 0, s, padded(n, s),
                        w, wo + i0 * s, s, false);
                for (int i = i0; i < i0 + rows; i++) {
                    int row = wo + i * s;
                    // Over whole vectors: the keys past the query's own enter as -inf, whose weights come out 0.
                    int seen = seen(causal, i, s);
                    int width = padded(seen, s);
                    Kernels.SOFTMAX.causalRow(w, row, seen, sc, width);
                    Arrays.fill(w, row + width, row + s, 0f);
                }
                // The block's rows over the keys its last row sees: the others' weights there are zeros.
                Kernels.ATTENTION.rowsTimes(w, wo + i0 * s, s, 1, rows, 0, n, hv.a, hv.base[h], hv.rs, dv,
                        ho.a, ho.base[h] + i0 * ho.rs, ho.rs, false);
            }
        });
        return new Forward(ho.t, weights);
    }

    /**
     * The gradients of q, k and v (null where {@code needs} says no) from the output's gradient, given the weights the
     * forward kept; each laid out as its operand.
     */
    public static Tensor[] backward(Tensor grad, Tensor q, Tensor k, Tensor v, Tensor weights, boolean causal, double scale,
                                    boolean[] needs) {
        int t = q.size(-2);
        int s = k.size(-2);
        int d = q.size(-1);
        int dv = v.size(-1);
        Head hq = Head.of(q);
        Head hk = Head.of(k);
        Head hv = Head.of(v);
        Head hg = Head.of(grad.to(DType.FLOAT32));
        float[] w = floats(weights);
        Head dq = needs[0] ? Head.of(emptyLike(q, q.shape())) : null;
        Head dk = needs[1] ? Head.of(emptyLike(k, k.shape())) : null;
        Head dvt = needs[2] ? Head.of(emptyLike(v, v.shape())) : null;
        float sc = (float) scale;
        forHeads(hq.base.length, 2L * t * s * (d + dv), h -> {
            int ts = t * s;
            // Scratch: V transposed, the weights' gradient and the scores' gradient.
            float[] buf = SCRATCH.get(dv * s + 2 * ts);
            int vt = 0;
            int dp = dv * s;
            int ds = dp + ts;
            int wo = h * ts;
            int gh = hg.base[h];
            Kernels.ATTENTION.transpose(hv.a, hv.base[h], hv.rs, s, dv, buf, vt);
            for (int i0 = 0; i0 < t; i0 += ROWS) {
                int rows = Math.min(ROWS, t - i0);
                int n = seen(causal, i0 + rows - 1, s);
                Kernels.ATTENTION.rowsTimes(hg.a, gh + i0 * hg.rs, hg.rs, 1, rows, 0, dv, buf, vt, s, padded(n, s), buf, dp + i0 * s, s, false);
            }
            for (int i = 0; i < t; i++) {
                // Over whole vectors, as the forward's softmax: the weights past the query's own are 0, so are their gradients.
                int width = padded(seen(causal, i, s), s);
                Kernels.SOFTMAX.gradient(buf, dp + i * s, w, wo + i * s, sc, buf, ds + i * s, width);
                Arrays.fill(buf, ds + i * s + width, ds + (i + 1) * s, 0f);
            }
            if (dq != null) {
                for (int i0 = 0; i0 < t; i0 += ROWS) {
                    int rows = Math.min(ROWS, t - i0);
                    Kernels.ATTENTION.rowsTimes(buf, ds + i0 * s, s, 1, rows, 0, seen(causal, i0 + rows - 1, s), hk.a, hk.base[h], hk.rs, d,
                            dq.a, dq.base[h] + i0 * dq.rs, dq.rs, false);
                }
            }
            if (dk != null) {
                timesTransposed(causal, buf, ds, t, s, hq.a, hq.base[h], hq.rs, d, dk, h);
            }
            if (dvt != null) {
                timesTransposed(causal, w, wo, t, s, hg.a, gh, hg.rs, dv, dvt, h);
            }
        });
        return new Tensor[] {dq == null ? null : dq.t, dk == null ? null : dk.t, dvt == null ? null : dvt.t};
    }

    /** The keys query i sees. */
    private static int seen(boolean causal, int i, int s) {
        return causal ? Math.min(s, i + 1) : s;
    }

    /** Score columns to compute: n rounded up to whole vectors where the row has room (the extra ones are masked anyway). */
    private static int padded(int n, int s) {
        return LANES == 0 ? n : Math.min(s, (n + LANES - 1) / LANES * LANES);
    }

    /**
     * Head h of {@code out = p^T x} for all s keys, p the weights (or their gradient) at {@code po}, {@code (t, s)}, read
     * by columns: key j's row sums the queries that see it, i >= j with the causal mask; a block of keys sums from its
     * first key's query on (the weights of the later keys there are zeros).
     */
    private static void timesTransposed(boolean causal, float[] p, int po, int t, int s, float[] x, int xo, int xs, int n,
                                        Head out, int h) {
        for (int j0 = 0; j0 < s; j0 += ROWS) {
            int rows = Math.min(ROWS, s - j0);
            Kernels.ATTENTION.rowsTimes(p, po + j0, 1, s, rows, causal ? Math.min(t, j0) : 0, t, x, xo, xs, n,
                    out.a, out.base[h] + j0 * out.rs, out.rs, false);
        }
    }

    /**
     * An unwritten float32 tensor of {@code shape} whose memory runs in the order of {@code like}'s dims (the last dim
     * last, its rows contiguous): the output of heads cut out of one projection is then laid out as that projection, and
     * putting the heads back together ({@code transpose(1, 2).reshape(B, T, C)}) is a view instead of a copy.
     */
    private static Tensor emptyLike(Tensor like, int[] shape) {
        int n = shape.length;
        int[] perm = new int[n];
        int k = 0;
        for (int dim : Shape.dimsByStride(strides(like))) {
            if (dim != n - 1) {
                perm[k++] = dim;
            }
        }
        perm[n - 1] = n - 1;
        int[] physical = new int[n];
        for (int i = 0; i < n; i++) {
            physical[i] = shape[perm[i]];
        }
        return empty(DType.FLOAT32, physical).permute(Shape.inversePermutation(perm));
    }

    /** Where each head's matrix starts, heads in row-major order of the leading dims. */
    private static int[] headOffsets(Tensor t) {
        int lead = t.dim() - 2;
        int[] shape = t.shape();
        int[] st = strides(t);
        int heads = (int) Shape.numel(Arrays.copyOf(shape, lead));
        int[] base = new int[heads];
        for (int h = 0; h < heads; h++) {
            int off = offset(t);
            int rest = h;
            for (int dim = lead - 1; dim >= 0; dim--) {
                off += (rest % shape[dim]) * st[dim];
                rest /= shape[dim];
            }
            base[h] = off;
        }
        return base;
    }

    /** Runs the heads, on the threads when the work pays for them (each head whole on one thread). */
    private static void forHeads(int heads, long flopsPerHead, java.util.function.IntConsumer head) {
        Parallel.RangeBody body = (lo, hi) -> {
            for (int h = lo; h < hi; h++) {
                head.accept(h);
            }
        };
        Parallel.forEachTaskCosting(heads * flopsPerHead * 2, heads, body);
    }
}
