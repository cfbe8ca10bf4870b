package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.UnaryOp;
import dev.jgrad.tensor.internal.kernels.ElementwiseLoops;
import dev.jgrad.tensor.internal.kernels.Gemm;
import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.Parallel;
import dev.jgrad.tensor.internal.kernels.Tuning;

import static dev.jgrad.tensor.internal.TensorAccess.dense;
import static dev.jgrad.tensor.internal.TensorAccess.empty;
import static dev.jgrad.tensor.internal.TensorAccess.floats;
import static dev.jgrad.tensor.internal.TensorAccess.offset;
import static dev.jgrad.tensor.internal.TensorAccess.strides;

/**
 * A whole LSTM layer in float32 as one forward and one backward, the way cuDNN runs it: the input
 * projection of every step is one matrix product, each step adds {@code h W_hh^T} into its slice of it and
 * applies the gates in place, and backward makes each weight's gradient with one product over all steps
 * instead of one per step. Time-major throughout: {@code x (T, B, In)}, states {@code (B, H)}, gates in
 * PyTorch's order i, f, g, o in {@code wIh (4H, In)} and {@code wHh (4H, H)}.
 */
public final class FusedLstm {
    private FusedLstm() {
    }

    /**
     * The forward's result. {@code output (T, B, 2H)} holds {@code [h_t | c_t]} for every step; it is a
     * view one step into a buffer whose first step is {@code [h0 | c0]}, so that step t's previous states
     * are at the same place for every t. {@code activated (T, B, 4H)} holds the gates after their
     * activations and {@code tanhCell (T, B, H)} {@code tanh(c_t)}, for backward.
     */
    public record LstmForward(Tensor output, Tensor activated, Tensor tanhCell) {
    }

    /** The gradients of an LSTM layer's inputs; each is null where it was not asked for. */
    public record LstmGradients(Tensor x, Tensor h0, Tensor c0, Tensor wIh, Tensor wHh, Tensor bias) {
    }

    /**
     * {@code c_t = σ(f) c_{t-1} + σ(i) tanh(g)}, {@code h_t = σ(o) tanh(c_t)} with
     * {@code [i f g o] = x_t W_ih^T + h_{t-1} W_hh^T + bIh + bHh}; either bias may be null.
     */
    public static LstmForward lstm(Tensor x, Tensor h0, Tensor c0, Tensor wIh, Tensor wHh, Tensor bIh, Tensor bHh) {
        int steps = x.size(0);
        int batch = x.size(1);
        int in = x.size(2);
        int h = wHh.size(1);
        int g = 4 * h;
        check(x, h0, c0, wIh, wHh, bIh, bHh);
        int rows = steps * batch;
        Tensor states = empty(DType.FLOAT32, steps + 1, batch, 2 * h);
        states.select(0, 0).narrow(1, 0, h).copyFrom(h0);
        states.select(0, 0).narrow(1, h, h).copyFrom(c0);
        float[] s = floats(states);

        float[] pre = floats(empty(DType.FLOAT32, rows, g));
        fillBias(pre, rows, g, bIh, bHh);
        Tensor xr = asRows(x);
        Tensor wi = dense(wIh);
        Gemm.sgemm(rows, in, g, floats(xr), offset(xr), strides(xr)[0], strides(xr)[1], floats(wi), 0, 1, in, pre, 0, g);

        // W_hh^T row-major once, so that every step's product reads it in place.
        Tensor whhT = dense(wHh.t());
        float[] wt = floats(whhT);
        Tensor activated = empty(DType.FLOAT32, steps, batch, g);
        Tensor tanhCell = empty(DType.FLOAT32, steps, batch, h);
        float[] a = floats(activated);
        float[] tc = floats(tanhCell);
        byRowChunks(2L * steps * batch * h * g, batch, (b0, b1) -> {
            for (int t = 0; t < steps; t++) {
                Gemm.sgemm(b1 - b0, h, g, s, (t * batch + b0) * 2 * h, 2 * h, 1, wt, 0, g, 1, pre, (t * batch + b0) * g, g);
                for (int b = b0; b < b1; b++) {
                    cell(pre, a, s, tc, t, batch, b, h);
                }
            }
        });
        return new LstmForward(states.narrow(0, 1, steps), activated, tanhCell);
    }

