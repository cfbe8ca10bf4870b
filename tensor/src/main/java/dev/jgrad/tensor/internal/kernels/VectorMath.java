package dev.jgrad.tensor.internal.kernels;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * What the Vector API families share: the one vector shape of the process, e^x and tanh from correctly rounded
 * operations, and a sum of lanes in a fixed order.
 *
 * <p>Results must not depend on when the JIT compiles a loop: the same seed gives the same numbers. So only correctly
 * rounded operations are used (add, mul, div, sqrt, fma, conversions), never the JDK's vectorised transcendental
 * functions, whose compiled and interpreted forms round differently; and sums reduce their lanes in a fixed order.
 * Loaded only where jdk.incubator.vector is present.
 */
final class VectorMath {
    /** The CPU's preferred shape, the only one any kernel uses (a second shape in the process slows every kernel). */
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length();

    private VectorMath() {
    }

    static final float LOG2E = 1.44269504088896341f;
    static final float LN2_HI = 0.693145751953125f;
    static final float LN2_LO = 1.42860682030941723212e-6f;
    static final float ROUND = 12582912f;
    static final FloatVector ONE = FloatVector.broadcast(S, 1f);
    static final FloatVector NEG_LN2_HI = FloatVector.broadcast(S, -LN2_HI);
    static final FloatVector C5040 = FloatVector.broadcast(S, 1f / 5040);
    static final FloatVector C2 = FloatVector.broadcast(S, 0.5f);
    static final FloatVector C6 = FloatVector.broadcast(S, 1f / 6);
    static final FloatVector C24 = FloatVector.broadcast(S, 1f / 24);
    static final FloatVector C120 = FloatVector.broadcast(S, 1f / 120);
    static final FloatVector C720 = FloatVector.broadcast(S, 1f / 720);

    /**
     * e^x as {@link #expLoop} computes it, for lanes within [-87.34, 88.72] (the others compute garbage, which the
     * callers replace by 0 or infinity after; NaN stays NaN). No clamp to the range: Java's max and min (signed zeros,
     * NaN) compile to a dozen instructions where this has twenty. Small enough for C2 to inline into its loops, so the
     * vectors stay in registers.
     */
    static FloatVector expInRange(FloatVector x) {
        FloatVector rounded = x.mul(LOG2E).add(ROUND);
        FloatVector nf = rounded.sub(ROUND);
        FloatVector r = nf.fma(NEG_LN2_HI, x).add(nf.mul(-LN2_LO));
        FloatVector p = r.fma(C5040, C720);
        p = p.fma(r, C120);
        p = p.fma(r, C24);
        p = p.fma(r, C6);
        p = p.fma(r, C2);
        p = p.fma(r, ONE);
        p = p.fma(r, ONE);
        // n as an int without a (slow, on JDK 17) vector conversion: 1.5 * 2^23 + n has n in its low bits.
        IntVector ni = rounded.reinterpretAsInts().sub(0x4B400000);
        IntVector n1 = ni.lanewise(VectorOperators.ASHR, 1);
        FloatVector s1 = n1.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats();
        FloatVector s2 = ni.sub(n1).add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats();
        return p.mul(s1).mul(s2);
    }

