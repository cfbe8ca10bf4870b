package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.internal.kernels.ConvGeometry;
import dev.jgrad.tensor.internal.kernels.ConvolutionKernels;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.internal.kernels.Gemm;
import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.PackedGemm;
import dev.jgrad.tensor.internal.kernels.Parallel;
import dev.jgrad.tensor.internal.kernels.Simd;
import dev.jgrad.tensor.internal.kernels.ThreadBuffer;
import dev.jgrad.tensor.internal.kernels.VectorRows;

import static dev.jgrad.tensor.internal.TensorAccess.dense;
import static dev.jgrad.tensor.internal.TensorAccess.empty;
import static dev.jgrad.tensor.internal.TensorAccess.floats;

/**
 * A float32 2-d convolution (groups 1) as im2col and matrix products, a chunk of samples at a time: each
 * chunk's columns {@code (C KH KW, G OH OW)} (Caffe's layout, rows along the output's rows) are filled with
 * the padding read as zeros, multiplied while they are still in the second-level cache, and dropped. A
 * whole batch's columns are many times that cache (a (64, 32, 13, 13) input makes 8.9 MB of them), and
 * writing them out and reading them back cost as much as the products. Backward recomputes each chunk's
 * columns from the saved input for the weight's gradient and adds each chunk's column gradient straight
 * back into the input (col2im) while it is in cache. Vector paths skip the columns' layout where the geometry
 * allows: the forward packs them from the input into the product's B, a 3 x 3 window's weight gradient reads the
 * input in place, and col2im writes each input row once when it fits a vector: the pieces of the
 * {@link ConvolutionKernels} family, whose plain reference computes the same numbers the plain way. Which paths a
 * call takes is its {@link ConvPlan}.
 */
public final class FusedConv2d {
    /** Floats of slack around a chunk's columns (see {@link ConvPlan#SLACK}). */
    private static final int SLACK = ConvPlan.SLACK;
    private static final ThreadBuffer COLUMNS = new ThreadBuffer();
    private static final ThreadBuffer PRODUCT = new ThreadBuffer();
    private static final ThreadBuffer GRADIENT = new ThreadBuffer();

    private FusedConv2d() {
    }

    /** The gradients asked for (null where not): input {@code (N, C, H, W)}, weight {@code (OC, C, KH, KW)}, bias {@code (OC)}. */
    public record ConvGradients(Tensor input, Tensor weight, Tensor bias) {
    }

    /**
     * {@code y = w * x + b} with the layer's (height, width) pairs: {@code kernel}, {@code stride}, {@code padding},
     * {@code dilation} and the output's size {@code out}.
     */
    public static Tensor conv2d(Tensor x, Tensor w, Tensor b, int[] kernel, int[] stride, int[] padding, int[] dilation, int[] out) {
        return conv2d(x, w, b, ConvGeometry.of(kernel, stride, padding, dilation, out));
    }

    /** The gradients of {@link #conv2d(Tensor, Tensor, Tensor, int[], int[], int[], int[], int[])}, for the same pairs. */
    public static ConvGradients conv2dBackward(Tensor grad, Tensor x, Tensor w, int[] kernel, int[] stride, int[] padding, int[] dilation,
                                               int[] out, boolean[] needs) {
        return conv2dBackward(grad, x, w, ConvGeometry.of(kernel, stride, padding, dilation, out), needs);
    }