    /** Step t's gates, cell and hidden state for batch row b, from its pre-activations {@code pre} and the step before. */
    private static void cell(float[] pre, float[] a, float[] s, float[] tc, int t, int batch, int b, int h) {
        int g = 4 * h;
        int gr = (t * batch + b) * g;
        int prev = (t * batch + b) * 2 * h;
        int next = ((t + 1) * batch + b) * 2 * h;
        int tr = (t * batch + b) * h;
        ElementwiseLoops.unaryF(UnaryOp.SIGMOID, pre, gr, 1, a, gr, 1, 2 * h);
        ElementwiseLoops.unaryF(UnaryOp.TANH, pre, gr + 2 * h, 1, a, gr + 2 * h, 1, h);
        ElementwiseLoops.unaryF(UnaryOp.SIGMOID, pre, gr + 3 * h, 1, a, gr + 3 * h, 1, h);
        for (int j = 0; j < h; j++) {
            s[next + h + j] = a[gr + h + j] * s[prev + h + j] + a[gr + j] * a[gr + 2 * h + j];
        }
        ElementwiseLoops.unaryF(UnaryOp.TANH, s, next + h, 1, tc, tr, 1, h);
        for (int j = 0; j < h; j++) {
            s[next + j] = a[gr + 3 * h + j] * tc[tr + j];
        }
    }

    /**
     * The gradients from {@code grad (T, B, 2H)}, the gradient of the forward's output, for the inputs
     * {@code needs} asks for, in the order x, h0, c0, wIh, wHh, bias (one gradient for both biases). {@code x},
     * {@code wIh} and {@code wHh} are the forward's.
     */
    public static LstmGradients lstmBackward(Tensor grad, LstmForward fwd, Tensor x, Tensor wIh, Tensor wHh, boolean[] needs) {
        int steps = x.size(0);
        int batch = x.size(1);
        int in = x.size(2);
        int h = wHh.size(1);
        int g = 4 * h;
        int rows = steps * batch;
        Tensor gd = dense(grad.to(DType.FLOAT32));
        float[] dy = floats(gd);
        float[] a = floats(fwd.activated());
        float[] tc = floats(fwd.tanhCell());
        Tensor out = fwd.output();
        float[] s = floats(out);
        int s0 = offset(out) - batch * 2 * h;
        Tensor wh = dense(wHh);
        float[] w = floats(wh);

        float[] dGates = floats(empty(DType.FLOAT32, rows, g));
        Tensor dh = Tensor.zeros(DType.FLOAT32, batch, h);
        Tensor dc = Tensor.zeros(DType.FLOAT32, batch, h);
        float[] dhs = floats(dh);
        float[] dcs = floats(dc);
        byRowChunks(2L * steps * batch * h * g, batch, (b0, b1) -> {
            for (int t = steps - 1; t >= 0; t--) {
                for (int b = b0; b < b1; b++) {
                    int row = t * batch + b;
                    Kernels.ELEMENTWISE.lstmCellBackward(dy, row * 2 * h, dhs, dcs, b * h, a, row * g, tc, row * h, s,
                            s0 + row * 2 * h + h, dGates, h);
                }
                productInCache(b1 - b0, g, h, dGates, (t * batch + b0) * g, g, w, h, dhs, b0 * h);
            }
        });

        Tensor dx = null;
        Tensor dWih = null;
        Tensor dWhh = null;
        Tensor dBias = null;
        if (needs[0]) {
            Tensor wi = dense(wIh);
            dx = empty(DType.FLOAT32, steps, batch, in);
            Gemm.sgemmInto(rows, g, in, dGates, 0, g, 1, floats(wi), 0, in, 1, floats(dx), 0, in);
        }
        if (needs[3]) {
            Tensor xr = asRows(x);
            dWih = empty(DType.FLOAT32, g, in);
            Gemm.sgemmInto(g, rows, in, dGates, 0, 1, g, floats(xr), offset(xr), strides(xr)[0], strides(xr)[1], floats(dWih), 0, in);
        }
        if (needs[4]) {
            dWhh = empty(DType.FLOAT32, g, h);
            Gemm.sgemmInto(g, rows, h, dGates, 0, 1, g, s, s0, 2 * h, 1, floats(dWhh), 0, h);
        }
        if (needs[5]) {
            dBias = Tensor.zeros(DType.FLOAT32, g);
            float[] db = floats(dBias);
            // Row after row, as the scalar loop would add them: the same bits, a vector at a time.
            for (int r = 0; r < rows; r++) {
                Kernels.REDUCTIONS.addRow(dGates, r * g, db, 0, g);
            }
        }
        return new LstmGradients(dx, needs[1] ? dh : null, needs[2] ? dc : null, dWih, dWhh, dBias);
    }

