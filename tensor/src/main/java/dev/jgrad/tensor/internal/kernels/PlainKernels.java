package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.BinaryOp;
import dev.jgrad.tensor.UnaryOp;

/**
 * The plain-Java kernels: the reference every Vector API kernel is tested against, and what runs where the Vector API
 * is absent. Floating sums run in double with several accumulators (C2 will not reorder a single floating sum).
 */
final class PlainKernels {
    /** The plain micro-kernel serves products of any height: it is the usual and the 8-row kernel at once. */
    private static final MicroKernel SCALAR = new ScalarMicroKernel();
    static final KernelProvider PROVIDER = new KernelProvider("plain Java", 0, new Elementwise(), new Reductions(),
            new Softmax(), new Pooling(), new Optimizer(), new PlainNorm(), new PlainAttention(), PlainConvolution.INSTANCE,
            SCALAR, SCALAR);

    private PlainKernels() {
    }

    private static final class Elementwise implements ElementwiseKernels {
        @Override
        public void binary(BinaryOp op, float[] a, int ao, float[] b, int bo, float[] o, int oo, int n) {
            PlainLoops.binaryF(op, a, ao, 1, b, bo, 1, o, oo, 1, n);
        }

        @Override
        public void binaryScalar(BinaryOp op, float[] a, int ao, float[] b, int bo, float[] o, int oo, int n) {
            PlainLoops.binaryF(op, a, ao, 1, b, bo, 0, o, oo, 1, n);
        }

        @Override
        public void scalarBinary(BinaryOp op, float[] a, int ao, float[] b, int bo, float[] o, int oo, int n) {
            PlainLoops.binaryF(op, a, ao, 0, b, bo, 1, o, oo, 1, n);
        }

        @Override
        public void binaryRows(BinaryOp op, float[] a, int ao, int ars, float[] b, int bo, int brs, float[] o, int oo, int ors, int rows, int n) {
            for (int r = 0; r < rows; r++) {
                PlainLoops.binaryF(op, a, ao + r * ars, 1, b, bo + r * brs, 1, o, oo + r * ors, 1, n);
            }
        }

        @Override
        public void compare(BinaryOp op, float[] a, int ao, float[] b, int bo, int bs, boolean[] o, int oo, int n) {
            PlainLoops.compareF(op, a, ao, 1, b, bo, bs, o, oo, 1, n);
        }

        @Override
        public void unary(UnaryOp op, float[] a, int ao, float[] o, int oo, int n) {
            PlainLoops.unaryF(op, a, ao, 1, o, oo, 1, n);
        }

        @Override
        public void clamp(float[] a, int ao, float lo, float hi, float[] o, int oo, int n) {
            for (int i = 0; i < n; i++) {
                o[oo + i] = MathFns.clamp(a[ao + i], lo, hi);
            }
        }

        @Override
        public void reversed(float[] a, int ao, float[] o, int oo, int n) {
            for (int i = 0; i < n; i++) {
                o[oo + i] = a[ao - i];
            }
        }

        @Override
        public void transposeLines(float[] src, int so, int sStride, int lines, int len, float[] dst, int d0, int dStride) {
            ElementwiseKernels.transposeLinesFrom(0, src, so, sStride, lines, len, dst, d0, dStride);
        }

        @Override
        public void leakyRelu(float[] x, int xo, float[] g, int go, float slope, float[] o, int oo, int n) {
            for (int i = 0; i < n; i++) {
                o[oo + i] = x[xo + i] > 0 ? g[go + i] : g[go + i] * slope;
            }
        }

        @Override
        public void reluBackward(float[] g, int go, float[] y, int yo, float[] o, int oo, int n) {
            for (int i = 0; i < n; i++) {
                o[oo + i] = y[yo + i] <= 0 ? 0 : g[go + i];
            }
        }

        @Override
        public void softmaxBackwardRow(boolean log, float[] g, int go, float[] v, int vo, float s, float[] o, int oo, int n) {
            softmaxBackwardRowFrom(0, log, g, go, v, vo, s, o, oo, n);
        }

        @Override
        public void where(boolean[] m, int mo, int ms, float[] p, int po, int ps, float[] q, int qo, int qs, float[] o, int oo, int n) {
            whereFrom(0, m, mo, ms, p, po, ps, q, qo, qs, o, oo, n);
        }

        @Override
        public void activationBackward(UnaryOp op, float[] g, int go, float[] v, int vo, float[] s, int so, float[] o, int oo, int n) {
            activationBackwardFrom(0, op, g, go, v, vo, s, so, o, oo, n);
        }

