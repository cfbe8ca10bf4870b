package dev.jgrad.nn;

import dev.jgrad.autograd.CustomFunction;
import dev.jgrad.autograd.Trace;
import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.internal.fused.FusedConv2d;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;

import java.util.Arrays;

/**
 * {@code F.conv1d} and {@code F.conv2d} (stride, padding, dilation, groups), composed of differentiable
 * ops as im2col: zero padding, {@code unfold} along each spatial dim (a view of every window), one copy
 * of the windows into rows, and one matrix product with the weight. The gradients come from those ops'
 * own rules: the product's, then unfold's, which adds each window's gradient back where it was read.
 * The columns are laid out as Caffe's im2col, {@code (C * prod(kernel), positions)} per sample, so that both
 * the copy into them and the adds of the backward run along the output's rows.
 */
public final class Convolution {
    private Convolution() {
    }

    /** {@code F.conv1d(x, w, b)}: x {@code (N, C, L)} or {@code (C, L)}, w {@code (OC, C / groups, K)}, b {@code (OC)} or null. */
    public static Variable conv1d(Variable x, Variable w, Variable b, int stride, int padding, int dilation, int groups) {
        return conv(x, w, b, new int[] {stride}, new int[] {padding}, new int[] {dilation}, groups, 1);
    }

    /** {@code F.conv2d(x, w, b)}: x {@code (N, C, H, W)} or {@code (C, H, W)}, w {@code (OC, C / groups, KH, KW)}, b {@code (OC)} or null. */
    public static Variable conv2d(Variable x, Variable w, Variable b, int[] stride, int[] padding, int[] dilation, int groups) {
        return conv(x, w, b, stride, padding, dilation, groups, 2);
    }

    /** A convolution over the last {@code k} dims of a batched {@code (N, C, *spatial)} or unbatched input. */
    static Variable conv(Variable x, Variable w, Variable b, int[] stride, int[] padding, int[] dilation, int groups, int k) {
        String name = "conv" + k + "d";
        if (x.dim() != k + 1 && x.dim() != k + 2) {
            throw new ShapeException("Expected " + (k + 1) + "D (unbatched) or " + (k + 2) + "D (batched) input to " + name
                    + ", but got input of size: " + Shape.str(x.shape()));
        }
        if (x.dim() == k + 1) {
            return conv(x.unsqueeze(0), w, b, stride, padding, dilation, groups, k).squeeze(0);
        }
        checkParams(name, k, stride, padding, dilation);
        int[] xs = x.shape();
        int[] ws = w.shape();
        if (ws.length != k + 2) {
            throw new ShapeException(name + ": expected a " + (k + 2) + "-d weight (out_channels, in_channels / groups, "
                    + (k == 1 ? "kernel" : "kH, kW") + "), got weight of size " + Shape.str(ws));
        }
        if (groups <= 0) {
            throw new IllegalArgumentException("non-positive groups is not supported, got groups=" + groups);
        }
        int n = xs[0];
        int c = xs[1];
        int oc = ws[0];
        if (oc % groups != 0) {
            throw new ShapeException("Given groups=" + groups + ", expected weight to be divisible by " + groups
                    + " at dimension 0, but got weight of size " + Shape.str(ws) + " instead");
        }
        if (c != ws[1] * groups) {
            throw new ShapeException("Given groups=" + groups + ", weight of size " + Shape.str(ws) + ", expected input"
                    + Shape.str(xs) + " to have " + ws[1] * groups + " channels, but got " + c + " channels instead");
        }
        if (b != null && (b.dim() != 1 || b.size(0) != oc)) {
            throw new ShapeException(name + ": expected a bias of shape [" + oc + "], got " + Shape.str(b.shape()));
        }
        int[] kernel = Arrays.copyOfRange(ws, 2, k + 2);
        int[] out = outputSize(xs, kernel, stride, padding, dilation, k);
        int mark = Trace.mark();
        Variable y;
        if (groups == 1 && Functional.allFloat32(x, w, b)) {
            y = k == 2 ? fused(x, w, b, kernel, stride, padding, dilation, out)
                    : fused(x.unsqueeze(2), w.unsqueeze(2), b, new int[] {1, kernel[0]}, new int[] {1, stride[0]},
                            new int[] {0, padding[0]}, new int[] {1, dilation[0]}, new int[] {1, out[0]}).squeeze(2);
        } else {
            y = composite(x, w, b, kernel, stride, padding, dilation, groups, k, out);
        }
        return Trace.annotate(mark, y, "conv", x, w, b, stride.clone(), padding.clone(), dilation.clone(), groups);
    }

