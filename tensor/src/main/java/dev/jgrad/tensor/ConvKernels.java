package dev.jgrad.tensor;

/**
 * A float32 2-d convolution (groups 1) as im2col and one matrix product over the whole batch, with the
 * padding read as zeros while the columns are filled, the bias added while the product is written into
 * the output's layout, and a backward that adds each column's gradient straight back into the input
 * (col2im) instead of through views. The columns are Caffe's, {@code (C KH KW, N OH OW)}: each row runs
 * along the output's rows, so the copies in and out run along unit strides.
 */
public final class ConvKernels {
    /** Rows of columns, or planes, per thread's range below which one thread does them all. */
    private static final int GRAIN_FLOATS = 16 * 1024;
    /** Up to this many columns per output position (C KH KW), the forward makes one product per sample. */
    static final int PER_SAMPLE_MAX_K = 64;

    private ConvKernels() {
    }

    /** Geometry as (height, width) pairs: kernel, stride, padding, dilation; and the output size. */
    public record Geometry(int kh, int kw, int sh, int sw, int ph, int pw, int dh, int dw, int oh, int ow) {
        int positions() {
            return oh * ow;
        }
    }

    /** The forward's result: {@code output (N, OC, OH, OW)} and the columns {@code (C KH KW, N OH OW)} backward needs. */
    public record ConvForward(Tensor output, Tensor columns) {
    }

    /** The gradients asked for (null where not): input {@code (N, C, H, W)}, weight {@code (OC, C, KH, KW)}, bias {@code (OC)}. */
    public record ConvGradients(Tensor input, Tensor weight, Tensor bias) {
    }

    /** {@code y = w * x + b} for {@code x (N, C, H, W)}, {@code w (OC, C, KH, KW)} and {@code b (OC)} or null. */
    public static ConvForward conv2d(Tensor x, Tensor w, Tensor b, Geometry geo) {
        check(x, w, b, geo);
        Tensor in = x.dense();
        int n = x.size(0);
        int oc = w.size(0);
        int per = w.size(1) * geo.kh() * geo.kw();
        int p = geo.positions();
        int np = n * p;
        Tensor columns = Tensor.empty(DType.FLOAT32, per, np);
        im2col(in, geo, columns.storage.f());
        Tensor out = Tensor.empty(DType.FLOAT32, n, oc, geo.oh(), geo.ow());
        float[] bias = b == null ? null : b.dense().storage.f();
        float[] o = out.storage.f();
        float[] wa = w.dense().storage.f();
        float[] cols = columns.storage.f();
        if (per <= PER_SAMPLE_MAX_K) {
            // A short k leaves the product bound by its writes of C: one product per sample, straight into its
            // (OC, P) block of the output, which starts as the bias (no zeroed buffer, no copy, no pass for the bias).
            Parallel.forRange(n, 1, (lo, hi) -> {
                for (int s = lo; s < hi; s++) {
                    int block = s * oc * p;
                    for (int c = 0; c < oc; c++) {
                        java.util.Arrays.fill(o, block + c * p, block + (c + 1) * p, bias == null ? 0f : bias[c]);
                    }
                    Gemm.sgemm(oc, per, p, wa, 0, per, 1, cols, s * p, np, 1, o, block, p);
                }
            });
            return new ConvForward(out, columns);
        }
        // Otherwise one product over the whole batch packs the weight once and keeps the tiles whole.
        float[] product = Tensor.zeros(DType.FLOAT32, oc, np).storage.f();
        Gemm.sgemm(oc, per, np, wa, 0, per, 1, cols, 0, np, 1, product, 0, np);
        // (OC, N, P) -> (N, OC, P), adding the bias on the way.
        Parallel.forRange(n * oc, Math.max(1, GRAIN_FLOATS / p), (lo, hi) -> {
            for (int t = lo; t < hi; t++) {
                int s = t / oc;
                int c = t % oc;
                int src = c * np + s * p;
                int dst = t * p;
                if (bias == null) {
                    System.arraycopy(product, src, o, dst, p);
                } else {
                    float bc = bias[c];
                    for (int q = 0; q < p; q++) {
                        o[dst + q] = product[src + q] + bc;
                    }
                }
            }
        });
        return new ConvForward(out, columns);
    }

