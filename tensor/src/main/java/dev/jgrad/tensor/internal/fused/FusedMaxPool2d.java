package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.Parallel;
import dev.jgrad.tensor.internal.kernels.PoolingKernels;
import dev.jgrad.tensor.internal.kernels.Tuning;

import static dev.jgrad.tensor.internal.TensorAccess.doubles;
import static dev.jgrad.tensor.internal.TensorAccess.empty;
import static dev.jgrad.tensor.internal.TensorAccess.floats;
import static dev.jgrad.tensor.internal.TensorAccess.longs;
import static dev.jgrad.tensor.internal.TensorAccess.offset;

/**
 * Max pooling over the last two dims of a stack of planes {@code (..., H, W)}, one pass per window, and
 * its backward. Each window keeps the flat index (in its plane) of its maximum the way PyTorch's CPU
 * kernel picks it: scanning the window row by row, a value replaces the maximum when it is larger or
 * NaN, so ties go to the first and a NaN wins. Windows are clipped to the plane, which is how padding
 * is handled (it is never chosen). Float32 and float64.
 */
public final class FusedMaxPool2d {
    private FusedMaxPool2d() {
    }

    /**
     * The pooled values {@code (..., outH, outW)} and, for backward, where each came from: for 2x2 windows at
     * stride 2 that tile the plane, the float32 offset of the maximum from its window's top-left element (0, 1,
     * W or W + 1: the vector kernel writes them as they are, a vector at a time); else the int64 flat index of the
     * maximum in its plane.
     */
    public record Pooled(Tensor values, Tensor indices) {
    }

    /** Window geometry: sizes, strides, padding and dilation as (height, width) pairs, and the output size. */
    public record Window(int[] kernel, int[] stride, int[] padding, int[] dilation, int outH, int outW) {
    }

    /** Max pooling of {@code x (..., H, W)} over {@code win}: the output and each window's position of its maximum, for the backward. */
    public static Pooled maxPool2d(Tensor x, Window win) {
        if (x.dim() < 2 || (x.dtype() != DType.FLOAT32 && x.dtype() != DType.FLOAT64)) {
            throw new IllegalArgumentException("max_pool2d: needs a float32 or float64 input with at least 2 dims, got "
                    + x.dtype() + " " + Shape.str(x.shape()));
        }
        Tensor in = x.isContiguous() ? x : x.contiguous();
        int[] shape = in.shape();
        int h = shape[shape.length - 2];
        int w = shape[shape.length - 1];
        int planes = h * w == 0 ? 0 : in.numel() / (h * w);
        int[] outShape = shape.clone();
        outShape[shape.length - 2] = win.outH;
        outShape[shape.length - 1] = win.outW;
        Tensor values = empty(x.dtype(), outShape);
        PoolPlan plan = PoolPlan.of(win, h, w, x.dtype());
        boolean tiles = plan != PoolPlan.WINDOWS;
        Tensor indices = empty(tiles ? DType.FLOAT32 : DType.INT64, outShape);
        int per = win.outH * win.outW;
        int grain = Math.max(1, Tuning.POOL_GRAIN_ELEMENTS / Math.max(1, h * w));
        if (plan == PoolPlan.TILES_FLOAT32) {
            Parallel.forRange(planes, grain, (lo, hi) ->
                    Kernels.POOLING.maxPool2x2(floats(in), offset(in), h, w, win.outH, win.outW, floats(values), floats(indices), lo, hi));
            return new Pooled(values, indices);
        }
        Parallel.forRange(planes, grain, (lo, hi) -> {
            for (int p = lo; p < hi; p++) {
                if (in.dtype() == DType.FLOAT32) {
                    planeF(floats(in), offset(in) + p * h * w, h, w, win, floats(values), longs(indices), p * per);
                } else if (tiles) {
                    long[] flat = new long[per];
                    int base = offset(in) + p * h * w;
                    double[] x64 = doubles(in);
                    argmaxes(i -> x64[base + i], h, w, win, flat, 0);
                    double[] out = doubles(values);
                    for (int j = 0; j < per; j++) {
                        out[p * per + j] = x64[base + (int) flat[j]];
                    }
                    offsets(flat, w, win.outW, floats(indices), p * per);
                } else {
                    planeD(doubles(in), offset(in) + p * h * w, h, w, win, doubles(values), longs(indices), p * per);
                }
            }
        });
        return new Pooled(values, indices);
    }