    /** The convolution as im2col in differentiable ops: the definition of the fused op, and what it cannot run. */
    private static Variable composite(Variable x, Variable w, Variable b, int[] kernel, int[] stride, int[] padding, int[] dilation,
                                      int groups, int k, int[] out) {
        int[] xs = x.shape();
        int[] ws = w.shape();
        int n = xs[0];
        int c = xs[1];
        int oc = ws[0];
        Variable cols = windows(x.pad(padPairs(padding)), kernel, stride, dilation, k);
        // cols: (N, C, *out, *kernel), a view. Copied once into im2col's columns (N, [G,] C/G * prod(kernel), positions),
        // whose rows run along the output's last dim; the weight (OC, C/G * prod(kernel)) times each sample's columns
        // is then the output (N, OC, positions), already in its final layout.
        int positions = 1;
        for (int o : out) {
            positions *= o;
        }
        int per = ws[1];
        for (int kk : kernel) {
            per *= kk;
        }
        int[] outShape = new int[k + 2];
        outShape[0] = n;
        outShape[1] = oc;
        System.arraycopy(out, 0, outShape, 2, k);
        Variable y;
        if (groups == 1) {
            // The whole batch as one matrix (C * prod(kernel), N * positions): one large product with the
            // weight (and one for each gradient) instead of one small product per sample, which packed the
            // weight again for every sample and cut a partial tile at every sample's edge.
            Variable columns = cols.permute(batchColumnOrder(k)).reshape(per, n * positions);
            y = w.reshape(oc, per).matmul(columns).view(oc, n, positions).transpose(0, 1);
        } else {
            int[] grouped = new int[2 * k + 3];
            grouped[0] = n;
            grouped[1] = groups;
            grouped[2] = c / groups;
            int[] cs = cols.shape();
            System.arraycopy(cs, 2, grouped, 3, 2 * k);
            int[] order = new int[2 * k + 3];
            order[0] = 0;
            int[] inner = columnOrder(k);
            for (int i = 1; i < inner.length; i++) {
                order[i + 1] = inner[i] + 1;
            }
            order[1] = 1;
            Variable columns = cols.view(grouped).permute(order).reshape(n, groups, per, positions);
            y = w.reshape(groups, oc / groups, per).matmul(columns);
        }
        Variable r = y.reshape(outShape);
        if (b != null) {
            int[] bs = new int[k + 2];
            Arrays.fill(bs, 1);
            bs[1] = oc;
            r = r.add(b.view(bs));
        }
        return r;
    }

    /**
     * A float32 2-d convolution with groups 1 as one op ({@link FusedConv2d}): the same im2col and product as
     * the composite below, without its passes over views. The composite is the definition it is tested
     * against, and what other dtypes (float64, so gradcheck) and grouped convolutions use.
     */
    private static Variable fused(Variable x, Variable w, Variable b, int[] kernel, int[] stride, int[] padding, int[] dilation,
                                  int[] out) {
        Tensor y = FusedConv2d.conv2d(x.data(), w.data(), b == null ? null : b.data(), kernel, stride, padding, dilation, out);
        Variable[] inputs = b == null ? new Variable[] {x, w} : new Variable[] {x, w, b};
        return CustomFunction.apply("conv2d", y, inputs, new Tensor[] {x.data(), w.data()}, (g, saved, needs) -> {
            FusedConv2d.ConvGradients d = FusedConv2d.conv2dBackward(g, saved[0], saved[1], kernel, stride, padding, dilation, out,
                    new boolean[] {needs[0], needs[1], needs.length > 2 && needs[2]});
            return b == null ? new Tensor[] {d.input(), d.weight()} : new Tensor[] {d.input(), d.weight(), d.bias()};
        }, in -> composite(in[0], in[1], in.length > 2 ? in[2] : null, kernel, stride, padding, dilation, 1, 2, out));
    }