    /**
     * The gradients from {@code grad (N, OC, OH, OW)}, for those {@code needs} asks for in the order input, weight,
     * bias; {@code inputShape} is x's, {@code w} and {@code columns} the forward's.
     */
    public static ConvGradients conv2dBackward(Tensor grad, Tensor w, Tensor columns, int[] inputShape, Geometry geo, boolean[] needs) {
        int n = inputShape[0];
        int oc = w.size(0);
        int per = columns.size(0);
        int p = geo.positions();
        int np = n * p;
        float[] g = grad.to(DType.FLOAT32).dense().storage.f();
        // (N, OC, P) -> (OC, N P): the product's layout.
        float[] gy = Tensor.empty(DType.FLOAT32, oc, np).storage.f();
        Parallel.forRange(n * oc, Math.max(1, GRAIN_FLOATS / p), (lo, hi) -> {
            for (int t = lo; t < hi; t++) {
                System.arraycopy(g, t * p, gy, (t % oc) * np + (t / oc) * p, p);
            }
        });
        Tensor dBias = null;
        if (needs[2]) {
            dBias = Tensor.empty(DType.FLOAT32, oc);
            float[] db = dBias.storage.f();
            for (int c = 0; c < oc; c++) {
                db[c] = (float) Reduce.sumFloats(gy, c * np, 1, np);
            }
        }
        Tensor dW = null;
        if (needs[1]) {
            dW = Tensor.zeros(DType.FLOAT32, w.shape());
            Gemm.sgemm(oc, np, per, gy, 0, np, 1, columns.storage.f(), columns.offset, 1, np, dW.storage.f(), 0, per);
        }
        Tensor dX = null;
        if (needs[0]) {
            float[] dCols = Tensor.zeros(DType.FLOAT32, per, np).storage.f();
            Gemm.sgemm(per, oc, np, w.dense().storage.f(), 0, 1, per, gy, 0, np, 1, dCols, 0, np);
            dX = Tensor.zeros(DType.FLOAT32, inputShape);
            col2im(dCols, geo, dX);
        }
        return new ConvGradients(dX, dW, dBias);
    }

    /** Fills {@code cols (C KH KW, N OH OW)} from the contiguous x, zeros where a window reaches into the padding. */
    private static void im2col(Tensor x, Geometry geo, float[] cols) {
        int n = x.size(0);
        int c = x.size(1);
        int h = x.size(2);
        int w = x.size(3);
        int kk = geo.kh() * geo.kw();
        int p = geo.positions();
        int np = n * p;
        float[] src = x.storage.f();
        Parallel.forRange(c * kk, Math.max(1, GRAIN_FLOATS / Math.max(1, np)), (lo, hi) -> {
            for (int row = lo; row < hi; row++) {
                int ch = row / kk;
                int ki = (row % kk) / geo.kw();
                int kj = row % geo.kw();
                int colRow = row * np;
                // The output columns whose input column lies inside the row: the same for every row of this kernel column.
                int x0 = kj * geo.dw() - geo.pw();
                int from = Math.min(geo.ow(), firstInside(x0, geo.sw()));
                int to = Math.max(from, endInside(x0, geo.sw(), w, geo.ow()));
                for (int s = 0; s < n; s++) {
                    int plane = (s * c + ch) * h * w;
                    for (int i = 0; i < geo.oh(); i++) {
                        int y = i * geo.sh() - geo.ph() + ki * geo.dh();
                        int dst = colRow + s * p + i * geo.ow();
                        if (y < 0 || y >= h) {
                            java.util.Arrays.fill(cols, dst, dst + geo.ow(), 0f);
                            continue;
                        }
                        int srcRow = plane + y * w;
                        java.util.Arrays.fill(cols, dst, dst + from, 0f);
                        if (geo.sw() == 1) {
                            System.arraycopy(src, srcRow + x0 + from, cols, dst + from, to - from);
                        } else {
                            for (int j = from, xx = x0 + from * geo.sw(); j < to; j++, xx += geo.sw()) {
                                cols[dst + j] = src[srcRow + xx];
                            }
                        }
                        java.util.Arrays.fill(cols, dst + to, dst + geo.ow(), 0f);
                    }
                }
            }
        });
    }

