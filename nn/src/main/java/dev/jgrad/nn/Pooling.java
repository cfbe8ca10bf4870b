package dev.jgrad.nn;

import dev.jgrad.autograd.CustomFunction;
import dev.jgrad.autograd.Trace;
import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.internal.fused.FusedMaxPool2d;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;

import java.util.Arrays;

/**
 * {@code F.max_pool1d}, {@code F.max_pool2d}, {@code F.avg_pool2d} and {@code F.adaptive_avg_pool2d}.
 * Average pooling is composed of differentiable ops (padding, {@code unfold} windows, a sum over each);
 * max pooling is a direct kernel ({@link FusedMaxPool2d}) that sends each window's gradient where PyTorch
 * sends it: to the first largest element in row-major window order, or to a NaN.
 */
public final class Pooling {
    private Pooling() {
    }

    /** {@code F.max_pool1d(x, kernel_size, stride, padding, dilation, ceil_mode)}; stride 0 means the kernel size. */
    public static Variable maxPool1d(Variable x, int kernel, int stride, int padding, int dilation, boolean ceilMode) {
        return maxPool(x, new int[] {kernel}, new int[] {stride}, new int[] {padding}, new int[] {dilation}, ceilMode, 1);
    }

    /** {@code F.max_pool2d(x, kernel_size, stride, padding, dilation, ceil_mode)}; a null or zero stride means the kernel size. */
    public static Variable maxPool2d(Variable x, int[] kernel, int[] stride, int[] padding, int[] dilation, boolean ceilMode) {
        return maxPool(x, kernel, stride, padding, dilation, ceilMode, 2);
    }

    /** {@code F.avg_pool2d(x, kernel_size, stride, padding, ceil_mode, count_include_pad)}. */
    public static Variable avgPool2d(Variable x, int[] kernel, int[] stride, int[] padding, boolean ceilMode, boolean countIncludePad) {
        int mark = Trace.mark();
        String name = "avg_pool2d";
        Variable in = batched(x, 2, name);
        int[] s = strideOrKernel(stride, kernel);
        int[] one = {1, 1};
        Geometry geo = geometry(name, in.shape(), kernel, s, padding, one, ceilMode, 2);
        Variable sums = Convolution.windows(in.pad(geo.pads), kernel, s, one, 2).sum(new int[] {-2, -1}, false);
        int[] size = {in.size(2), in.size(3)};
        Tensor divisor = Tensor.of(avgDivisor(geo.out, size, kernel, s, padding, countIncludePad), geo.out[0], geo.out[1]);
        Variable y = Trace.annotate(mark, sums.div(Variable.of(divisor.to(sums.dtype()))), "avg_pool", in, kernel.clone(), s, padding.clone(),
                ceilMode, countIncludePad);
        return x.dim() == 3 ? y.squeeze(0) : y;
    }

    /** {@code F.adaptive_avg_pool2d(x, output_size)}: output cell i averages input rows floor(i L / o) to ceil((i + 1) L / o). */
    public static Variable adaptiveAvgPool2d(Variable x, int outH, int outW) {
        Variable in = batched(x, 2, "adaptive_avg_pool2d");
        if (outH <= 0 || outW <= 0) {
            throw new IllegalArgumentException("adaptive_avg_pool2d: output_size must be positive, got [" + outH + ", " + outW + "]");
        }
        int h = in.size(2);
        int w = in.size(3);
        Variable ph = Variable.of(averagingMatrix(outH, h).to(in.dtype()));
        Variable pw = Variable.of(averagingMatrix(outW, w).to(in.dtype()));
        Variable y = ph.matmul(in.matmul(pw.t()));
        return x.dim() == 3 ? y.squeeze(0) : y;
    }

    /**
     * Max pooling is one direct kernel (one pass per window, the argmax kept for backward), which is
     * faster than a max over unfolded windows and its scatter; 1-d pooling runs as 2-d over a height of 1.
     */
    private static Variable maxPool(Variable x, int[] kernel, int[] stride, int[] padding, int[] dilation, boolean ceilMode, int k) {
        int mark = Trace.mark();
        String name = "max_pool" + k + "d";
        Variable in = batched(x, k, name);
        if (in.dtype() != DType.FLOAT32 && in.dtype() != DType.FLOAT64) {
            throw new IllegalArgumentException("\"" + name + "\" not implemented for " + in.dtype() + " (float32 and float64 only)");
        }
        int[] s = strideOrKernel(stride, kernel);
        Geometry geo = geometry(name, in.shape(), kernel, s, padding, dilation, ceilMode, k);
        Variable planes = k == 1 ? in.unsqueeze(-2) : in;
        FusedMaxPool2d.Window win = k == 1
                ? new FusedMaxPool2d.Window(new int[] {1, kernel[0]}, new int[] {1, s[0]}, new int[] {0, padding[0]},
                        new int[] {1, dilation[0]}, 1, geo.out[0])
                : new FusedMaxPool2d.Window(kernel.clone(), s, padding.clone(), dilation.clone(), geo.out[0], geo.out[1]);
        FusedMaxPool2d.Pooled r = FusedMaxPool2d.maxPool2d(planes.data(), win);
        int[] planeShape = planes.shape();
        // Its definition: the input read at the maxima found (piecewise linear, so exact where it is differentiable).
        Variable y = CustomFunction.apply(name, r.values(), new Variable[] {planes}, new Tensor[] {r.indices()},
                (g, saved, needs) -> new Tensor[] {FusedMaxPool2d.maxPool2dBackward(g, saved[0], planeShape, win)},
                ins -> readAt(ins[0], FusedMaxPool2d.flatIndices(r.indices(), win, planeShape[planeShape.length - 1])));
        y = Trace.annotate(mark, k == 1 ? y.squeeze(-2) : y, "max_pool", in, kernel.clone(), s, padding.clone(), dilation.clone(), ceilMode);
        return x.dim() == k + 1 ? y.squeeze(0) : y;
    }