        @Override
        public void geluBackward(float[] g, int go, float[] x, int xo, float[] o, int oo, int n) {
            for (int i = 0; i < n; i++) {
                double v = x[xo + i];
                double cdf = 0.5 * (1.0 + MathFns.erfFloat(v * MathFns.INV_SQRT_2));
                double pdf = Math.exp(-0.5 * v * v) * MathFns.INV_SQRT_2PI;
                o[oo + i] = (float) (g[go + i] * (cdf + v * pdf));
            }
        }

        @Override
        public void lstmCellBackward(float[] dy, int yr, float[] dh, float[] dc, int hr, float[] gates, int gr, float[] tc, int tr,
                                     float[] hPrev, int pr, float[] dGates, int h) {
            lstmCellBackwardFrom(0, dy, yr, dh, dc, hr, gates, gr, tc, tr, hPrev, pr, dGates, h);
        }
    }

    /** {@link ElementwiseKernels#lstmCellBackward} for {@code from <= j < h}: the plain loop, and the vector loop's tail. */
    static void lstmCellBackwardFrom(int from, float[] dy, int yr, float[] dh, float[] dc, int hr, float[] gates, int gr, float[] tc,
                                     int tr, float[] hPrev, int pr, float[] dGates, int h) {
        for (int j = from; j < h; j++) {
            float gh = dy[yr + j] + dh[hr + j];
            float i = gates[gr + j];
            float f = gates[gr + h + j];
            float gg = gates[gr + 2 * h + j];
            float o = gates[gr + 3 * h + j];
            float tanhC = tc[tr + j];
            float dNew = dy[yr + h + j] + dc[hr + j] + gh * o * (1 - tanhC * tanhC);
            dGates[gr + j] = dNew * gg * i * (1 - i);
            dGates[gr + h + j] = dNew * hPrev[pr + j] * f * (1 - f);
            dGates[gr + 2 * h + j] = dNew * i * (1 - gg * gg);
            dGates[gr + 3 * h + j] = gh * tanhC * o * (1 - o);
            dc[hr + j] = dNew * f;
        }
    }

    private static final class Reductions implements ReductionKernels {
        @Override
        public int countTrue(boolean[] m, int off, int n) {
            int c = 0;
            for (int i = 0; i < n; i++) {
                c += m[off + i] ? 1 : 0;
            }
            return c;
        }

        @Override
        public double product(float[] a, int off, int n) {
            return ReductionKernels.productChains(a, off, 1, n);
        }

        @Override
        public float extreme(float[] a, int off, int n, boolean min) {
            float m = min ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                m = min ? Math.min(m, a[off + i]) : Math.max(m, a[off + i]);
            }
            return m;
        }