    /**
     * The int64 flat index of each maximum in its plane, whichever form {@link Pooled#indices()} has
     * ({@code w}: the plane's width).
     */
    public static Tensor flatIndices(Tensor indices, Window win, int w) {
        if (indices.dtype() == DType.INT64) {
            return indices;
        }
        float[] off = floats(indices);
        int io = offset(indices);
        int per = win.outH * win.outW;
        long[] flat = new long[indices.numel()];
        for (int i = 0; i < flat.length; i++) {
            int j = i % per;
            flat[i] = (long) off[io + i] + 2L * (j / win.outW) * w + 2L * (j % win.outW);
        }
        return Tensor.of(flat, indices.shape());
    }

    /** The usual 2x2 window at stride 2 without padding or dilation, every window inside the plane: four reads in window order. */
    static boolean halves(Window win, int h, int w) {
        return 2 * win.outH <= h && 2 * win.outW <= w && win.kernel[0] == 2 && win.kernel[1] == 2 && win.stride[0] == 2 && win.stride[1] == 2 && win.padding[0] == 0
                && win.padding[1] == 0 && win.dilation[0] == 1 && win.dilation[1] == 1;
    }

    /** Flat indices in a plane {@code w} wide as offsets from their 2x2 window's top-left element (see {@link Pooled}). */
    private static void offsets(long[] flat, int w, int outW, float[] off, int o) {
        for (int j = 0; j < flat.length; j++) {
            off[o + j] = (int) flat[j] - (2 * (j / outW) * w + 2 * (j % outW));
        }
    }

    private static void planeF(float[] x, int base, int h, int w, Window win, float[] out, long[] idx, int o) {
        argmaxes(i -> x[base + i], h, w, win, idx, o);
        for (int j = o; j < o + win.outH * win.outW; j++) {
            out[j] = x[base + (int) idx[j]];
        }
    }

    private static void planeD(double[] x, int base, int h, int w, Window win, double[] out, long[] idx, int o) {
        argmaxes(i -> x[base + i], h, w, win, idx, o);
        for (int j = o; j < o + win.outH * win.outW; j++) {
            out[j] = x[base + (int) idx[j]];
        }
    }

    /** One plane's elements by their flat index, widened to double (which keeps every float's order and NaN). */
    private interface Plane {
        double at(int i);
    }

    /** Each window's argmax in one plane, written to {@code idx} from {@code o} on, in output order. */
    private static void argmaxes(Plane x, int h, int w, Window win, long[] idx, int o) {
        int kh = win.kernel[0];
        int kw = win.kernel[1];
        int dh = win.dilation[0];
        int dw = win.dilation[1];
        for (int oh = 0; oh < win.outH; oh++) {
            int h0 = oh * win.stride[0] - win.padding[0];
            int h1 = Math.min(h0 + (kh - 1) * dh + 1, h);
            while (h0 < 0) {
                h0 += dh;
            }
            for (int ow = 0; ow < win.outW; ow++) {
                int w0 = ow * win.stride[1] - win.padding[1];
                int w1 = Math.min(w0 + (kw - 1) * dw + 1, w);
                while (w0 < 0) {
                    w0 += dw;
                }
                int best = h0 * w + w0;
                double max = Double.NEGATIVE_INFINITY;
                for (int r = h0; r < h1; r += dh) {
                    for (int c = w0; c < w1; c += dw) {
                        double v = x.at(r * w + c);
                        if (v > max || v != v) {
                            max = v;
                            best = r * w + c;
                        }
                    }
                }
                idx[o++] = best;
            }
        }
    }

