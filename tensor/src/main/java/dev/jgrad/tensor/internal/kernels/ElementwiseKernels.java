package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.BinaryOp;
import dev.jgrad.tensor.UnaryOp;

/**
 * Elementwise ops over runs of contiguous float32 elements; {@link ElementwiseLoops} hands them every unit-stride run
 * and does strided ones itself. Every method does the whole job for every op (an implementation that does not
 * vectorize an op or a length passes it to the plain loops).
 */
public interface ElementwiseKernels {
    /** {@code o[i] = a[i] op b[i]}. */
    void binary(BinaryOp op, float[] a, int ao, float[] b, int bo, float[] o, int oo, int n);

    /** {@code o[i] = a[i] op b[bo]}: a scalar right operand. */
    void binaryScalar(BinaryOp op, float[] a, int ao, float[] b, int bo, float[] o, int oo, int n);

    /** {@code o[i] = a[ao] op b[i]}: a scalar left operand. */
    void scalarBinary(BinaryOp op, float[] a, int ao, float[] b, int bo, float[] o, int oo, int n);

    /**
     * {@link #binary} over {@code rows} rows of n elements, each operand's rows {@code ars}, {@code brs}, {@code ors}
     * apart: short rows (a broadcast over (256, 256, 64)) cost one call, not one per row.
     */
    void binaryRows(BinaryOp op, float[] a, int ao, int ars, float[] b, int bo, int brs, float[] o, int oo, int ors, int rows, int n);

    /** {@code o[i] = a[i] cmp b[bo + i bs]} for a comparison op, where {@code bs} is 1 or 0 (a scalar right operand). */
    void compare(BinaryOp op, float[] a, int ao, float[] b, int bo, int bs, boolean[] o, int oo, int n);

    /**
     * {@code o[i] = op(a[i])}. The output may be the input itself only for EXP (softmax's exponentials in place): the
     * loops of other ops (SILU, LOG1P) write the output before they are done reading the input.
     */
    void unary(UnaryOp op, float[] a, int ao, float[] o, int oo, int n);

    /**
     * {@code dst[d0 + k dStride + i] = src[so + i sStride + k]} for {@code i < lines}, {@code k < len}: lines read along
     * their length laid side by side, as a transposed tensor's contiguous copy needs ({@code dStride >= lines}). Only
     * those elements are written.
     */
    void transposeLines(float[] src, int so, int sStride, int lines, int len, float[] dst, int d0, int dStride);

    /**
     * {@link #transposeLines} for lines {@code from <= i < lines}, one float at a time: sixteen lines at once, so that
     * each k writes a run of sixteen floats while the lines are read in step.
     */
    static void transposeLinesFrom(int from, float[] src, int so, int sStride, int lines, int len, float[] dst, int d0, int dStride) {
        for (int i0 = from; i0 < lines; i0 += 16) {
            int group = Math.min(16, lines - i0);
            for (int k = 0; k < len; k++) {
                int at = d0 + k * dStride + i0;
                int from0 = so + i0 * sStride + k;
                for (int i = 0; i < group; i++) {
                    dst[at + i] = src[from0 + i * sStride];
                }
            }
        }
    }

    /** {@code o[oo + i] = a[ao - i]} for {@code i < n}: a run read backwards (a flip along the last dim). */
    void reversed(float[] a, int ao, float[] o, int oo, int n);

    /**
     * Leaky ReLU, forward and backward in one: {@code o[i] = x[i] > 0 ? g[i] : g[i] * slope}, with g = x for the forward
     * (PyTorch's leaky_relu) and the incoming gradient for the backward (its leaky_relu_backward); NaN takes the slope.
     */
    void leakyRelu(float[] x, int xo, float[] g, int go, float slope, float[] o, int oo, int n);

    /** ReLU's backward: {@code o[i] = y[i] <= 0 ? 0 : g[i]} (a NaN output passes its gradient, as PyTorch's threshold_backward). */
    void reluBackward(float[] g, int go, float[] y, int yo, float[] o, int oo, int n);

    /**
     * A row of softmax's backward from its sum s, {@code o = v (g - s)} (v the output y), or with {@code log} of
     * log-softmax's, {@code o = g - v s} (v = e^y), each the op form's two float operations in their order.
     */
    void softmaxBackwardRow(boolean log, float[] g, int go, float[] v, int vo, float s, float[] o, int oo, int n);

    /**
     * {@code o[i] = m[mo + i ms] ? p[po + i ps] : q[qo + i qs]} at any strides (0: a scalar operand), choosing the bits
     * (NaN payloads and -0 as they are), not comparing values.
     */
    void where(boolean[] m, int mo, int ms, float[] p, int po, int ps, float[] q, int qo, int qs, float[] o, int oo, int n);

    /**
     * The backward of {@code op}, SIGMOID, TANH or SILU, from the gradient g and what the op saved, in the float
     * operations of its op form and their order (so the same bits): SIGMOID {@code o = g (y (1 - y))} and TANH
     * {@code o = g (1 - y y)} from the output y in {@code v}; SILU {@code o = g (s (x (1 - s) + 1))} from the input x in
     * {@code v} and {@code s = sigmoid(x)} in {@code s} (unused by the others).
     */
    void activationBackward(UnaryOp op, float[] g, int go, float[] v, int vo, float[] s, int so, float[] o, int oo, int n);

    /**
     * {@code o[i] = clamp(a[i], lo, hi)} by PyTorch's rule ({@link MathFns#clamp}): lo where a is below it, then hi where
     * that is above it, else a itself, so NaN stays NaN and a zero keeps its sign.
     */
    void clamp(float[] a, int ao, float lo, float hi, float[] o, int oo, int n);

    /** The exact GELU's backward: {@code o[i] = g[i] (Phi(x[i]) + x[i] phi(x[i]))}, Phi and phi the normal CDF and density. */
    void geluBackward(float[] g, int go, float[] x, int xo, float[] o, int oo, int n);

    /**
     * One batch row of an LSTM cell's backward, for {@code j < h}: from the output's gradient ({@code dy[yr + j]} for h,
     * {@code dy[yr + h + j]} for c), the gradients carried from the next step ({@code dh[hr + j]}, {@code dc[hr + j]}),
     * the activated gates i, f, g, o ({@code gates[gr + q h + j]}), tanh of the cell ({@code tc[tr + j]}) and the previous
     * step's h ({@code hPrev[pr + j]}), the gates' gradients into {@code dGates[gr + q h + j]} and the cell's gradient
     * carried back into {@code dc[hr + j]}, in the float operations, and their order, of the plain loop.
     */
    void lstmCellBackward(float[] dy, int yr, float[] dh, float[] dc, int hr, float[] gates, int gr, float[] tc, int tr, float[] hPrev,
                          int pr, float[] dGates, int h);
}
