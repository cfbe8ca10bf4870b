package dev.jgrad.tensor.internal.kernels;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/** The Vector API's sums over float32 rows; strided and short rows go to the plain family. Loaded only where jdk.incubator.vector is present. */
final class VectorReductions implements ReductionKernels {
    private static final VectorSpecies<Float> S = VectorMath.S;
    private static final int L = VectorMath.L;
    private static final ReductionKernels PLAIN = PlainKernels.PROVIDER.reductions();

    /** The sum of n floats, in four vector accumulators (float lanes, as PyTorch sums float32). */
    @Override
    public double sum(float[] a, int off, int stride, int n) {
        if (stride != 1 || n < Tuning.MIN_VECTOR_RUN) {
            return PLAIN.sum(a, off, stride, n);
        }
        FloatVector s0 = FloatVector.zero(S);
        FloatVector s1 = FloatVector.zero(S);
        FloatVector s2 = FloatVector.zero(S);
        FloatVector s3 = FloatVector.zero(S);
        int i = 0;
        for (int bound = n - 4 * L; i <= bound; i += 4 * L) {
            s0 = s0.add(FloatVector.fromArray(S, a, off + i));
            s1 = s1.add(FloatVector.fromArray(S, a, off + i + L));
            s2 = s2.add(FloatVector.fromArray(S, a, off + i + 2 * L));
            s3 = s3.add(FloatVector.fromArray(S, a, off + i + 3 * L));
        }
        for (int bound = S.loopBound(n); i < bound; i += L) {
            s0 = s0.add(FloatVector.fromArray(S, a, off + i));
        }
        double s = VectorMath.addLanes(s0.add(s1).add(s2.add(s3)));
        for (; i < n; i++) {
            s += a[off + i];
        }
        return s;
    }

    /** {@link #sum}'s loops over the float products of a and b, so its bits. */
    @Override
    public double sumOfProducts(float[] a, int ao, float[] b, int bo, int n) {
        if (n < Tuning.MIN_VECTOR_RUN) {
            return PLAIN.sumOfProducts(a, ao, b, bo, n);
        }
        FloatVector s0 = FloatVector.zero(S);
        FloatVector s1 = FloatVector.zero(S);
        FloatVector s2 = FloatVector.zero(S);
        FloatVector s3 = FloatVector.zero(S);
        int i = 0;
        for (int bound = n - 4 * L; i <= bound; i += 4 * L) {
            s0 = s0.add(FloatVector.fromArray(S, a, ao + i).mul(FloatVector.fromArray(S, b, bo + i)));
            s1 = s1.add(FloatVector.fromArray(S, a, ao + i + L).mul(FloatVector.fromArray(S, b, bo + i + L)));
            s2 = s2.add(FloatVector.fromArray(S, a, ao + i + 2 * L).mul(FloatVector.fromArray(S, b, bo + i + 2 * L)));
            s3 = s3.add(FloatVector.fromArray(S, a, ao + i + 3 * L).mul(FloatVector.fromArray(S, b, bo + i + 3 * L)));
        }
        for (int bound = S.loopBound(n); i < bound; i += L) {
            s0 = s0.add(FloatVector.fromArray(S, a, ao + i).mul(FloatVector.fromArray(S, b, bo + i)));
        }
        double s = VectorMath.addLanes(s0.add(s1).add(s2.add(s3)));
        for (; i < n; i++) {
            s += a[ao + i] * b[bo + i];
        }
        return s;
    }

