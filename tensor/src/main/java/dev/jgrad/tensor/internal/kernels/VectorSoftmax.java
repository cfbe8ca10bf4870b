package dev.jgrad.tensor.internal.kernels;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API's softmax family over unit-stride float32 rows: a row's softmax in passes of their own, the pieces a
 * caller runs on its threads (maximum, shifted exponentials, an added constant), attention's masked scaling and the
 * softmax gradient; strided rows and short ones go to the plain family. Loaded only where jdk.incubator.vector is
 * present.
 */
final class VectorSoftmax implements SoftmaxKernels {
    private static final VectorSpecies<Float> S = VectorMath.S;
    private static final int L = VectorMath.L;
    private static final VectorSpecies<Double> D = VectorMath.D;
    private static final SoftmaxKernels PLAIN = PlainKernels.PROVIDER.softmax();

    /** Lane i holds i: the positions of a row's first vector, for a causal mask. */
    private static final FloatVector IOTA = FloatVector.fromArray(S, iota(), 0);

    private static float[] iota() {
        float[] f = new float[L];
        for (int i = 0; i < L; i++) {
            f[i] = i;
        }
        return f;
    }

    /**
     * Attention's scores before their softmax: {@code o[j] = a[j] * sc}, or -inf where {@code m[mo + j]} (null: no mask)
     * or {@code j >= seen} (the causal mask's positions past the query's own). Whether any position is left.
     */
    @Override
    public boolean maskedScale(float[] a, int ao, boolean[] m, int mo, int ms, int seen, float sc, float[] o, int oo, int n) {
        if (m != null && ms != 1) {
            return PLAIN.maskedScale(a, ao, m, mo, ms, seen, sc, o, oo, n);
        }
        FloatVector inf = FloatVector.broadcast(S, Float.NEGATIVE_INFINITY);
        boolean any = false;
        int j = 0;
        for (int bound = S.loopBound(n); j < bound; j += L) {
            VectorMask<Float> out = IOTA.add((float) j).compare(VectorOperators.GE, (float) seen);
            if (m != null) {
                out = out.or(VectorMask.fromArray(S, m, mo + j));
            }
            any |= !out.allTrue();
            FloatVector.fromArray(S, a, ao + j).mul(sc).blend(inf, out).intoArray(o, oo + j);
        }
        for (; j < n; j++) {
            boolean out = j >= seen || (m != null && m[mo + j]);
            o[oo + j] = out ? Float.NEGATIVE_INFINITY : a[ao + j] * sc;
            any |= !out;
        }
        return any;
    }

    /** The gradient of a softmax row's input from its output y and the output's gradient g: {@code d = sc y (g - sum(g y))}. */
    @Override
    public void gradient(float[] g, int go, float[] y, int yo, float sc, float[] d, int dOff, int n) {
        FloatVector acc = FloatVector.zero(S);
        int j = 0;
        for (int bound = S.loopBound(n); j < bound; j += L) {
            acc = FloatVector.fromArray(S, g, go + j).fma(FloatVector.fromArray(S, y, yo + j), acc);
        }
        double dot = VectorMath.addLanes(acc);
        for (int t = j; t < n; t++) {
            dot += g[go + t] * y[yo + t];
        }
        float dt = (float) dot;
        j = 0;
        for (int bound = S.loopBound(n); j < bound; j += L) {
            FloatVector yv = FloatVector.fromArray(S, y, yo + j);
            FloatVector.fromArray(S, g, go + j).sub(dt).mul(yv).mul(sc).intoArray(d, dOff + j);
        }
        for (; j < n; j++) {
            d[dOff + j] = sc * y[yo + j] * (g[go + j] - dt);
        }
    }

    /** Softmax (or log-softmax) of a unit-stride row of n floats into a unit-stride row. */
    @Override
    public void row(float[] a, int ao, int as, float[] o, int oo, int os, int n, boolean log) {
        if (as != 1 || os != 1 || n < Tuning.MIN_VECTOR_RUN) {
            PLAIN.row(a, ao, as, o, oo, os, n, log);
            return;
        }
        // Each pass is a method of its own, so that the JIT compiles each loop on its own terms rather
        // than one method whose speed depends on which loop it compiled first; the last pass has its own
        // small loops rather than binaryScalar's switch over ops, for the same reason (docs/performance.md).
        float m = max(a, ao, n);
        // e^(x - m) into o (a log-softmax overwrites it) and its sum, in one pass.
        double sum = expShifted(a, ao, o, oo, n, m, 1.0);
        if (log) {
            addScalar(a, ao, o, oo, n, -(m + Math.log(sum)));
        } else {
            scale(o, oo, n, (float) (1.0 / sum));
        }
    }