        @Override
        public double sumOfSquares(float[] a, int off, int n) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                float x = a[off + i];
                s += x * x;
            }
            return s;
        }

        @Override
        public double sum(float[] a, int off, int stride, int n) {
            double s0 = 0;
            double s1 = 0;
            double s2 = 0;
            double s3 = 0;
            int i = 0;
            if (stride == 1) {
                for (; i + 3 < n; i += 4) {
                    s0 += a[off + i];
                    s1 += a[off + i + 1];
                    s2 += a[off + i + 2];
                    s3 += a[off + i + 3];
                }
            }
            for (; i < n; i++) {
                s0 += a[off + i * stride];
            }
            return (s0 + s1) + (s2 + s3);
        }

        /** {@link #sum}'s order over the float products of a and b, so its bits. */
        @Override
        public double sumOfProducts(float[] a, int ao, float[] b, int bo, int n) {
            double s0 = 0;
            double s1 = 0;
            double s2 = 0;
            double s3 = 0;
            int i = 0;
            for (; i + 3 < n; i += 4) {
                s0 += a[ao + i] * b[bo + i];
                s1 += a[ao + i + 1] * b[bo + i + 1];
                s2 += a[ao + i + 2] * b[bo + i + 2];
                s3 += a[ao + i + 3] * b[bo + i + 3];
            }
            for (; i < n; i++) {
                s0 += a[ao + i] * b[bo + i];
            }
            return (s0 + s1) + (s2 + s3);
        }

        @Override
        public void addRow(float[] src, int from, float[] dst, int to, int len) {
            for (int j = 0; j < len; j++) {
                dst[to + j] += src[from + j];
            }
        }

        @Override
        public void columnSums(float[] src, int from, int stride, int rows, float[] dst, int len) {
            java.util.Arrays.fill(dst, 0, len, 0f);
            for (int r = 0; r < rows; r++) {
                addRow(src, from + r * stride, dst, 0, len);
            }
        }

        @Override
        public double copySum(float[] src, int from, float[] dst, int to, int len) {
            double sum = 0;
            for (int j = 0; j < len; j++) {
                dst[to + j] = src[from + j];
                sum += src[from + j];
            }
            return sum;
        }
    }

    private static final class Softmax implements SoftmaxKernels {
        @Override
        public void row(float[] a, int ao, int as, float[] o, int oo, int os, int n, boolean log) {
            double m = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < n; k++) {
                m = Math.max(m, a[ao + k * as]);
            }
            double sum = 0;
            for (int k = 0; k < n; k++) {
                sum += Math.exp(a[ao + k * as] - m);
            }
            if (log) {
                double lse = m + Math.log(sum);
                for (int k = 0; k < n; k++) {
                    o[oo + k * os] = (float) (a[ao + k * as] - lse);
                }
            } else {
                double inv = 1.0 / sum;
                for (int k = 0; k < n; k++) {
                    o[oo + k * os] = (float) (Math.exp(a[ao + k * as] - m) * inv);
                }
            }
        }

        @Override
        public float max(float[] a, int off, int n) {
            float m = Float.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                m = Math.max(m, a[off + i]);
            }
            return m;
        }

        @Override
        public double expShifted(float[] a, int ao, float[] o, int oo, int n, float m, double factor) {
            double sum = 0;
            for (int i = 0; i < n; i++) {
                double e = Math.exp(a[ao + i] - (double) m);
                sum += e;
                o[oo + i] = (float) (e * factor);
            }
            return sum;
        }

        @Override
        public void expShiftedColumns(float[] a, int ao, float[] max, float[] o, int oo, double[] sum, int n) {
            for (int i = 0; i < n; i++) {
                float e = (float) Math.exp(a[ao + i] - max[i]);
                o[oo + i] = e;
                sum[i] += e;
            }
        }

        @Override
        public void addScalar(float[] a, int ao, float[] o, int oo, int n, double c) {
            for (int i = 0; i < n; i++) {
                o[oo + i] = (float) (a[ao + i] + c);
            }
        }

        @Override
        public boolean maskedScale(float[] a, int ao, boolean[] m, int mo, int ms, int seen, float sc, float[] o, int oo, int n) {
            boolean any = false;
            for (int j = 0; j < n; j++) {
                boolean out = j >= seen || (m != null && m[mo + j * ms]);
                o[oo + j] = out ? Float.NEGATIVE_INFINITY : a[ao + j] * sc;
                any |= !out;
            }
            return any;
        }

        @Override
        public void gradient(float[] g, int go, float[] y, int yo, float sc, float[] d, int dOff, int n) {
            double dot = 0;
            for (int j = 0; j < n; j++) {
                dot += g[go + j] * y[yo + j];
            }
            float dt = (float) dot;
            for (int j = 0; j < n; j++) {
                d[dOff + j] = sc * y[yo + j] * (g[go + j] - dt);
            }
        }
    }

    static final class Optimizer implements OptimizerKernels {
        @Override
        public void adam(float[] p, int po, float[] g, int go, float[] m, int mo, float[] v, int vo, int n,
                         float b1, float b2, float l2, float stepSize, float bc2Sqrt, float eps) {
            adamRange(p, po, g, go, m, mo, v, vo, 0, n, b1, b2, l2, stepSize, bc2Sqrt, eps);
        }

        /** The float32 update over elements {@code [from, to)}: every operation in float, so the vector kernel's tail computes what its body does. */
        static void adamRange(float[] p, int po, float[] g, int go, float[] m, int mo, float[] v, int vo, int from, int to,
                              float b1, float b2, float l2, float stepSize, float bc2Sqrt, float eps) {
            float c1 = 1 - b1;
            float c2 = 1 - b2;
            for (int i = from; i < to; i++) {
                float pi = p[po + i];
                float gi = g[go + i] + pi * l2;
                float mi = m[mo + i] * b1 + gi * c1;
                float vi = v[vo + i] * b2 + gi * gi * c2;
                mi = Math.abs(mi) < FLUSH ? 0 : mi;
                vi = vi < FLUSH ? 0 : vi;
                m[mo + i] = mi;
                v[vo + i] = vi;
                float denom = (float) Math.sqrt(vi) / bc2Sqrt + eps;
                p[po + i] = pi - stepSize * mi / denom;
            }
        }

        @Override
        public void adam(double[] p, int po, double[] g, int go, double[] m, int mo, double[] v, int vo, int n,
                         double b1, double b2, double l2, double stepSize, double bc2Sqrt, double eps) {
            double c1 = 1 - b1;
            double c2 = 1 - b2;
            for (int i = 0; i < n; i++) {
                double pi = p[po + i];
                double gi = g[go + i] + pi * l2;
                double mi = m[mo + i] * b1 + gi * c1;
                double vi = v[vo + i] * b2 + gi * gi * c2;
                mi = Math.abs(mi) < FLUSH ? 0 : mi;
                vi = vi < FLUSH ? 0 : vi;
                m[mo + i] = mi;
                v[vo + i] = vi;
                double denom = Math.sqrt(vi) / bc2Sqrt + eps;
                p[po + i] = pi - stepSize * mi / denom;
            }
        }
    }

    private static final class Pooling implements PoolingKernels {
        @Override
        public void maxPool2x2(float[] x, int xo, int h, int w, int outH, int outW, float[] out, float[] off, int lo, int hi) {
            for (int p = lo; p < hi; p++) {
                int base = xo + p * h * w;
                int o = p * outH * outW;
                for (int oh = 0; oh < outH; oh++) {
                    int r0 = 2 * oh * w;
                    for (int ow = 0; ow < outW; ow++) {
                        int i0 = r0 + 2 * ow;
                        int best = 0;
                        float max = x[base + i0];
                        float v = x[base + i0 + 1];
                        if (v > max || v != v) {
                            max = v;
                            best = 1;
                        }
                        v = x[base + i0 + w];
                        if (v > max || v != v) {
                            max = v;
                            best = w;
                        }
                        v = x[base + i0 + w + 1];
                        if (v > max || v != v) {
                            max = v;
                            best = w + 1;
                        }
                        out[o] = max;
                        off[o++] = best;
                    }
                }
            }
        }

        @Override
        public void maxPool2x2Backward(float[] g, int go, float[] off, int offAt, float[] gx, int h, int w, int outH, int outW, int lo, int hi) {
            int per = outH * outW;
            for (int p = lo; p < hi; p++) {
                int dst = p * h * w;
                int src = p * per;
                for (int oh = 0; oh < outH; oh++) {
                    int r0 = dst + 2 * oh * w;
                    for (int ow = 0; ow < outW; ow++) {
                        int i0 = r0 + 2 * ow;
                        int j = src + oh * outW + ow;
                        gx[i0] = 0f;
                        gx[i0 + 1] = 0f;
                        gx[i0 + w] = 0f;
                        gx[i0 + w + 1] = 0f;
                        gx[i0 + (int) off[offAt + j]] = g[go + j];
                    }
                    // The row's columns no window covers (an odd width), in this row and the next.
                    java.util.Arrays.fill(gx, r0 + 2 * outW, r0 + w, 0f);
                    java.util.Arrays.fill(gx, r0 + w + 2 * outW, r0 + 2 * w, 0f);
                }
                // The rows no window covers (an odd height).
                java.util.Arrays.fill(gx, dst + 2 * outH * w, dst + h * w, 0f);
            }
        }
    }

    /** {@link ElementwiseKernels#activationBackward} for elements {@code from <= i < n}, one at a time. */
    static void activationBackwardFrom(int from, UnaryOp op, float[] g, int go, float[] v, int vo, float[] s, int so, float[] o, int oo, int n) {
        switch (op) {
            case SIGMOID:
                for (int i = from; i < n; i++) {
                    float y = v[vo + i];
                    o[oo + i] = g[go + i] * (y * (1f - y));
                }
                return;
            case TANH:
                for (int i = from; i < n; i++) {
                    float y = v[vo + i];
                    o[oo + i] = g[go + i] * (1f - y * y);
                }
                return;
            case SILU:
                for (int i = from; i < n; i++) {
                    float sg = s[so + i];
                    o[oo + i] = g[go + i] * (sg * (v[vo + i] * (1f - sg) + 1f));
                }
                return;
            default:
                throw new IllegalArgumentException("no fused backward for " + op);
        }
    }

    /**
     * {@link ElementwiseKernels#where} for elements {@code from <= i < n}, one at a time: both values read and the bits
     * chosen by a mask, since a branch on the condition is mispredicted on every other element of a mask that follows the
     * data.
     */
    static void whereFrom(int from, boolean[] m, int mo, int ms, float[] p, int po, int ps, float[] q, int qo, int qs, float[] o, int oo,
                          int n) {
        for (int i = from; i < n; i++) {
            int keep = m[mo + i * ms] ? -1 : 0;
            int bits = (Float.floatToRawIntBits(p[po + i * ps]) & keep) | (Float.floatToRawIntBits(q[qo + i * qs]) & ~keep);
            o[oo + i] = Float.intBitsToFloat(bits);
        }
    }

    /** {@link ElementwiseKernels#softmaxBackwardRow} for elements {@code from <= i < n}, one at a time. */
    static void softmaxBackwardRowFrom(int from, boolean log, float[] g, int go, float[] v, int vo, float s, float[] o, int oo, int n) {
        if (log) {
            for (int i = from; i < n; i++) {
                o[oo + i] = g[go + i] - v[vo + i] * s;
            }
        } else {
            for (int i = from; i < n; i++) {
                o[oo + i] = v[vo + i] * (g[go + i] - s);
            }
        }
    }
}