    /** The windows of x {@code (N, C, *spatial)}: {@code (N, C, *out, *kernel)}, a view (dilation takes every d-th element). */
    public static Variable windows(Variable x, int[] kernel, int[] stride, int[] dilation, int k) {
        Variable u = x;
        for (int i = 0; i < k; i++) {
            int span = dilation[i] * (kernel[i] - 1) + 1;
            u = u.unfold(2 + i, span, stride[i]);
            if (dilation[i] > 1) {
                u = u.slice(u.dim() - 1, 0, span, dilation[i]);
            }
        }
        return u;
    }

    /** The permutation of {@code (N, C, *out, *kernel)} to {@code (C, *kernel, N, *out)}: im2col's rows with the batch in each. */
    private static int[] batchColumnOrder(int k) {
        int[] p = new int[2 * k + 2];
        p[0] = 1;
        for (int d = 0; d < k; d++) {
            p[1 + d] = 2 + k + d;
            p[2 + k + d] = 2 + d;
        }
        p[1 + k] = 0;
        return p;
    }

    /** The permutation of {@code (N, C, *out, *kernel)} to im2col's order {@code (N, C, *kernel, *out)}. */
    private static int[] columnOrder(int k) {
        int[] p = new int[2 * k + 2];
        p[0] = 0;
        p[1] = 1;
        for (int d = 0; d < k; d++) {
            p[2 + d] = 2 + k + d;
            p[2 + k + d] = 2 + d;
        }
        return p;
    }

    /** The output sizes, or PyTorch's error where the (dilated) kernel is larger than the padded input. */
    static int[] outputSize(int[] xs, int[] kernel, int[] stride, int[] padding, int[] dilation, int k) {
        int[] out = new int[k];
        boolean tooBig = false;
        for (int i = 0; i < k; i++) {
            long padded = (long) xs[2 + i] + 2L * padding[i];
            long span = (long) dilation[i] * (kernel[i] - 1) + 1;
            tooBig |= span > padded;
            out[i] = tooBig ? 0 : (int) ((padded - span) / stride[i] + 1);
        }
        if (tooBig) {
            StringBuilder in = new StringBuilder();
            StringBuilder ks = new StringBuilder();
            for (int i = 0; i < k; i++) {
                in.append(i == 0 ? "" : " x ").append((long) xs[2 + i] + 2L * padding[i]);
                ks.append(i == 0 ? "" : " x ").append((long) dilation[i] * (kernel[i] - 1) + 1);
            }
            throw new ShapeException("Calculated padded input size per channel: (" + in + "). Kernel size: (" + ks
                    + "). Kernel size can't be greater than actual input size");
        }
        return out;
    }

    /** {@code F.pad}'s argument for symmetric padding of the last k dims: (last before, last after, ...). */
    static int[] padPairs(int[] padding) {
        int k = padding.length;
        int[] p = new int[2 * k];
        for (int i = 0; i < k; i++) {
            p[2 * i] = padding[k - 1 - i];
            p[2 * i + 1] = padding[k - 1 - i];
        }
        return p;
    }

    static void checkParams(String name, int k, int[] stride, int[] padding, int[] dilation) {
        if (stride.length != k || padding.length != k || dilation.length != k) {
            throw new IllegalArgumentException(name + ": stride, padding and dilation need " + k + " values each, got "
                    + Arrays.toString(stride) + ", " + Arrays.toString(padding) + ", " + Arrays.toString(dilation));
        }
        for (int i = 0; i < k; i++) {
            if (stride[i] <= 0) {
                throw new IllegalArgumentException(name + ": non-positive stride is not supported, got " + Arrays.toString(stride));
            }
            if (padding[i] < 0) {
                throw new IllegalArgumentException(name + ": negative padding is not supported, got " + Arrays.toString(padding));
            }
            if (dilation[i] <= 0) {
                throw new IllegalArgumentException(name + ": dilation should be greater than zero, got " + Arrays.toString(dilation));
            }
        }
    }
}