    /** {@code o[i] = a[i] + c}. */
    @Override
    public void addScalar(float[] a, int ao, float[] o, int oo, int n, double offset) {
        float c = (float) offset;
        FloatVector cv = FloatVector.broadcast(S, c);
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            FloatVector.fromArray(S, a, ao + i).add(cv).intoArray(o, oo + i);
        }
        for (; i < n; i++) {
            o[oo + i] = a[ao + i] + c;
        }
    }

    /** {@code o[i] *= c}. */
    private static void scale(float[] o, int oo, int n, float c) {
        FloatVector cv = FloatVector.broadcast(S, c);
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            FloatVector.fromArray(S, o, oo + i).mul(cv).intoArray(o, oo + i);
        }
        for (; i < n; i++) {
            o[oo + i] *= c;
        }
    }

    /** The largest of n floats (NaN if any is NaN), in four accumulators so the maxima need not wait on each other. */
    @Override
    public float max(float[] a, int off, int n) {
        FloatVector m0 = FloatVector.broadcast(S, Float.NEGATIVE_INFINITY);
        FloatVector m1 = m0;
        FloatVector m2 = m0;
        FloatVector m3 = m0;
        int i = 0;
        for (int bound = n - 4 * L; i <= bound; i += 4 * L) {
            m0 = m0.max(FloatVector.fromArray(S, a, off + i));
            m1 = m1.max(FloatVector.fromArray(S, a, off + i + L));
            m2 = m2.max(FloatVector.fromArray(S, a, off + i + 2 * L));
            m3 = m3.max(FloatVector.fromArray(S, a, off + i + 3 * L));
        }
        for (int bound = S.loopBound(n); i < bound; i += L) {
            m0 = m0.max(FloatVector.fromArray(S, a, off + i));
        }
        float m = m0.max(m1).max(m2.max(m3)).reduceLanes(VectorOperators.MAX);
        for (; i < n; i++) {
            m = Math.max(m, a[off + i]);
        }
        return m;
    }

    /**
     * {@code o[i] = e^(a[i] - m) * factor} (the product rounded once more, so factor 1 stores the powers
     * themselves) where {@code m} is the row's maximum, and the sum of the powers: {@link VectorMath#expLoop}'s
     * method, less what arguments at most 0 never need, and with fused steps where expLoop rounds twice
     * (so a result may differ from expLoop's in its last bit). No overflow; 2^n fits one exponent field, whose
     * value n + 127 is clamped at 0 so that n <= -127 gives exactly 0 (the argument is first clamped at
     * -88.5, where n = -128, so -inf gives 0 too). Results with n = -126 may be subnormal, as PyTorch's
     * are; NaN stays NaN.
     */
    @Override
    public double expShifted(float[] a, int ao, float[] o, int oo, int n, float m, double scaleBy) {
        FloatVector mv = FloatVector.broadcast(S, m);
        FloatVector fv = FloatVector.broadcast(S, (float) scaleBy);
        FloatVector total = FloatVector.zero(S);
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            FloatVector e = expAtMostZero(FloatVector.fromArray(S, a, ao + i).sub(mv));
            e.mul(fv).intoArray(o, oo + i);
            total = total.add(e);
        }
        double sum = VectorMath.addLanes(total);
        for (; i < n; i++) {
            float e = (float) Math.exp(a[ao + i] - m);
            o[oo + i] = e * (float) scaleBy;
            sum += e;
        }
        return sum;
    }

    /** Each column's power in {@link #expShifted}'s lanes, its sum in two double vectors per float vector. */
    @Override
    public void expShiftedColumns(float[] a, int ao, float[] max, float[] o, int oo, double[] sum, int n) {
        if (n < Tuning.MIN_VECTOR_RUN) {
            PLAIN.expShiftedColumns(a, ao, max, o, oo, sum, n);
            return;
        }
        int half = D.length();
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            FloatVector e = expAtMostZero(FloatVector.fromArray(S, a, ao + i).sub(FloatVector.fromArray(S, max, i)));
            e.intoArray(o, oo + i);
            DoubleVector.fromArray(D, sum, i).add((DoubleVector) e.convertShape(VectorOperators.F2D, D, 0)).intoArray(sum, i);
            DoubleVector.fromArray(D, sum, i + half).add((DoubleVector) e.convertShape(VectorOperators.F2D, D, 1))
                    .intoArray(sum, i + half);
        }
        for (; i < n; i++) {
            float e = (float) Math.exp(a[ao + i] - max[i]);
            o[oo + i] = e;
            sum[i] += e;
        }
    }

    /** e^x for lanes x <= 0 (or NaN), as {@link #expShifted} describes. */
    private static FloatVector expAtMostZero(FloatVector x) {
        // A compare and a blend, not Java's max (a dozen instructions for its NaN and signed-zero rules): the same lanes.
        FloatVector xc = x.blend(-88.5f, x.compare(VectorOperators.LT, -88.5f));
        FloatVector rounded = xc.fma(VectorMath.LOG2E, VectorMath.ROUND);
        FloatVector nf = rounded.sub(VectorMath.ROUND);
        FloatVector r = nf.fma(FloatVector.broadcast(S, -VectorMath.LN2_LO), nf.fma(FloatVector.broadcast(S, -VectorMath.LN2_HI), xc));
        FloatVector p = r.fma(1f / 5040, 1f / 720);
        p = p.fma(r, FloatVector.broadcast(S, 1f / 120));
        p = p.fma(r, FloatVector.broadcast(S, 1f / 24));
        p = p.fma(r, FloatVector.broadcast(S, 1f / 6));
        p = p.fma(r, FloatVector.broadcast(S, 0.5f));
        FloatVector one = FloatVector.broadcast(S, 1f);
        p = p.fma(r, one);
        p = p.fma(r, one);
        // The exponent field of 2^n is n + 127; 1.5 * 2^23 + n holds n in its low bits.
        FloatVector scale = rounded.reinterpretAsInts().sub(0x4B400000 - 127).max(0).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats();
        return p.mul(scale);
    }

    /**
     * Rows of whole vectors in one method, without the calls between maskedScale, max, expShifted and the scaling:
     * the same operations in the same order, so the same bits. Attention's rows are short (at most 64 keys in the
     * GPT), so the calls and the passes' set-up cost as much as the arithmetic. The loops stay loops: C2 stops
     * inlining the exponential's vector code after one copy, and a call that is not inlined boxes its vectors.
     */
    @Override
    public void causalRow(float[] a, int ao, int seen, float sc, int n) {
        if (n < Tuning.MIN_VECTOR_RUN || n % L != 0) {
            SoftmaxKernels.super.causalRow(a, ao, seen, sc, n);
            return;
        }
        FloatVector inf = FloatVector.broadcast(S, Float.NEGATIVE_INFINITY);
        FloatVector mx = inf;
        for (int j = 0; j < n; j += L) {
            VectorMask<Float> out = IOTA.add((float) j).compare(VectorOperators.GE, (float) seen);
            FloatVector x = FloatVector.fromArray(S, a, ao + j).mul(sc).blend(inf, out);
            x.intoArray(a, ao + j);
            mx = mx.max(x);
        }
        FloatVector mv = FloatVector.broadcast(S, mx.reduceLanes(VectorOperators.MAX));
        FloatVector total = FloatVector.zero(S);
        for (int j = 0; j < n; j += L) {
            FloatVector e = expAtMostZero(FloatVector.fromArray(S, a, ao + j).sub(mv));
            e.intoArray(a, ao + j);
            total = total.add(e);
        }
        FloatVector c = FloatVector.broadcast(S, (float) (1.0 / VectorMath.addLanes(total)));
        for (int j = 0; j < n; j += L) {
            FloatVector.fromArray(S, a, ao + j).mul(c).intoArray(a, ao + j);
        }
    }
}