    /**
     * The gradient of {@link #maxPool2d} over windows {@code win}: zeros of {@code inputShape} with each output's
     * gradient added at the index its value came from (windows that overlap can send several to one element).
     */
    public static Tensor maxPool2dBackward(Tensor grad, Tensor indices, int[] inputShape, Window win) {
        Tensor g = grad.isContiguous() ? grad : grad.contiguous();
        int h = inputShape[inputShape.length - 2];
        int w = inputShape[inputShape.length - 1];
        int per = g.size(-2) * g.size(-1);
        int planes = per == 0 ? 0 : g.numel() / per;
        PoolPlan plan = per == 0 ? PoolPlan.WINDOWS : PoolPlan.of(win, h, w, g.dtype());
        boolean tiles = plan != PoolPlan.WINDOWS;
        // 2x2 windows at stride 2 tile the plane: each element is written once, so nothing is zeroed first.
        Tensor gx = tiles ? empty(grad.dtype(), inputShape) : Tensor.zeros(grad.dtype(), inputShape);
        long[] idx = tiles ? null : longs(indices);
        float[] off = tiles ? floats(indices) : null;
        int io = offset(indices);
        int grain = Math.max(1, Tuning.POOL_GRAIN_ELEMENTS / Math.max(1, h * w));
        if (plan == PoolPlan.TILES_FLOAT32) {
            Parallel.forRange(planes, grain, (lo, hi) ->
                    Kernels.POOLING.maxPool2x2Backward(floats(g), offset(g), off, io, floats(gx), h, w, win.outH, win.outW, lo, hi));
            return gx;
        }
        Parallel.forRange(planes, grain, (lo, hi) -> {
            for (int p = lo; p < hi; p++) {
                int dst = p * h * w;
                int src = p * per;
                if (tiles) {
                    tiledPlane(doubles(g), offset(g) + src, off, io + src, doubles(gx), dst, h, w, win.outH, win.outW);
                } else if (g.dtype() == DType.FLOAT32) {
                    float[] from = floats(g);
                    float[] to = floats(gx);
                    for (int j = 0; j < per; j++) {
                        to[dst + (int) idx[io + src + j]] += from[offset(g) + src + j];
                    }
                } else {
                    double[] from = doubles(g);
                    double[] to = doubles(gx);
                    for (int j = 0; j < per; j++) {
                        to[dst + (int) idx[io + src + j]] += from[offset(g) + src + j];
                    }
                }
            }
        });
        return gx;
    }

    /**
     * One float64 plane of the gradient for 2x2 windows at stride 2: every window's four elements written (its gradient
     * at its argmax, zeros at the other three), then the row and column no window covers (odd sizes). The float32 planes
     * are the kernels' ({@link PoolingKernels}).
     */
    private static void tiledPlane(double[] g, int gAt, float[] off, int offAt, double[] gx, int dst, int h, int w, int outH, int outW) {
        for (int oh = 0; oh < outH; oh++) {
            int r0 = dst + 2 * oh * w;
            for (int ow = 0; ow < outW; ow++) {
                int i0 = r0 + 2 * ow;
                int j = oh * outW + ow;
                gx[i0] = 0;
                gx[i0 + 1] = 0;
                gx[i0 + w] = 0;
                gx[i0 + w + 1] = 0;
                gx[i0 + (int) off[offAt + j]] = g[gAt + j];
            }
            java.util.Arrays.fill(gx, r0 + 2 * outW, r0 + w, 0);
            java.util.Arrays.fill(gx, r0 + w + 2 * outW, r0 + 2 * w, 0);
        }
        java.util.Arrays.fill(gx, dst + 2 * outH * w, dst + h * w, 0);
    }
}