    /** The elements of each plane of {@code planes (N, C, H, W)} at the flat positions {@code flat (N, C, oh, ow)}. */
    private static Variable readAt(Variable planes, Tensor flat) {
        int[] s = flat.shape();
        Variable rows = planes.reshape(s[0], s[1], -1);
        return rows.gather(2, flat.reshape(s[0], s[1], -1)).reshape(s);
    }

    /** An unbatched {@code (C, *spatial)} input gets a batch dim of 1. */
    private static Variable batched(Variable x, int k, String name) {
        if (x.dim() == k + 1) {
            return x.unsqueeze(0);
        }
        if (x.dim() != k + 2) {
            throw new ShapeException(name + ": Expected " + (k + 1) + "D or " + (k + 2) + "D input, but got input of size: "
                    + Shape.str(x.shape()));
        }
        return x;
    }

    private static int[] strideOrKernel(int[] stride, int[] kernel) {
        if (stride == null) {
            return kernel.clone();
        }
        int[] s = stride.clone();
        for (int i = 0; i < s.length; i++) {
            if (s[i] == 0) {
                s[i] = kernel[i];
            }
        }
        return s;
    }

    /** Output sizes and the padding that gives them: symmetric padding, plus what ceil mode's last window reaches past the end. */
    private record Geometry(int[] out, int[] pads) {
    }

    private static Geometry geometry(String name, int[] xs, int[] kernel, int[] stride, int[] padding, int[] dilation,
                                     boolean ceilMode, int k) {
        if (kernel.length != k || stride.length != k || padding.length != k || dilation.length != k) {
            throw new IllegalArgumentException(name + ": kernel_size, stride, padding and dilation need " + k + " values each");
        }
        int[] out = new int[k];
        int[] extra = new int[k];
        for (int i = 0; i < k; i++) {
            if (kernel[i] <= 0 || stride[i] <= 0 || dilation[i] <= 0) {
                throw new IllegalArgumentException(name + ": kernel_size, stride and dilation must be positive, got kernel_size="
                        + Arrays.toString(kernel) + ", stride=" + Arrays.toString(stride) + ", dilation=" + Arrays.toString(dilation));
            }
            int span = dilation[i] * (kernel[i] - 1) + 1;
            if (padding[i] < 0 || padding[i] > kernel[i] / 2) {
                throw new IllegalArgumentException(name + ": pad should be at most half of effective kernel size, but got pad="
                        + padding[i] + ", kernel_size=" + kernel[i] + " and dilation=" + dilation[i]);
            }
            long size = xs[2 + i];
            long room = size + 2L * padding[i] - span;
            long o = (ceilMode ? Math.floorDiv(room + stride[i] - 1, stride[i]) : Math.floorDiv(room, stride[i])) + 1;
            if (ceilMode && (o - 1) * stride[i] >= size + padding[i]) {
                o--;
            }
            if (o <= 0) {
                throw new ShapeException("Given input size: " + Shape.str(Arrays.copyOfRange(xs, 1, xs.length)) + ". Calculated output size: "
                        + "(" + o + "). Output size is too small (" + name + ")");
            }
            out[i] = (int) o;
            extra[i] = (int) Math.max(0, (o - 1) * stride[i] + span - (size + 2L * padding[i]));
        }
        int[] pads = new int[2 * k];
        for (int i = 0; i < k; i++) {
            int d = k - 1 - i;
            pads[2 * i] = padding[d];
            pads[2 * i + 1] = padding[d] + extra[d];
        }
        return new Geometry(out, pads);
    }

    /**
     * The divisor of each output cell: the window's size within the padded input (count_include_pad), or
     * within the input itself; the part of a ceil-mode window past the padded input never counts, as in PyTorch.
     */
    private static double[] avgDivisor(int[] out, int[] size, int[] kernel, int[] stride, int[] padding, boolean countIncludePad) {
        int[][] counts = new int[2][];
        for (int i = 0; i < 2; i++) {
            counts[i] = new int[out[i]];
            for (int o = 0; o < out[i]; o++) {
                int start = o * stride[i] - padding[i];
                int end = Math.min(start + kernel[i], size[i] + padding[i]);
                counts[i][o] = countIncludePad ? end - start : Math.min(end, size[i]) - Math.max(start, 0);
            }
        }
        double[] d = new double[out[0] * out[1]];
        for (int a = 0; a < out[0]; a++) {
            for (int b = 0; b < out[1]; b++) {
                d[a * out[1] + b] = counts[0][a] * counts[1][b];
            }
        }
        return d;
    }

    /** The (out, in) matrix whose row i averages inputs floor(i in / out) to ceil((i + 1) in / out) - 1. */
    static Tensor averagingMatrix(int out, int in) {
        double[] m = new double[out * in];
        for (int i = 0; i < out; i++) {
            int start = (int) Math.floor((double) i * in / out);
            int end = (int) Math.ceil((double) (i + 1) * in / out);
            for (int j = start; j < end; j++) {
                m[i * in + j] = 1.0 / (end - start);
            }
        }
        return Tensor.of(m, out, in);
    }
}