    /**
     * Rows laid end to end whose length is a whole number of four-vector steps (a (B, N) tensor summed over its last dim)
     * as one stream: a single loop over the rows' steps, which emits a row's sum each time it crosses a row's end. Each
     * row is added in the same order as {@link #sum} adds it, so the bits are the same; a loop per row paid its entry
     * and exit on every row (a 1024-long row is only sixteen steps), a sixth of the time of a (1024, 1024) sum.
     */
    @Override
    public void rowSums(float[] a, int off, int rowStride, int rows, int n, boolean mean, float[] out, int outOff, int outStride) {
        int step = 4 * L;
        if (rowStride != n || n == 0 || n % step != 0) {
            ReductionKernels.super.rowSums(a, off, rowStride, rows, n, mean, out, outOff, outStride);
            return;
        }
        FloatVector zero = FloatVector.zero(S);
        FloatVector s0 = zero;
        FloatVector s1 = zero;
        FloatVector s2 = zero;
        FloatVector s3 = zero;
        int end = off + rows * n;
        int rowLast = off + n - step;
        int o = outOff;
        for (int i = off; i < end; i += step) {
            s0 = s0.add(FloatVector.fromArray(S, a, i));
            s1 = s1.add(FloatVector.fromArray(S, a, i + L));
            s2 = s2.add(FloatVector.fromArray(S, a, i + 2 * L));
            s3 = s3.add(FloatVector.fromArray(S, a, i + 3 * L));
            if (i == rowLast) {
                double s = VectorMath.addLanes(s0.add(s1).add(s2.add(s3)));
                out[o] = (float) (mean ? s / n : s);
                o += outStride;
                rowLast += n;
                s0 = zero;
                s1 = zero;
                s2 = zero;
                s3 = zero;
            }
        }
    }

    /** Squares added in four float vectors by fused multiply-adds, their lanes in double, as {@link #sum}. */
    @Override
    public double sumOfSquares(float[] a, int off, int n) {
        FloatVector s0 = FloatVector.zero(S);
        FloatVector s1 = FloatVector.zero(S);
        FloatVector s2 = FloatVector.zero(S);
        FloatVector s3 = FloatVector.zero(S);
        int i = 0;
        for (int bound = n - 4 * L; i <= bound; i += 4 * L) {
            FloatVector x0 = FloatVector.fromArray(S, a, off + i);
            FloatVector x1 = FloatVector.fromArray(S, a, off + i + L);
            FloatVector x2 = FloatVector.fromArray(S, a, off + i + 2 * L);
            FloatVector x3 = FloatVector.fromArray(S, a, off + i + 3 * L);
            s0 = x0.fma(x0, s0);
            s1 = x1.fma(x1, s1);
            s2 = x2.fma(x2, s2);
            s3 = x3.fma(x3, s3);
        }
        for (int bound = S.loopBound(n); i < bound; i += L) {
            FloatVector x = FloatVector.fromArray(S, a, off + i);
            s0 = x.fma(x, s0);
        }
        double s = VectorMath.addLanes(s0.add(s1).add(s2.add(s3)));
        for (; i < n; i++) {
            float x = a[off + i];
            s += x * x;
        }
        return s;
    }

    /** {@code dst[to + j] += src[from + j]} for {@code j < len}. */
    @Override
    public void addRow(float[] src, int from, float[] dst, int to, int len) {
        int j = 0;
        for (; j <= len - L; j += L) {
            FloatVector.fromArray(S, dst, to + j).add(FloatVector.fromArray(S, src, from + j)).intoArray(dst, to + j);
        }
        for (; j < len; j++) {
            dst[to + j] += src[from + j];
        }
    }

    /**
     * Strips of four vectors of columns (then single vectors) walked down the rows with their sums held in registers,
     * where a row at a time would load and store every sum once a row. The sums start from a zero vector: started from
     * the first row's load, JDK 17's C2 kept them as objects once a kernel of another vector shape had run.
     */
    @Override
    public void columnSums(float[] src, int from, int stride, int rows, float[] dst, int len) {
        int j = 0;
        for (; j <= len - 4 * L; j += 4 * L) {
            FloatVector s0 = FloatVector.zero(S);
            FloatVector s1 = FloatVector.zero(S);
            FloatVector s2 = FloatVector.zero(S);
            FloatVector s3 = FloatVector.zero(S);
            for (int r = 0, at = from + j; r < rows; r++, at += stride) {
                s0 = s0.add(FloatVector.fromArray(S, src, at));
                s1 = s1.add(FloatVector.fromArray(S, src, at + L));
                s2 = s2.add(FloatVector.fromArray(S, src, at + 2 * L));
                s3 = s3.add(FloatVector.fromArray(S, src, at + 3 * L));
            }
            s0.intoArray(dst, j);
            s1.intoArray(dst, j + L);
            s2.intoArray(dst, j + 2 * L);
            s3.intoArray(dst, j + 3 * L);
        }
        for (; j <= len - L; j += L) {
            FloatVector s0 = FloatVector.zero(S);
            for (int r = 0, at = from + j; r < rows; r++, at += stride) {
                s0 = s0.add(FloatVector.fromArray(S, src, at));
            }
            s0.intoArray(dst, j);
        }
        for (; j < len; j++) {
            float s = 0f;
            for (int r = 0; r < rows; r++) {
                s += src[from + r * stride + j];
            }
            dst[j] = s;
        }
    }