    /**
     * {@code o[i] = e^(mul * x[i] - sub)}, with {@code x[i]} replaced by its absolute value where asked.
     * e^y: y = n ln2 + r with |r| <= ln2/2 (n rounded by the 1.5 * 2^23 trick, ln2 split in two so n ln2
     * is exact), e^r by its Taylor polynomial to degree 7 (truncation error under 1e-8), times 2^n built in
     * the exponent bits, in two halves so n = 128 and n = -126 both stay representable. Overflow gives
     * +inf, NaN stays NaN, results below the smallest normal float flush to 0. Within 2 ulp of Math.exp.
     * The arithmetic is {@link #expInRange}, inlined into the loop (a vector passed to a method the JIT does not
     * inline becomes an object on the heap, which costs more than the arithmetic). Returns the sum of the results
     * (lanes added in a fixed order), which softmax needs and the others ignore.
     */
    static double expLoop(float[] a, int ao, float[] o, int oo, int n, float mul, float sub, boolean absolute) {
        FloatVector total = FloatVector.zero(S);
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            FloatVector v = FloatVector.fromArray(S, a, ao + i);
            FloatVector x = (absolute ? v.abs() : v).mul(mul).sub(sub);
            FloatVector e = expInRange(x);
            // NaN needs no care: it poisons the product, and neither comparison holds for it.
            e = e.blend(0f, x.compare(VectorOperators.LT, -87.33654f));
            e = e.blend(Float.POSITIVE_INFINITY, x.compare(VectorOperators.GT, 88.72283f));
            e.intoArray(o, oo + i);
            total = total.add(e);
        }
        double sum = addLanes(total);
        for (; i < n; i++) {
            float v = absolute ? Math.abs(a[ao + i]) : a[ao + i];
            float e = (float) Math.exp(mul * v - sub);
            o[oo + i] = e;
            sum += e;
        }
        return sum;
    }

    /** tanh(x) = sign(x) (1 - e) / (1 + e) with e = e^(-2|x|); its Taylor series below |x| = 0.2, where 1 - e cancels. */
    static void tanhLoop(float[] a, int ao, float[] o, int oo, int n) {
        expLoop(a, ao, o, oo, n, -2f, 0f, true);
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            FloatVector x = FloatVector.fromArray(S, a, ao + i);
            FloatVector e = FloatVector.fromArray(S, o, oo + i);
            FloatVector big = FloatVector.broadcast(S, 1f).sub(e).div(e.add(1f));
            FloatVector x2 = x.mul(x);
            FloatVector t = x2.mul(-1382f / 155925).add(62f / 2835);
            t = t.mul(x2).add(-17f / 315);
            t = t.mul(x2).add(2f / 15);
            t = t.mul(x2).add(-1f / 3);
            t = t.mul(x2).add(1f);
            FloatVector signed = big.blend(big.neg(), x.compare(VectorOperators.LT, 0f));
            signed.blend(t.mul(x), x.abs().compare(VectorOperators.LT, 0.2f)).intoArray(o, oo + i);
        }
        for (; i < n; i++) {
            o[oo + i] = (float) MathFns.tanh(a[ao + i]);
        }
    }

    /** Each thread's scratch block of e^x for {@link #softplusLoop}. */
    private static final ThreadBuffer SOFTPLUS_EXP = new ThreadBuffer();

    /**
     * {@code o[i] = a[i] > 20 ? a[i] : log(1 + e^a[i])} (softplus with PyTorch's threshold of 20), block by block: e^x
     * by {@link #expLoop} into a scratch block, its {@link #log1pLoop} into o, then x itself past the threshold. Within
     * a few ulp of the double formula; below about -87 (where e^x is no normal float) 0, where the true value is
     * subnormal. o may not be a.
     */
    static void softplusLoop(float[] a, int ao, float[] o, int oo, int n) {
        float[] e = SOFTPLUS_EXP.get(LOG1P_BLOCK);
        for (int start = 0; start < n; start += LOG1P_BLOCK) {
            int len = Math.min(LOG1P_BLOCK, n - start);
            expLoop(a, ao + start, e, 0, len, 1f, 0f, false);
            log1pLoop(e, 0, o, oo + start, len);
            int i = 0;
            for (int bound = S.loopBound(len); i < bound; i += L) {
                FloatVector x = FloatVector.fromArray(S, a, ao + start + i);
                FloatVector.fromArray(S, o, oo + start + i).blend(x, x.compare(VectorOperators.GT, 20f)).intoArray(o, oo + start + i);
            }
            for (; i < len; i++) {
                float x = a[ao + start + i];
                if (x > 20f) {
                    o[oo + start + i] = x;
                }
            }
        }
    }

    /** Elements per block of {@link #log1pLoop}: its three passes over a block stay in the L1 cache. */
    private static final int LOG1P_BLOCK = 1024;

    /**
     * {@code o[i] = log(1 + a[i])} in float: u = 1 + x rounded, log u by {@link #logLoop}, then {@code log(u) x / (u - 1)},
     * which corrects the rounding of u (u - 1 is exact), or x itself where u is 1 (|x| below half an ulp of 1); within 4
     * ulp of Math.log1p. Below -1 NaN, -1 negative infinity, infinity itself. Block by block, each pass its own loop (the
     * log's arithmetic is too large for C2 to inline into a loop of another method, where its vectors would be objects).
     * o may not be a.
     */
    static void log1pLoop(float[] a, int ao, float[] o, int oo, int n) {
        for (int start = 0; start < n; start += LOG1P_BLOCK) {
            int len = Math.min(LOG1P_BLOCK, n - start);
            int i = 0;
            for (int bound = S.loopBound(len); i < bound; i += L) {
                FloatVector.fromArray(S, a, ao + start + i).add(1f).intoArray(o, oo + start + i);
            }
            for (; i < len; i++) {
                o[oo + start + i] = a[ao + start + i] + 1f;
            }
            logLoop(o, oo + start, o, oo + start, len);
            i = 0;
            for (int bound = S.loopBound(len); i < bound; i += L) {
                FloatVector x = FloatVector.fromArray(S, a, ao + start + i);
                FloatVector u = x.add(1f);
                FloatVector d = u.sub(1f);
                FloatVector r = FloatVector.fromArray(S, o, oo + start + i).mul(x.div(d));
                r = r.blend(x, d.compare(VectorOperators.EQ, 0f));
                // Infinity would be infinity times infinity over infinity; -1 needs nothing (log 0 times 1).
                r.blend(Float.POSITIVE_INFINITY, x.compare(VectorOperators.EQ, Float.POSITIVE_INFINITY)).intoArray(o, oo + start + i);
            }
            for (; i < len; i++) {
                o[oo + start + i] = (float) Math.log1p(a[ao + start + i]);
            }
        }
    }

    /**
     * {@code o[i] = log(a[i])} in float: x = m 2^e with m in [sqrt(1/2), sqrt(2)), log x = e ln 2 + log(1 + t), t = m - 1,
     * by Cephes' logf (a degree-8 polynomial in t, ln 2 split in two), within 2 ulp of Math.log; subnormals are scaled by
     * 2^23 first. Negative and NaN give NaN, zeros negative infinity, infinity itself.
     */
    static void logLoop(float[] a, int ao, float[] o, int oo, int n) {
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            FloatVector x = FloatVector.fromArray(S, a, ao + i);
            VectorMask<Float> tiny = x.compare(VectorOperators.LT, Float.MIN_NORMAL);
            IntVector bits = x.blend(x.mul(8388608f), tiny).reinterpretAsInts();
            // e such that the mantissa with its exponent set to 2^-1 is m / 2 in [0.5, 1).
            FloatVector e = ((FloatVector) bits.lanewise(VectorOperators.LSHR, 23).and(0xff).sub(126).convert(VectorOperators.I2F, 0))
                    .sub(FloatVector.zero(S).blend(23f, tiny));
            FloatVector m = bits.and(0x807fffff).or(0x3f000000).reinterpretAsFloats();
            // Below sqrt(1/2) take 2m - 1 and e - 1, so that t stays within [-0.29, 0.41].
            VectorMask<Float> low = m.compare(VectorOperators.LT, 0.707106781186547524f);
            e = e.sub(FloatVector.zero(S).blend(1f, low));
            FloatVector t = m.sub(1f).add(FloatVector.zero(S).blend(m, low));
            FloatVector z = t.mul(t);
            FloatVector p = t.fma(7.0376836292E-2f, -1.1514610310E-1f);
            p = p.fma(t, FloatVector.broadcast(S, 1.1676998740E-1f));
            p = p.fma(t, FloatVector.broadcast(S, -1.2420140846E-1f));
            p = p.fma(t, FloatVector.broadcast(S, 1.4249322787E-1f));
            p = p.fma(t, FloatVector.broadcast(S, -1.6668057665E-1f));
            p = p.fma(t, FloatVector.broadcast(S, 2.0000714765E-1f));
            p = p.fma(t, FloatVector.broadcast(S, -2.4999993993E-1f));
            p = p.fma(t, FloatVector.broadcast(S, 3.3333331174E-1f));
            FloatVector y = p.mul(t).mul(z).add(e.mul(-2.12194440e-4f)).sub(z.mul(0.5f));
            FloatVector r = t.add(y).add(e.mul(0.693359375f));
            r = r.blend(Float.NaN, x.compare(VectorOperators.LT, 0f).or(x.compare(VectorOperators.NE, x)));
            r = r.blend(Float.NEGATIVE_INFINITY, x.compare(VectorOperators.EQ, 0f));
            r = r.blend(Float.POSITIVE_INFINITY, x.compare(VectorOperators.EQ, Float.POSITIVE_INFINITY));
            r.intoArray(o, oo + i);
        }
        for (; i < n; i++) {
            o[oo + i] = (float) Math.log(a[ao + i]);
        }
    }

    /** What {@link #erfLoop} computes. */
    static final int ERF = 0;
    static final int GELU = 1;
    static final int GELU_BACKWARD = 2;

    /**
     * erf and the exact GELU (forward, and backward times the gradient g) in one pass: erf(z) (z = x, or x / sqrt 2 for
     * GELU) as {@link MathFns#erfFloat} computes it, a rational function by fused multiply-adds and one division with
     * no exponential and no blend (the Vector API on JDK 17 turns each blend's mask into several instructions); and the
     * mode's result: erf(x); {@code x Phi(x)}; or {@code g (Phi(x) + x phi(x))}, where {@code phi(x) = e^(-z^2) / sqrt(2 pi)}
     * by {@link #expInRange}.
     */
    static void erfLoop(int mode, float[] a, int ao, float[] g, int go, float[] o, int oo, int n) {
        float scale = mode == ERF ? 1f : (float) MathFns.INV_SQRT_2;
        float invSqrt2Pi = (float) MathFns.INV_SQRT_2PI;
        float[] cp = MathFns.ERF_P;
        float[] cq = MathFns.ERF_Q;
        int bound = S.loopBound(n);
        int i = 0;
        for (; i < bound; i += L) {
            FloatVector x = FloatVector.fromArray(S, a, ao + i);
            FloatVector z = x.mul(scale).max(-4f).min(4f);
            FloatVector z2 = z.mul(z);
            FloatVector p = z2.fma(cp[6], cp[5]);
            p = p.fma(z2, FloatVector.broadcast(S, cp[4]));
            p = p.fma(z2, FloatVector.broadcast(S, cp[3]));
            p = p.fma(z2, FloatVector.broadcast(S, cp[2]));
            p = p.fma(z2, FloatVector.broadcast(S, cp[1]));
            p = p.fma(z2, FloatVector.broadcast(S, cp[0]));
            FloatVector q = z2.fma(cq[4], cq[3]);
            q = q.fma(z2, FloatVector.broadcast(S, cq[2]));
            q = q.fma(z2, FloatVector.broadcast(S, cq[1]));
            q = q.fma(z2, FloatVector.broadcast(S, cq[0]));
            FloatVector erf = z.mul(p).div(q).max(-1f).min(1f);
            FloatVector res;
            if (mode == ERF) {
                res = erf;
            } else if (mode == GELU) {
                res = x.mul(0.5f).mul(erf.add(1f));
            } else {
                // -z^2 of the unclamped z is at most 0: no overflow to handle.
                FloatVector zx = x.mul(scale);
                FloatVector y = zx.mul(zx).neg();
                FloatVector e = expInRange(y).blend(0f, y.compare(VectorOperators.LT, -87.33654f));
                FloatVector cdf = erf.add(1f).mul(0.5f);
                res = FloatVector.fromArray(S, g, go + i).mul(x.mul(e.mul(invSqrt2Pi)).add(cdf));
            }
            res.intoArray(o, oo + i);
        }
        for (; i < n; i++) {
            double x = a[ao + i];
            double erf = MathFns.erfFloat(x * scale);
            o[oo + i] = mode == ERF ? (float) erf : mode == GELU ? (float) (0.5 * x * (1 + erf))
                    : (float) (g[go + i] * (0.5 * (1 + erf) + x * Math.exp(-0.5 * x * x) * MathFns.INV_SQRT_2PI));
        }
    }

    /**
     * Whether kernels may run half-width float vectors ({@link #HALF}, a second shape) to compute in double lanes. On
     * JDK 17, once such a kernel had run, C2 compiled other kernels' vector code worse for the rest of the process (the
     * transposed copy, the products); JDK 25 did not. Elsewhere (JDK 18-24 included, not measured) sin, cos, expm1,
     * atan, atan2 and pow by 3, 4, -2 and -0.5 go through {@link DoubleLanes}'s scratch of doubles, and a product along
     * a dim converts each full-width float vector in two halves: the same bits either way.
     */
    static final boolean SECOND_SHAPE = Runtime.version().feature() >= 25;

    /** Floats as many as {@link #D} holds doubles: each converts to one double vector and back, lane for lane. */
    static final VectorSpecies<Float> HALF = VectorSpecies.of(float.class, VectorShape.forBitSize(S.vectorBitSize() / 2));

    /**
     * {@code o[i] = a[i]^s} for the exponents with a short form, the same doubles as the plain loop's
     * ({@code PlainLoops.powByConstant}) a vector at a time: 2 and 1 as the float square and the value itself, -1 and 0.5
     * in float (a float quotient or square root rounded through double is the float one), 3, 4, -2 and -0.5 in double
     * lanes ({@link DoubleLanes}). Returns how many leading elements it wrote (a multiple of the vector length, 0 for any
     * other exponent): the rest are the plain loop's.
     */
    static int powByConstant(float[] a, int ao, float s, float[] o, int oo, int n) {
        int i = 0;
        if (s == 3f || s == 4f || s == -2f || s == -0.5f) {
            return DoubleLanes.run(a, ao, null, 0, o, oo, n, (x, xo, b, bo, out, outOffset, d, e, len) -> powInDoubles(x, xo, out, outOffset, d, len, s));
        }
        if (s == 2f) {
            for (int bound = S.loopBound(n); i < bound; i += L) {
                FloatVector x = FloatVector.fromArray(S, a, ao + i);
                x.mul(x).intoArray(o, oo + i);
            }
        } else if (s == 1f) {
            for (int bound = S.loopBound(n); i < bound; i += L) {
                FloatVector.fromArray(S, a, ao + i).intoArray(o, oo + i);
            }
        } else if (s == -1f) {
            for (int bound = S.loopBound(n); i < bound; i += L) {
                ONE.div(FloatVector.fromArray(S, a, ao + i)).intoArray(o, oo + i);
            }
        } else if (s == 0.5f) {
            for (int bound = S.loopBound(n); i < bound; i += L) {
                // +0 turns -0 into +0; pow(-infinity, 0.5) is +infinity, where the root is NaN.
                FloatVector x = FloatVector.fromArray(S, a, ao + i);
                x.add(0f).sqrt().blend(Float.POSITIVE_INFINITY, x.compare(VectorOperators.EQ, Float.NEGATIVE_INFINITY)).intoArray(o, oo + i);
            }
        }
        return i;
    }

    /**
     * {@code x^s} for s = 3, 4, -2 or -0.5 in double lanes, through {@link DoubleLanes}'s arrays (the loads and stores as
     * {@link VectorTrig} writes them); a loop per exponent, so no vector passes through a branch.
     */
    private static void powInDoubles(float[] a, int ao, float[] o, int oo, double[] d, int n, float s) {
        int h = D.length();
        DoubleVector one = DoubleVector.broadcast(D, 1.0);
        if (s == 3f) {
            for (int i = 0; i < n; i += h) {
                DoubleVector v = SECOND_SHAPE ? (DoubleVector) FloatVector.fromArray(HALF, a, ao + i).convertShape(VectorOperators.F2D, D, 0)
                        : DoubleVector.fromArray(D, d, i);
                storeDoubles(v.mul(v).mul(v), o, oo, d, i);
            }
        } else if (s == 4f) {
            for (int i = 0; i < n; i += h) {
                DoubleVector v = SECOND_SHAPE ? (DoubleVector) FloatVector.fromArray(HALF, a, ao + i).convertShape(VectorOperators.F2D, D, 0)
                        : DoubleVector.fromArray(D, d, i);
                DoubleVector sq = v.mul(v);
                storeDoubles(sq.mul(sq), o, oo, d, i);
            }
        } else if (s == -2f) {
            for (int i = 0; i < n; i += h) {
                DoubleVector v = SECOND_SHAPE ? (DoubleVector) FloatVector.fromArray(HALF, a, ao + i).convertShape(VectorOperators.F2D, D, 0)
                        : DoubleVector.fromArray(D, d, i);
                storeDoubles(one.div(v.mul(v)), o, oo, d, i);
            }
        } else {
            for (int i = 0; i < n; i += h) {
                // +0 turns -0 into +0 (pow gives +infinity); pow(-infinity, -0.5) is +0, where the root is NaN.
                DoubleVector v = SECOND_SHAPE ? (DoubleVector) FloatVector.fromArray(HALF, a, ao + i).convertShape(VectorOperators.F2D, D, 0)
                        : DoubleVector.fromArray(D, d, i);
                storeDoubles(one.div(v.add(0.0).sqrt()).blend(0.0, v.compare(VectorOperators.EQ, Double.NEGATIVE_INFINITY)), o, oo, d, i);
            }
        }
    }

    /** A double-lane result stored as {@link DoubleLanes} says: to o as floats, or back into d. */
    private static void storeDoubles(DoubleVector r, float[] o, int oo, double[] d, int i) {
        if (SECOND_SHAPE) {
            ((FloatVector) r.convertShape(VectorOperators.D2F, HALF, 0)).intoArray(o, oo + i);
        } else {
            r.intoArray(d, i);
        }
    }

    /** Doubles in a vector as wide as {@link #S}: a float vector's lanes are converted to two of them. */
    static final VectorSpecies<Double> D = VectorSpecies.of(double.class, VectorShape.forBitSize(S.vectorBitSize()));

    /**
     * The lanes' sum in double, in a fixed order: the two halves converted to doubles and added lane by lane, then those
     * lanes added pairwise. The same whether the JIT compiled the caller or not (the API's own {@code reduceLanes} may
     * add in another order once compiled); lane by lane in order, sixteen dependent additions made this a row's worth
     * of work in a sum over a row of 1024.
     */
    static double addLanes(FloatVector v) {
        DoubleVector d = ((DoubleVector) v.convertShape(VectorOperators.F2D, D, 0)).add((DoubleVector) v.convertShape(VectorOperators.F2D, D, 1));
        if (D.length() == 8) {
            return ((d.lane(0) + d.lane(1)) + (d.lane(2) + d.lane(3))) + ((d.lane(4) + d.lane(5)) + (d.lane(6) + d.lane(7)));
        }
        if (D.length() == 4) {
            return (d.lane(0) + d.lane(1)) + (d.lane(2) + d.lane(3));
        }
        double s = 0;
        for (int i = 0; i < D.length(); i++) {
            s += d.lane(i);
        }
        return s;
    }
}
