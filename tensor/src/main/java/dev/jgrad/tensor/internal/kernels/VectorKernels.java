package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.BinaryOp;
import dev.jgrad.tensor.UnaryOp;

/**
 * The Vector API kernels ({@link VectorElementwise}, {@link VectorRows}), one preferred vector shape for the whole
 * process. Each family vectorizes the ops and lengths where vectors pay and hands the rest to {@link PlainKernels}:
 * rows shorter than 16 elements, strided operands, ops without a vector loop. Loaded only where the
 * {@code jdk.incubator.vector} module is present.
 */
public final class VectorKernels implements KernelProvider {
    /** Below this many elements a row runs the plain loop: the vector loop's set-up and tail cost more. */
    static final int MIN_RUN = 16;

    private static final ElementwiseKernels ELEMENTWISE = new Elementwise();
    private static final ReductionKernels REDUCTIONS = new Reductions();
    private static final SoftmaxKernels SOFTMAX = new Softmax();
    private static final OptimizerKernels OPTIMIZER = new Optimizer();
    private static final PoolingKernels POOLING = new Pooling();

    @Override
    public String name() {
        return "Vector API, " + VectorElementwise.S.vectorBitSize() + "-bit";
    }

    @Override
    public int vectorLanes() {
        return VectorElementwise.L;
    }

    @Override
    public ElementwiseKernels elementwise() {
        return ELEMENTWISE;
    }

    @Override
    public ReductionKernels reductions() {
        return REDUCTIONS;
    }

    @Override
    public SoftmaxKernels softmax() {
        return SOFTMAX;
    }

    @Override
    public OptimizerKernels optimizer() {
        return OPTIMIZER;
    }

    @Override
    public PoolingKernels pooling() {
        return POOLING;
    }

    private static final class Elementwise implements ElementwiseKernels {
        private static final ElementwiseKernels PLAIN = PlainKernels.elementwiseKernels();

        @Override
        public void binary(BinaryOp op, float[] a, int ao, float[] b, int bo, float[] o, int oo, int n) {
            if (n < MIN_RUN || !VectorElementwise.binary(op, a, ao, b, bo, o, oo, n)) {
                PLAIN.binary(op, a, ao, b, bo, o, oo, n);
            }
        }

        @Override
        public void binaryScalar(BinaryOp op, float[] a, int ao, float[] b, int bo, float[] o, int oo, int n) {
            if (n < MIN_RUN || !VectorElementwise.binaryScalar(op, a, ao, b[bo], o, oo, n)) {
                PLAIN.binaryScalar(op, a, ao, b, bo, o, oo, n);
            }
        }

        @Override
        public void scalarBinary(BinaryOp op, float[] a, int ao, float[] b, int bo, float[] o, int oo, int n) {
            if (n < MIN_RUN || !VectorElementwise.scalarBinary(op, a[ao], b, bo, o, oo, n)) {
                PLAIN.scalarBinary(op, a, ao, b, bo, o, oo, n);
            }
        }

        @Override
        public void binaryRows(BinaryOp op, float[] a, int ao, int ars, float[] b, int bo, int brs, float[] o, int oo, int ors, int rows, int n) {
            if (n < MIN_RUN || !VectorElementwise.binaryRows(op, a, ao, ars, b, bo, brs, o, oo, ors, rows, n)) {
                PLAIN.binaryRows(op, a, ao, ars, b, bo, brs, o, oo, ors, rows, n);
            }
        }

        @Override
        public void compareScalar(BinaryOp op, float[] a, int ao, float[] b, int bo, boolean[] o, int oo, int n) {
            if (n < MIN_RUN || !VectorElementwise.compareScalar(op, a, ao, b[bo], o, oo, n)) {
                PLAIN.compareScalar(op, a, ao, b, bo, o, oo, n);
            }
        }

        @Override
        public void unary(UnaryOp op, float[] a, int ao, float[] o, int oo, int n) {
            if (n < MIN_RUN || !VectorElementwise.unary(op, a, ao, o, oo, n)) {
                PLAIN.unary(op, a, ao, o, oo, n);
            }
        }

        @Override
        public void reluBackward(float[] g, int go, float[] y, int yo, float[] o, int oo, int n) {
            VectorElementwise.reluBackward(g, go, y, yo, o, oo, n);
        }
    }

    private static final class Reductions implements ReductionKernels {
        private static final ReductionKernels PLAIN = PlainKernels.reductionKernels();

        @Override
        public double sum(float[] a, int off, int stride, int n) {
            return stride == 1 && n >= MIN_RUN ? VectorElementwise.sum(a, off, n) : PLAIN.sum(a, off, stride, n);
        }