    /** A vector's worth of flags loaded as a mask at a time, its true lanes counted. */
    @Override
    public int countTrue(boolean[] m, int off, int n) {
        int c = 0;
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            c += VectorMask.fromArray(S, m, off + i).trueCount();
        }
        for (; i < n; i++) {
            c += m[off + i] ? 1 : 0;
        }
        return c;
    }

    /** Four or eight doubles a vector: the product's eight chains as one vector of eight lanes or two of four. */
    private static final VectorSpecies<Double> D = VectorMath.D;
    /** Floats as many as {@link #D} holds doubles. */
    private static final VectorSpecies<Float> F = VectorMath.HALF;

    /**
     * {@link ReductionKernels#productChains}'s eight chains held in double lanes: chain k is lane k of one vector of
     * eight, or lane k mod 4 of the first or second of two vectors of four. Where {@link VectorMath#SECOND_SHAPE}, eight
     * floats at a time are read as a half-width vector (or two). Elsewhere each float vector (twice as many floats as a
     * double vector has lanes) is converted in its two halves, in one vector shape: with eight lanes the halves are two
     * groups of eight, multiplied in one after the other; with four they are chains 0-3 and 4-7 (the half-width reads stay
     * where they are safe: they were faster on JDK 25). Either way every chain sees the same factors in the same order: the same bits.
     */
    @Override
    public double product(float[] a, int off, int n) {
        int lanes = D.length();
        if (lanes != 8 && lanes != 4 || n < 16) {
            return PLAIN.product(a, off, n);
        }
        DoubleVector lo = DoubleVector.broadcast(D, 1.0);
        DoubleVector hi = lo;
        int i = 0;
        for (; VectorMath.SECOND_SHAPE && i + 8 <= n; i += 8) {
            lo = lo.mul((DoubleVector) FloatVector.fromArray(F, a, off + i).convertShape(VectorOperators.F2D, D, 0));
            if (lanes == 4) {
                hi = hi.mul((DoubleVector) FloatVector.fromArray(F, a, off + i + 4).convertShape(VectorOperators.F2D, D, 0));
            }
        }
        for (; !VectorMath.SECOND_SHAPE && i + L <= n; i += L) {
            FloatVector v = FloatVector.fromArray(S, a, off + i);
            lo = lo.mul((DoubleVector) v.convertShape(VectorOperators.F2D, D, 0));
            if (lanes == 8) {
                lo = lo.mul((DoubleVector) v.convertShape(VectorOperators.F2D, D, 1));
            } else {
                hi = hi.mul((DoubleVector) v.convertShape(VectorOperators.F2D, D, 1));
            }
        }
        // Chains 4-7: lanes 4-7 of the one vector of eight, or lanes 0-3 of the second vector of four.
        DoubleVector upper = lanes == 8 ? lo : hi;
        int u = lanes == 8 ? 4 : 0;
        // With eight lanes in one shape, a last whole group of eight may be left (fewer than a float vector's sixteen):
        // the chains take it, then the tail, as the plain loop would.
        return ReductionKernels.productChainsFrom(lo.lane(0), lo.lane(1), lo.lane(2), lo.lane(3), upper.lane(u), upper.lane(u + 1),
                upper.lane(u + 2), upper.lane(u + 3), a, off + i, 1, n - i);
    }

    /**
     * The floats compared as ints: a negative float's bits below the sign flipped, the ints are in the order Java's min
     * and max put the floats (-0 below +0), in three integer operations a vector where Java's float min or max takes a
     * dozen. A NaN's key lies beyond both infinities', so the smallest and largest keys show whether there was one, and
     * then the plain loop gives Java's answer, NaN's bits and all.
     */
    @Override
    public float extreme(float[] a, int off, int n, boolean min) {
        if (n < 4 * L) {
            return PLAIN.extreme(a, off, n, min);
        }
        // Started from constants, not from a first load (columnSums says why).
        IntVector lo0 = IntVector.broadcast(KEYS, Integer.MAX_VALUE);
        IntVector lo1 = lo0;
        IntVector lo2 = lo0;
        IntVector lo3 = lo0;
        IntVector hi0 = IntVector.broadcast(KEYS, Integer.MIN_VALUE);
        IntVector hi1 = hi0;
        IntVector hi2 = hi0;
        IntVector hi3 = hi0;
        int i = 0;
        for (int bound = n - 4 * L; i <= bound; i += 4 * L) {
            IntVector k0 = orderKey(FloatVector.fromArray(S, a, off + i));
            IntVector k1 = orderKey(FloatVector.fromArray(S, a, off + i + L));
            IntVector k2 = orderKey(FloatVector.fromArray(S, a, off + i + 2 * L));
            IntVector k3 = orderKey(FloatVector.fromArray(S, a, off + i + 3 * L));
            lo0 = lo0.min(k0);
            hi0 = hi0.max(k0);
            lo1 = lo1.min(k1);
            hi1 = hi1.max(k1);
            lo2 = lo2.min(k2);
            hi2 = hi2.max(k2);
            lo3 = lo3.min(k3);
            hi3 = hi3.max(k3);
        }
        int lo = lo0.min(lo1).min(lo2.min(lo3)).reduceLanes(VectorOperators.MIN);
        int hi = hi0.max(hi1).max(hi2.max(hi3)).reduceLanes(VectorOperators.MAX);
        if (lo < NEGATIVE_INFINITY_KEY || hi > POSITIVE_INFINITY_KEY) {
            return PLAIN.extreme(a, off, n, min);
        }
        float m = Float.intBitsToFloat(fromOrderKey(min ? lo : hi));
        return min ? Math.min(m, PLAIN.extreme(a, off + i, n - i, true)) : Math.max(m, PLAIN.extreme(a, off + i, n - i, false));
    }

    /** Ints as many as {@link #S} holds floats. */
    private static final VectorSpecies<Integer> KEYS = S.withLanes(int.class);
    private static final int POSITIVE_INFINITY_KEY = 0x7f800000;
    private static final int NEGATIVE_INFINITY_KEY = 0xff800000 ^ 0x7fffffff;

    /** A float's bits, those below the sign flipped where it is negative: signed ints in the floats' order. */
    private static IntVector orderKey(FloatVector v) {
        IntVector bits = v.reinterpretAsInts();
        return bits.lanewise(VectorOperators.XOR, bits.lanewise(VectorOperators.ASHR, 31).lanewise(VectorOperators.LSHR, 1));
    }

    /** The bits of the float whose {@link #orderKey} is k (the flip is its own inverse: it keeps the sign). */
    private static int fromOrderKey(int k) {
        return k ^ ((k >> 31) >>> 1);
    }

    /** Copies {@code len} floats and returns their sum: two vector accumulators of float lanes, then the tail in double. */
    @Override
    public double copySum(float[] src, int from, float[] dst, int to, int len) {
        if (len < 2 * L) {
            return PLAIN.copySum(src, from, dst, to, len);
        }
        FloatVector s0 = FloatVector.zero(S);
        FloatVector s1 = FloatVector.zero(S);
        int j = 0;
        for (; j <= len - 2 * L; j += 2 * L) {
            FloatVector a = FloatVector.fromArray(S, src, from + j);
            FloatVector b = FloatVector.fromArray(S, src, from + j + L);
            a.intoArray(dst, to + j);
            b.intoArray(dst, to + j + L);
            s0 = s0.add(a);
            s1 = s1.add(b);
        }
        // In a fixed order, compiled or not (see VectorMath.addLanes).
        double sum = VectorMath.addLanes(s0.add(s1));
        for (; j < len; j++) {
            dst[to + j] = src[from + j];
            sum += src[from + j];
        }
        return sum;
    }
}