    /** {@code y = w * x + b (N, OC, OH, OW)} for {@code x (N, C, H, W)}, {@code w (OC, C, KH, KW)} and {@code b (OC)} or null. */
    public static Tensor conv2d(Tensor x, Tensor w, Tensor b, ConvGeometry geo) {
        check(x, w, b, geo);
        Tensor in = dense(x);
        int n = x.size(0);
        int oc = w.size(0);
        int per = w.size(1) * geo.kh() * geo.kw();
        int p = geo.positions();
        Tensor out = empty(DType.FLOAT32, n, oc, geo.oh(), geo.ow());
        float[] bias = b == null ? null : floats(dense(b));
        float[] o = floats(out);
        float[] wa = floats(dense(w));
        ConvPlan plan = ConvPlan.forward(geo, n, w.size(1));
        int chunks = plan.chunks();
        PackedGemm.PackedA wp = plan.packsWeight() ? PackedGemm.packWhole(Kernels.gemmFor(oc), oc, per, wa, 0, per, 1) : null;
        boolean packedInput = plan.columns() == ConvPlan.Columns.PACKED_FROM_INPUT;
        Parallel.forEachTask(chunks, (lo, hi) -> {
            for (int t = lo; t < hi; t++) {
                int s0 = plan.first(t, n);
                int gs = plan.first(t + 1, n) - s0;
                int gp = gs * p;
                float[] cols = null;
                float[] bp = null;
                if (packedInput) {
                    bp = COLUMNS.get(Kernels.CONVOLUTION.packedColumnsSize(per, gp, wp.kernel.nr()));
                    Kernels.CONVOLUTION.packColumns(PaddedInput.of(in, geo, s0, gs), gs, wp.kernel.nr(), bp);
                } else {
                    cols = COLUMNS.get(per * gp + SLACK);
                    im2col(in, geo, plan, s0, gs, cols);
                }
                // A chunk of one sample (every chunk of a first layer, whose short k leaves the product bound by its writes):
                // the product goes straight into its (OC, P) block of the output, which starts as the bias.
                if (gs == 1) {
                    int block = s0 * oc * p;
                    for (int c = 0; c < oc; c++) {
                        java.util.Arrays.fill(o, block + c * p, block + (c + 1) * p, bias == null ? 0f : bias[c]);
                    }
                    forwardProduct(wp, bp, cols, wa, oc, per, false, p, o, block);
                    continue;
                }
                float[] product = PRODUCT.get(oc * gp);
                forwardProduct(wp, bp, cols, wa, oc, per, true, gp, product, 0);
                // (OC, G, P) -> (G, OC, P), adding the bias on the way.
                for (int s = 0; s < gs; s++) {
                    for (int c = 0; c < oc; c++) {
                        int src = c * gp + s * p;
                        int dst = ((s0 + s) * oc + c) * p;
                        float bc = bias == null ? 0f : bias[c];
                        for (int q = 0; q < p; q++) {
                            o[dst + q] = product[src + q] + bc;
                        }
                    }
                }
            }
        });
        return out;
    }

    /**
     * The gradients from {@code grad (N, OC, OH, OW)}, for those {@code needs} asks for in the order input, weight,
     * bias; {@code x} and {@code w} are the forward's. The batch is cut into parts (each summing its own share of the
     * weight's and bias's gradients, added in order after: the result does not depend on the thread count) and each part
     * into chunks of samples, which the plan's branches below handle.
     */
    public static ConvGradients conv2dBackward(Tensor grad, Tensor x, Tensor w, ConvGeometry geo, boolean[] needs) {
        Backward b = new Backward(grad, x, w, geo, needs);
        Parallel.forEachTask(b.parts, (lo, hi) -> {
            for (int part = lo; part < hi; part++) {
                for (int t = b.chunks * part / b.parts; t < b.chunks * (part + 1) / b.parts; t++) {
                    int s0 = b.plan.first(t, b.n);
                    int gs = b.plan.first(t + 1, b.n) - s0;
                    if (b.plan.samples() == ConvPlan.Samples.BLOCKS_IN_PLACE) {
                        b.samplesInPlace(part, s0, gs);
                        continue;
                    }
                    // The chunk's output gradient as (OC, G P), and the bias's gradient from it.
                    float[] gy = GRADIENT.get(b.oc * gs * b.p);
                    ChunkGradient.gather(b.g32, s0, gs, gy, b.dBParts, part * b.oc);
                    if (b.dWParts != null) {
                        b.weightGradient(part, s0, gs, gy);
                    }
                    if (b.dX != null) {
                        b.inputGradient(s0, gs, gy);
                    }
                }
            }
        });
        return new ConvGradients(b.dX, b.weightSum(w), b.biasSum());
    }

    /** One backward call's operands, plan and per-part sums, and each branch of the plan as a method of its own. */
    private static final class Backward {
        final Tensor in;
        final Tensor g32;
        final ConvGeometry geo;
        final ConvPlan plan;
        final int n;
        final int oc;
        final int per;
        final int p;
        final int chunks;
        final int parts;
        final float[] wa;
        /** The whole output gradient, dense, where the plan reads its blocks in place. */
        final float[] gAll;
        final Tensor dX;
        /** Each part's sum of the weight's gradient: (OC, C KH KW), or transposed (C KH KW, OC) where the plan says so. */
        final float[] dWParts;
        final double[] dBParts;
        /** The weight packed transposed for the input's gradient, where the plan packs it once for every chunk. */
        final PackedGemm.PackedA wtp;

        Backward(Tensor grad, Tensor x, Tensor w, ConvGeometry geo, boolean[] needs) {
            this.in = dense(x);
            this.g32 = grad.to(DType.FLOAT32);
            this.geo = geo;
            this.n = x.size(0);
            this.oc = w.size(0);
            this.per = w.size(1) * geo.kh() * geo.kw();
            this.p = geo.positions();
            this.wa = floats(dense(w));
            this.plan = ConvPlan.backward(geo, n, w.size(1), oc, x.size(3), needs);
            this.chunks = plan.chunks();
            this.parts = plan.weightParts();
            this.gAll = plan.samples() == ConvPlan.Samples.BLOCKS_IN_PLACE ? floats(dense(g32)) : null;
            this.dX = needs[0] ? empty(DType.FLOAT32, x.shape()) : null;
            this.dWParts = needs[1] ? floats(Tensor.zeros(DType.FLOAT32, parts, oc * per)) : null;
            this.dBParts = needs[2] ? new double[parts * oc] : null;
            this.wtp = plan.inputGradient() == ConvPlan.InputGradient.PACKED_WEIGHT
                    ? PackedGemm.packWhole(Kernels.gemmFor(per), per, oc, wa, 0, 1, per) : null;
        }