    /** Adds {@code cols (C KH KW, N OH OW)} back into the zeroed, contiguous {@code dx (N, C, H, W)}: one thread per plane. */
    private static void col2im(float[] cols, Geometry geo, Tensor dx) {
        int n = dx.size(0);
        int c = dx.size(1);
        int h = dx.size(2);
        int w = dx.size(3);
        int kk = geo.kh() * geo.kw();
        int p = geo.positions();
        int np = n * p;
        float[] dst = dx.storage.f();
        Parallel.forRange(n * c, Math.max(1, GRAIN_FLOATS / (kk * p)), (lo, hi) -> {
            for (int t = lo; t < hi; t++) {
                int s = t / c;
                int ch = t % c;
                int plane = t * h * w;
                for (int k = 0; k < kk; k++) {
                    int ki = k / geo.kw();
                    int kj = k % geo.kw();
                    int colRow = (ch * kk + k) * np + s * p;
                    int x0 = kj * geo.dw() - geo.pw();
                    int from = firstInside(x0, geo.sw());
                    int to = endInside(x0, geo.sw(), w, geo.ow());
                    for (int i = 0; i < geo.oh(); i++) {
                        int y = i * geo.sh() - geo.ph() + ki * geo.dh();
                        if (y < 0 || y >= h) {
                            continue;
                        }
                        int dstRow = plane + y * w;
                        int srcRow = colRow + i * geo.ow();
                        if (geo.sw() == 1) {
                            for (int j = from, at = dstRow + x0; j < to; j++) {
                                dst[at + j] += cols[srcRow + j];
                            }
                        } else {
                            for (int j = from; j < to; j++) {
                                dst[dstRow + x0 + j * geo.sw()] += cols[srcRow + j];
                            }
                        }
                    }
                }
            }
        });
    }

    /** The first output column j whose input column {@code x0 + j * stride} is not left of the input. */
    private static int firstInside(int x0, int stride) {
        return x0 >= 0 ? 0 : (-x0 + stride - 1) / stride;
    }

    /** One past the last output column j (at most {@code ow}) whose input column {@code x0 + j * stride} is inside {@code [0, w)}. */
    private static int endInside(int x0, int stride, int w, int ow) {
        return x0 >= w ? 0 : Math.min(ow, (w - 1 - x0) / stride + 1);
    }

    private static void check(Tensor x, Tensor w, Tensor b, Geometry geo) {
        boolean ok = x.dim() == 4 && w.dim() == 4 && w.size(1) == x.size(1) && w.size(2) == geo.kh() && w.size(3) == geo.kw()
                && x.dtype() == DType.FLOAT32 && w.dtype() == DType.FLOAT32
                && (b == null || (b.dtype() == DType.FLOAT32 && b.numel() == w.size(0)));
        if (!ok) {
            throw new ShapeException("conv2d kernel: expected float32 x (N, C, H, W), weight (OC, C, " + geo.kh() + ", " + geo.kw()
                    + ") and bias (OC), got x " + x.dtype() + " " + Shape.str(x.shape()) + ", weight " + w.dtype() + " "
                    + Shape.str(w.shape()) + (b == null ? "" : ", bias " + b.dtype() + " " + Shape.str(b.shape())));
        }
    }
}
