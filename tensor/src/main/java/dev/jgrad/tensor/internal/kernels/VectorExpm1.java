package dev.jgrad.tensor.internal.kernels;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * e^x - 1 of float32 a vector at a time, in double lanes: x = k ln2 + r with |r| <= ln2/2 (ln2 in two doubles, one
 * fused multiply-add each), e^r - 1 by its Taylor polynomial to r^13 (the first term r itself, so small x keeps its
 * digits), then {@code 2^k (e^r - 1) + (2^k - 1)}. Within a few double ulp of the true value, so the float is
 * {@code (float) Math.expm1(x)} but where the true value lies within about 2^-50 of halfway between two floats.
 *
 * <p>Each element's result depends on its value alone ({@link #expm1(float)} is the same arithmetic for the tail), as
 * {@link VectorTrig} explains for sin.
 */
final class VectorExpm1 {
    private static final VectorSpecies<Double> D = VectorMath.D;
    private static final VectorSpecies<Float> HALF = VectorMath.HALF;

    /** Beyond it e^x - 1 is -1 or infinity as a float, and 2^k stays a normal double up to it. */
    static final double BOUND = 104;
    /** 1.5 * 2^52: a double below 2^51 in magnitude added to it is rounded to an integer, held in its low bits. */
    private static final double MAGIC = 0x1.8p52;
    private static final double INV_LN2 = 0x1.71547652b82fep0;
    /** ln 2 as the sum of two doubles. */
    private static final double LN2_HI = 0x1.62e42fefa39efp-1;
    private static final double LN2_LO = 0x1.abc9e3b39803fp-56;
    /** 1/n! for n = 2..13: the Taylor coefficients after the linear term. */
    private static final double[] C = new double[14];

    static {
        double f = 1;
        for (int n = 1; n < C.length; n++) {
            f *= n;
            C[n] = 1 / f;
        }
    }

    // The coefficients as vectors, each a constant of its own: read from an array of vectors inside the loop, every
    // step of the polynomial loaded its vector again, which took half the loop's time.
    private static final DoubleVector V_C2 = DoubleVector.broadcast(D, C[2]);
    private static final DoubleVector V_C3 = DoubleVector.broadcast(D, C[3]);
    private static final DoubleVector V_C4 = DoubleVector.broadcast(D, C[4]);
    private static final DoubleVector V_C5 = DoubleVector.broadcast(D, C[5]);
    private static final DoubleVector V_C6 = DoubleVector.broadcast(D, C[6]);
    private static final DoubleVector V_C7 = DoubleVector.broadcast(D, C[7]);
    private static final DoubleVector V_C8 = DoubleVector.broadcast(D, C[8]);
    private static final DoubleVector V_C9 = DoubleVector.broadcast(D, C[9]);
    private static final DoubleVector V_C10 = DoubleVector.broadcast(D, C[10]);
    private static final DoubleVector V_C11 = DoubleVector.broadcast(D, C[11]);
    private static final DoubleVector V_C12 = DoubleVector.broadcast(D, C[12]);
    private static final DoubleVector V_C13 = DoubleVector.broadcast(D, C[13]);
    private static final DoubleVector V_LN2_HI = DoubleVector.broadcast(D, LN2_HI);
    private static final DoubleVector V_LN2_LO = DoubleVector.broadcast(D, LN2_LO);

    private VectorExpm1() {
    }

    /** {@code o[i] = e^a[i] - 1}. */
    static void loop(float[] a, int ao, float[] o, int oo, int n) {
        int covered = DoubleLanes.run(a, ao, null, 0, o, oo, n,
                (x, xo, unused, unusedOffset, out, outOffset, d, e, len) -> block(x, xo, out, outOffset, d, len));
        for (int i = covered; i < n; i++) {
            o[oo + i] = expm1(a[ao + i]);
        }
    }

    /**
     * e^x - 1 of n elements, through {@link DoubleLanes}'s arrays (the loads and stores as {@link VectorTrig} writes them).
     * The polynomial is written out in the loop with each coefficient a constant of its own (see the fields above); no
     * vector is passed to a method, which C2 would box wherever it left the method uninlined.
     */
    private static void block(float[] a, int ao, float[] o, int oo, double[] d, int n) {
        int h = D.length();
        for (int i = 0; i < n; i += h) {
            DoubleVector x = VectorMath.SECOND_SHAPE ? (DoubleVector) FloatVector.fromArray(HALF, a, ao + i).convertShape(VectorOperators.F2D, D, 0)
                    : DoubleVector.fromArray(D, d, i);
            if (x.abs().compare(VectorOperators.GT, BOUND).anyTrue()) {
                for (int k = 0; k < h; k++) {
                    DoubleLanes.put(expm1(DoubleLanes.element(a, ao, d, i + k)), o, oo, d, i + k);
                }
                continue;
            }
            DoubleVector t = x.fma(INV_LN2, MAGIC);
            DoubleVector negK = t.sub(MAGIC).neg();
            DoubleVector r = negK.fma(V_LN2_HI, x);
            r = negK.fma(V_LN2_LO, r);
            DoubleVector q = r.fma(V_C13, V_C12).fma(r, V_C11).fma(r, V_C10).fma(r, V_C9).fma(r, V_C8).fma(r, V_C7).fma(r, V_C6)
                    .fma(r, V_C5).fma(r, V_C4).fma(r, V_C3).fma(r, V_C2);
            DoubleVector p = r.mul(r).fma(q, r);
            // 2^k from k's low bits in t (k + 1023 in the exponent field).
            LongVector k = t.reinterpretAsLongs().sub(Double.doubleToRawLongBits(MAGIC));
            DoubleVector scale = k.add(1023L).lanewise(VectorOperators.LSHL, 52).reinterpretAsDoubles();
            DoubleVector res = scale.fma(p, scale.sub(1.0));
            // e^-0 - 1 is -0, where r + (+0) gives +0.
            res = res.blend(x, x.compare(VectorOperators.EQ, 0.0));
            if (VectorMath.SECOND_SHAPE) {
                ((FloatVector) res.convertShape(VectorOperators.D2F, HALF, 0)).intoArray(o, oo + i);
            } else {
                res.intoArray(d, i);
            }
        }
    }

    /** One element of {@link #loop}, by the same operations in the same order. */
    static float expm1(float v) {
        double x = v;
        if (Math.abs(x) > BOUND) {
            return (float) Math.expm1(x);
        }
        if (x == 0) {
            return v;
        }
        double t = Math.fma(x, INV_LN2, MAGIC);
        double negK = -(t - MAGIC);
        double r = Math.fma(negK, LN2_HI, x);
        r = Math.fma(negK, LN2_LO, r);
        double q = Math.fma(r, C[13], C[12]);
        for (int c = 11; c >= 2; c--) {
            q = Math.fma(q, r, C[c]);
        }
        double p = Math.fma(r * r, q, r);
        long k = Double.doubleToRawLongBits(t) - Double.doubleToRawLongBits(MAGIC);
        double scale = Double.longBitsToDouble((k + 1023L) << 52);
        return (float) Math.fma(scale, p, scale - 1.0);
    }
}