        /**
         * No input gradient (a first layer): the weight's and bias's gradients sample by sample, from the output
         * gradient's (OC, P) blocks in place, with no copy of it into the chunk's layout.
         */
        void samplesInPlace(int part, int s0, int gs) {
            float[] cols = dWParts == null ? null : COLUMNS.get(per * gs * p + SLACK);
            if (cols != null) {
                im2col(in, geo, plan, s0, gs, cols);
            }
            for (int s = 0; s < gs; s++) {
                int at = (s0 + s) * oc * p;
                if (dBParts != null) {
                    for (int c = 0; c < oc; c++) {
                        dBParts[part * oc + c] += Kernels.REDUCTIONS.sum(gAll, at + c * p, 1, p);
                    }
                }
                if (cols != null) {
                    Gemm.sgemm(oc, p, per, gAll, at, p, 1, cols, s * p, 1, gs * p, dWParts, part * oc * per, per);
                }
            }
        }

        /**
         * The chunk's part of the weight's gradient, transposed, (C KH KW, OC): read from the input in place by the window
         * kernel, or the chunk's columns times the output gradient transposed (which packs the small output gradient
         * transposed instead of the chunk's many columns).
         */
        void weightGradient(int part, int s0, int gs, float[] gy) {
            if (plan.weightGradient() == ConvPlan.WeightGradient.WINDOWED) {
                Kernels.CONVOLUTION.addWindowGradient(PaddedInput.of(in, geo, s0, gs), gs, gy, oc, dWParts, part * oc * per);
                return;
            }
            int gp = gs * p;
            float[] cols = COLUMNS.get(per * gp + SLACK);
            im2col(in, geo, plan, s0, gs, cols);
            Gemm.sgemm(per, gp, oc, cols, 0, gp, 1, gy, 0, 1, gp, dWParts, part * oc * per, oc);
        }

        /**
         * The chunk's part of the input's gradient: the weight transposed times the output gradient into column gradients,
         * added back where the columns were read from. Any columns made for the weight are done with, so their buffer takes
         * the column gradients and the chunk's working set stays one buffer of columns (second-level cache is a megabyte or less).
         */
        void inputGradient(int s0, int gs, float[] gy) {
            int gp = gs * p;
            float[] dCols = COLUMNS.get(SLACK + per * gp + SLACK);
            if (wtp != null) {
                PackedGemm.sgemmPacked(wtp, true, gp, gy, 0, gp, 1, dCols, SLACK, gp);
            } else {
                Gemm.sgemmInto(per, oc, gp, wa, 0, 1, per, gy, 0, gp, 1, dCols, SLACK, gp);
            }
            col2im(dCols, SLACK, geo, plan, dX, s0, gs);
        }

        /** The parts' weight gradients added in order, transposed back where they were; null where not asked for. */
        Tensor weightSum(Tensor w) {
            if (dWParts == null) {
                return null;
            }
            Tensor dW = empty(DType.FLOAT32, w.shape());
            float[] to = floats(dW);
            for (int o = 0; o < oc; o++) {
                for (int q = 0; q < per; q++) {
                    int at = plan.transposedWeightGradient() ? q * oc + o : o * per + q;
                    float sum = dWParts[at];
                    for (int part = 1; part < parts; part++) {
                        sum += dWParts[part * oc * per + at];
                    }
                    to[o * per + q] = sum;
                }
            }
            return dW;
        }

        /** The parts' bias gradients added in order; null where not asked for. */
        Tensor biasSum() {
            if (dBParts == null) {
                return null;
            }
            Tensor dB = empty(DType.FLOAT32, oc);
            float[] db = floats(dB);
            for (int c = 0; c < oc; c++) {
                double sum = 0;
                for (int part = 0; part < parts; part++) {
                    sum += dBParts[part * oc + c];
                }
                db[c] = (float) sum;
            }
            return dB;
        }
    }