    /**
     * {@code c = a b} for a row-major {@code a (n, k)} and {@code b (k, p)}, into c from {@code co} on (row stride p), cut
     * along k so that each part of b is small enough to be read in place ({@link Tuning#DIRECT_SMALL_B}) instead of packed:
     * every step of backward multiplies by the same {@code W_hh}, and packing it anew each time would cost a third of the
     * product. Every element is summed over the same parts of k in the same order, however many rows a call has.
     */
    private static void productInCache(int n, int k, int p, float[] a, int ao, int ars, float[] b, int brs, float[] c, int co) {
        int part = (int) Math.max(1, Math.min(k, Tuning.DIRECT_SMALL_B / p));
        for (int k0 = 0; k0 < k; k0 += part) {
            int kc = Math.min(part, k - k0);
            Gemm.sgemm(k0 == 0, n, kc, p, a, ao + k0, ars, 1, b, k0 * brs, brs, 1, c, co, p);
        }
    }

    /**
     * The batch rows a task of the recurrence takes: a tile of the matrix product ({@link Kernels#gemmFor}: 8 rows with
     * AVX-512, 5 with AVX2), so no tile is padded but at the batch's end. Fixed by the processor alone, never by the
     * threads, so each row's sums are the same on any number of threads.
     */
    static final int CHUNK_ROWS = Kernels.gemmFor(8).mr();

    /** The batch rows {@code [b0, b1)} of one chunk. */
    private interface RowChunk {
        void run(int b0, int b1);
    }

    /**
     * Runs {@code body} on each chunk of {@link #CHUNK_ROWS} batch rows: a row's recurrence needs no other row, so a chunk
     * runs through every step on one thread, the chunks shared among the threads when {@code flops} pay for it.
     */
    private static void byRowChunks(long flops, int batch, RowChunk body) {
        Parallel.forEachTaskCosting(flops, (batch + CHUNK_ROWS - 1) / CHUNK_ROWS, (lo, hi) -> {
            for (int chunk = lo; chunk < hi; chunk++) {
                int b0 = chunk * CHUNK_ROWS;
                body.run(b0, Math.min(batch, b0 + CHUNK_ROWS));
            }
        });
    }

    private static void fillBias(float[] pre, int rows, int g, Tensor bIh, Tensor bHh) {
        if (bIh == null && bHh == null) {
            java.util.Arrays.fill(pre, 0, rows * g, 0f);
            return;
        }
        Tensor bias = bIh == null ? bHh : (bHh == null ? bIh : bIh.add(bHh));
        float[] bs = floats(dense(bias));
        for (int r = 0; r < rows; r++) {
            System.arraycopy(bs, 0, pre, r * g, g);
        }
    }

    /** {@code x (T, B, In)} as {@code (T B, In)}: a view where x's layout allows one, else a copy. */
    private static Tensor asRows(Tensor x) {
        return x.reshape(x.size(0) * x.size(1), x.size(2));
    }

    private static void check(Tensor x, Tensor h0, Tensor c0, Tensor wIh, Tensor wHh, Tensor bIh, Tensor bHh) {
        int h = wHh.dim() == 2 ? wHh.size(1) : -1;
        boolean ok = x.dim() == 3 && h > 0 && wHh.size(0) == 4 * h && wIh.dim() == 2 && wIh.size(0) == 4 * h
                && wIh.size(1) == x.size(2) && java.util.Arrays.equals(h0.shape(), new int[] {x.size(1), h})
                && java.util.Arrays.equals(c0.shape(), h0.shape()) && (bIh == null || bIh.numel() == 4 * h)
                && (bHh == null || bHh.numel() == 4 * h);
        for (Tensor t : new Tensor[] {x, h0, c0, wIh, wHh, bIh, bHh}) {
            ok &= t == null || t.dtype() == DType.FLOAT32;
        }
        if (!ok) {
            throw new ShapeException("lstm kernel: expected float32 x (T, B, In), h0 and c0 (B, H), weight_ih (4H, In),"
                    + " weight_hh (4H, H) and biases (4H), got x " + Shape.str(x.shape()) + ", h0 " + Shape.str(h0.shape())
                    + ", c0 " + Shape.str(c0.shape()) + ", weight_ih " + Shape.str(wIh.shape()) + ", weight_hh "
                    + Shape.str(wHh.shape()));
        }
    }
}