        @Override
        public void addRow(float[] src, int from, float[] dst, int to, int len) {
            VectorRows.add(src, from, dst, to, len);
        }

        @Override
        public double copySum(float[] src, int from, float[] dst, int to, int len) {
            return len >= 2 * VectorRows.L ? VectorRows.copySum(src, from, dst, to, len) : PLAIN.copySum(src, from, dst, to, len);
        }
    }

    private static final class Softmax implements SoftmaxKernels {
        private static final SoftmaxKernels PLAIN = PlainKernels.softmaxKernels();

        @Override
        public void row(float[] a, int ao, int as, float[] o, int oo, int os, int n, boolean log) {
            if (as == 1 && os == 1 && n >= MIN_RUN) {
                VectorElementwise.softmaxRow(a, ao, o, oo, n, log);
            } else {
                PLAIN.row(a, ao, as, o, oo, os, n, log);
            }
        }

        @Override
        public float max(float[] a, int off, int n) {
            return VectorElementwise.max(a, off, n);
        }

        @Override
        public double expShifted(float[] a, int ao, float[] o, int oo, int n, float m, double factor) {
            return VectorElementwise.expShifted(a, ao, o, oo, n, m, (float) factor);
        }

        @Override
        public void addScalar(float[] a, int ao, float[] o, int oo, int n, double c) {
            VectorElementwise.addScalar(a, ao, o, oo, n, (float) c);
        }

        @Override
        public boolean maskedScale(float[] a, int ao, boolean[] m, int mo, int ms, int seen, float sc, float[] o, int oo, int n) {
            return m == null || ms == 1 ? VectorElementwise.maskedScale(a, ao, m, mo, seen, sc, o, oo, n)
                    : PLAIN.maskedScale(a, ao, m, mo, ms, seen, sc, o, oo, n);
        }

        @Override
        public void gradient(float[] g, int go, float[] y, int yo, float sc, float[] d, int dOff, int n) {
            VectorElementwise.softmaxGradient(g, go, y, yo, sc, d, dOff, n);
        }
    }

    private static final class Optimizer implements OptimizerKernels {
        private static final OptimizerKernels PLAIN = new PlainKernels.Optimizer();

        @Override
        public void adam(float[] p, int po, float[] g, int go, float[] m, int mo, float[] v, int vo, int n,
                         float b1, float b2, float l2, float stepSize, float bc2Sqrt, float eps) {
            VectorElementwise.adam(p, po, g, go, m, mo, v, vo, n, b1, b2, l2, stepSize, bc2Sqrt, eps);
        }

        @Override
        public void adam(double[] p, int po, double[] g, int go, double[] m, int mo, double[] v, int vo, int n,
                         double b1, double b2, double l2, double stepSize, double bc2Sqrt, double eps) {
            PLAIN.adam(p, po, g, go, m, mo, v, vo, n, b1, b2, l2, stepSize, bc2Sqrt, eps);
        }
    }

    /**
     * Rows of at least half a vector of windows ({@link VectorPoolKernels#halvesByPairs}) read with plain loads and split
     * by shuffles; narrower planes gather their windows' corners from a table made once a call. The gradient is spread
     * by shuffles over rows of that width, else by the plain loop.
     */
    private static final class Pooling implements PoolingKernels {
        private static final PoolingKernels PLAIN = PlainKernels.poolingKernels();

        @Override
        public void maxPool2x2(float[] x, int xo, int h, int w, int outH, int outW, float[] out, float[] off, int lo, int hi) {
            int per = outH * outW;
            boolean byRows = outW >= VectorPoolKernels.L / 2;
            int[] corners = byRows ? null : VectorPoolKernels.corners(w, outH, outW);
            float[] lanes = new float[VectorPoolKernels.L];
            for (int p = lo; p < hi; p++) {
                if (byRows) {
                    VectorPoolKernels.halvesByPairs(x, xo + p * h * w, w, outH, outW, out, off, p * per, lanes);
                } else {
                    VectorPoolKernels.halves(x, xo + p * h * w, w, corners, per, out, off, p * per, lanes);
                }
            }
        }

        @Override
        public void maxPool2x2Backward(float[] g, int go, float[] off, int offAt, float[] gx, int h, int w, int outH, int outW, int lo, int hi) {
            if (outW < VectorPoolKernels.L / 2) {
                PLAIN.maxPool2x2Backward(g, go, off, offAt, gx, h, w, outH, outW, lo, hi);
                return;
            }
            int per = outH * outW;
            for (int p = lo; p < hi; p++) {
                VectorPoolKernels.tiledByPairs(g, go + p * per, off, offAt + p * per, gx, p * h * w, h, w, outH, outW);
            }
        }
    }
}