    /**
     * Fills {@code cols (C KH KW, G OH OW)} with the columns of samples {@code [s0, s0 + g)} of the contiguous
     * x, zeros where a window reaches into the padding.
     */
    private static void im2col(Tensor x, ConvGeometry geo, ConvPlan plan, int s0, int g, float[] cols) {
        int c = x.size(1);
        int h = x.size(2);
        int w = x.size(3);
        int kk = geo.kh() * geo.kw();
        int p = geo.positions();
        int gp = g * p;
        float[] src = floats(x);
        for (int row = 0; row < c * kk; row++) {
            int ch = row / kk;
            int ki = (row % kk) / geo.kw();
            int kj = row % geo.kw();
            // The output columns whose input column lies inside the row: the same for every row of this kernel column.
            int x0 = kj * geo.dw() - geo.pw();
            int from = Math.min(geo.ow(), ConvGeometry.firstInside(x0, geo.sw()));
            int to = Math.max(from, ConvGeometry.endInside(x0, geo.sw(), w, geo.ow()));
            // Rows with no padding on either side are copied in whole vectors, past their end onto the next row.
            boolean whole = plan.vectorRows() && from == 0 && to == geo.ow();
            // The output rows whose input row lies inside the plane: [iLo, iHi), the same for every sample.
            int y0 = ki * geo.dh() - geo.ph();
            int iLo = Math.min(geo.oh(), ConvGeometry.firstInside(y0, geo.sh()));
            int iHi = Math.max(iLo, ConvGeometry.endInside(y0, geo.sh(), h, geo.oh()));
            for (int s = 0; s < g; s++) {
                int plane = ((s0 + s) * c + ch) * h * w;
                int block = row * gp + s * p;
                java.util.Arrays.fill(cols, block, block + iLo * geo.ow(), 0f);
                int first = plane + (iLo * geo.sh() + y0) * w + x0;
                int last = first + (iHi - 1 - iLo) * geo.sh() * w;
                if (whole && geo.sw() == 1 && iHi > iLo && last + VectorRows.span(to) <= src.length) {
                    VectorRows.copyRows(src, first, geo.sh() * w, cols, block + iLo * geo.ow(), geo.ow(), iHi - iLo, to);
                } else {
                    for (int i = iLo; i < iHi; i++) {
                        copyRow(src, first + (i - iLo) * geo.sh() * w, geo.sw(), cols, block + i * geo.ow(), from, to, geo.ow());
                    }
                }
                // Zeros after the copied rows, over what the last whole-vector copy wrote past its row.
                java.util.Arrays.fill(cols, block + iHi * geo.ow(), block + geo.oh() * geo.ow(), 0f);
            }
        }
    }

    /** One output row of columns at {@code cols[dst]}: zeros before {@code from} and from {@code to} on, the input between. */
    private static void copyRow(float[] src, int srcRow, int sw, float[] cols, int dst, int from, int to, int ow) {
        for (int j = 0; j < from; j++) {
            cols[dst + j] = 0f;
        }
        for (int j = from; j < to; j++) {
            cols[dst + j] = src[srcRow + j * sw];
        }
        for (int j = to; j < ow; j++) {
            cols[dst + j] = 0f;
        }
    }

    /**
     * The forward's product over {@code q} positions, {@code C (+)= W columns} into {@code c[co]} (rows {@code q} apart):
     * from the columns packed straight from the input ({@code bp}), else from the laid-out columns ({@code cols}) with
     * the weight packed ({@code wp}) or read in place ({@code wa}, {@code (OC, per)}).
     */
    private static void forwardProduct(PackedGemm.PackedA wp, float[] bp, float[] cols, float[] wa, int oc, int per, boolean overwrite,
                                       int q, float[] c, int co) {
        if (bp != null) {
            PackedGemm.sgemmPackedB(wp, overwrite, q, bp, c, co, q);
        } else if (wp != null) {
            PackedGemm.sgemmPacked(wp, overwrite, q, cols, 0, q, 1, c, co, q);
        } else {
            Gemm.sgemm(overwrite, oc, per, q, wa, 0, per, 1, cols, 0, q, 1, c, co, q);
        }
    }

    /**
     * Writes samples {@code [s0, s0 + g)} of the contiguous {@code dx (N, C, H, W)}: zeros, with the column
     * gradients {@code cols (C KH KW, G OH OW)}, starting at {@code cols[at]} with {@link #SLACK} floats of the buffer
     * on either side, added back where they were read from.
     */
    private static void col2im(float[] cols, int at, ConvGeometry geo, ConvPlan plan, Tensor dx, int s0, int g) {
        ConvolutionKernels pieces = plan.col2im() == ConvPlan.Col2im.VECTOR_ROWS ? Kernels.CONVOLUTION : ConvolutionKernels.PLAIN;
        pieces.col2im(cols, at, g * geo.positions(), geo, floats(dx), s0, g, dx.size(1), dx.size(2), dx.size(3));
    }

    private static void check(Tensor x, Tensor w, Tensor b, ConvGeometry geo) {
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
