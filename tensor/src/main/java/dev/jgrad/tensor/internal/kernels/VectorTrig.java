package dev.jgrad.tensor.internal.kernels;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * sin and cos of float32 a vector at a time, in double lanes: x = n pi/2 + r with |r| <= pi/4 (pi/2 in three doubles,
 * each step one fused multiply-add, so r keeps its digits even where x is near a multiple of pi/2), then fdlibm's
 * polynomials for sin r and cos r, the one that quadrant n needs, its sign from n. The double result is within a
 * double ulp or two of the true value, so its float is {@code (float) Math.sin(x)} but where the true value lies within
 * about 2^-50 of halfway between two floats (never met in the tests' millions of inputs).
 *
 * <p>Each element's result depends on its value alone: {@link #sin(float, boolean)} is the same arithmetic for the
 * loop's tail, and |x| above {@link #BOUND} (and the infinities) goes to {@code Math.sin} in both, so where a job is
 * split between threads does not change a bit. Only correctly rounded operations, as {@link VectorMath} explains.
 */
final class VectorTrig {
    private static final VectorSpecies<Double> D = VectorMath.D;
    private static final VectorSpecies<Float> HALF = VectorMath.HALF;

    /** Beyond this |x| the reduction's n would lose its low bits to the products' rounding: Math.sin there. */
    static final double BOUND = 0x1p28;
    /** 1.5 * 2^52: a double below 2^51 in magnitude added to it is rounded to an integer, held in its low bits. */
    private static final double MAGIC = 0x1.8p52;
    private static final double TWO_OVER_PI = 0x1.45f306dc9c883p-1;
    /** pi/2 as the sum of three doubles, each the rounding of what the ones before leave. */
    private static final double PIO2_HI = 0x1.921fb54442d18p+0;
    private static final double PIO2_MID = 0x1.1a62633145c07p-54;
    private static final double PIO2_LO = -0x1.f1976b7ed8fbcp-110;
    /** fdlibm's __kernel_sin: sin r = r + r^3 (S1 + r^2 (S2 + ... + r^2 S6)) for |r| <= pi/4. */
    private static final double S1 = -1.66666666666666324348e-01;
    private static final double S2 = 8.33333333332248946124e-03;
    private static final double S3 = -1.98412698298579493134e-04;
    private static final double S4 = 2.75573137070700676789e-06;
    private static final double S5 = -2.50507602534068634195e-08;
    private static final double S6 = 1.58969099521155010221e-10;
    /** fdlibm's __kernel_cos: cos r = 1 - r^2/2 + r^4 (C1 + r^2 (C2 + ... + r^2 C6)). */
    private static final double C1 = 4.16666666666666019037e-02;
    private static final double C2 = -1.38888888888741095749e-03;
    private static final double C3 = 2.48015872894767294178e-05;
    private static final double C4 = -2.75573143513906633035e-07;
    private static final double C5 = 2.08757232129817482790e-09;
    private static final double C6 = -1.13596475577881948265e-11;

    private static final DoubleVector V_PIO2_HI = DoubleVector.broadcast(D, PIO2_HI);
    private static final DoubleVector V_PIO2_MID = DoubleVector.broadcast(D, PIO2_MID);
    private static final DoubleVector V_PIO2_LO = DoubleVector.broadcast(D, PIO2_LO);
    private static final DoubleVector V_S1 = DoubleVector.broadcast(D, S1);
    private static final DoubleVector V_S2 = DoubleVector.broadcast(D, S2);
    private static final DoubleVector V_S3 = DoubleVector.broadcast(D, S3);
    private static final DoubleVector V_S4 = DoubleVector.broadcast(D, S4);
    private static final DoubleVector V_C1 = DoubleVector.broadcast(D, C1);
    private static final DoubleVector V_C2 = DoubleVector.broadcast(D, C2);
    private static final DoubleVector V_C3 = DoubleVector.broadcast(D, C3);
    private static final DoubleVector V_C4 = DoubleVector.broadcast(D, C4);

    private VectorTrig() {
    }

    /** {@code o[i] = sin(a[i])}, or {@code cos(a[i])} when {@code cosine}. */
    static void loop(float[] a, int ao, float[] o, int oo, int n, boolean cosine) {
        int covered = DoubleLanes.run(a, ao, null, 0, o, oo, n,
                (x, xo, unused, unusedOffset, out, outOffset, d, e, len) -> block(x, xo, out, outOffset, d, len, cosine));
        for (int i = covered; i < n; i++) {
            o[oo + i] = sin(a[ao + i], cosine);
        }
    }

    /** sin (or cos) of n elements, through {@link DoubleLanes}'s arrays. */
    private static void block(float[] a, int ao, float[] o, int oo, double[] d, int n, boolean cosine) {
        int h = D.length();
        // cos x = sin(x + pi/2): the quadrant one further on.
        long shift = cosine ? 1 : 0;
        for (int i = 0; i < n; i += h) {
            DoubleVector x = VectorMath.SECOND_SHAPE ? (DoubleVector) FloatVector.fromArray(HALF, a, ao + i).convertShape(VectorOperators.F2D, D, 0)
                    : DoubleVector.fromArray(D, d, i);
            if (x.abs().compare(VectorOperators.GT, BOUND).anyTrue()) {
                for (int k = 0; k < h; k++) {
                    DoubleLanes.put(sin(DoubleLanes.element(a, ao, d, i + k), cosine), o, oo, d, i + k);
                }
                continue;
            }
            DoubleVector t = x.fma(TWO_OVER_PI, MAGIC);
            DoubleVector negN = t.sub(MAGIC).neg();
            DoubleVector r = negN.fma(V_PIO2_HI, x);
            r = negN.fma(V_PIO2_MID, r);
            r = negN.fma(V_PIO2_LO, r);
            DoubleVector z = r.mul(r);
            DoubleVector sp = z.fma(S6, S5).fma(z, V_S4).fma(z, V_S3).fma(z, V_S2);
            DoubleVector s = z.mul(r).fma(z.fma(sp, V_S1), r);
            DoubleVector cp = z.fma(C6, C5).fma(z, V_C4).fma(z, V_C3).fma(z, V_C2).fma(z, V_C1);
            // 1 - z/2 with its rounding error carried, as fdlibm does.
            DoubleVector hz = z.mul(0.5);
            DoubleVector w = hz.neg().add(1.0);
            DoubleVector c = w.add(w.neg().add(1.0).sub(hz).add(z.mul(z).mul(cp)));
            LongVector q = t.reinterpretAsLongs().add(shift);
            LongVector picked = s.reinterpretAsLongs().blend(c.reinterpretAsLongs(), q.and(1L).compare(VectorOperators.NE, 0L));
            DoubleVector res = picked.lanewise(VectorOperators.XOR, q.and(2L).lanewise(VectorOperators.LSHL, 62)).reinterpretAsDoubles();
            if (!cosine) {
                // sin(-0) is -0, where the polynomial's r + (+0) gives +0.
                res = res.blend(x, x.compare(VectorOperators.EQ, 0.0));
            }
            if (VectorMath.SECOND_SHAPE) {
                ((FloatVector) res.convertShape(VectorOperators.D2F, HALF, 0)).intoArray(o, oo + i);
            } else {
                res.intoArray(d, i);
            }
        }
    }

    /** One element of {@link #loop}, by the same operations in the same order. */
    static float sin(float v, boolean cosine) {
        double x = v;
        if (!cosine && x == 0) {
            return v;
        }
        if (Math.abs(x) > BOUND) {
            return (float) (cosine ? Math.cos(x) : Math.sin(x));
        }
        double t = Math.fma(x, TWO_OVER_PI, MAGIC);
        double negN = -(t - MAGIC);
        double r = Math.fma(negN, PIO2_HI, x);
        r = Math.fma(negN, PIO2_MID, r);
        r = Math.fma(negN, PIO2_LO, r);
        double z = r * r;
        double sp = Math.fma(Math.fma(Math.fma(Math.fma(z, S6, S5), z, S4), z, S3), z, S2);
        double s = Math.fma(z * r, Math.fma(z, sp, S1), r);
        double cp = Math.fma(Math.fma(Math.fma(Math.fma(Math.fma(z, C6, C5), z, C4), z, C3), z, C2), z, C1);
        double hz = z * 0.5;
        double w = -hz + 1.0;
        double c = w + ((-w + 1.0 - hz) + z * z * cp);
        long q = Double.doubleToRawLongBits(t) + (cosine ? 1 : 0);
        double picked = (q & 1) != 0 ? c : s;
        return (float) Double.longBitsToDouble(Double.doubleToRawLongBits(picked) ^ ((q & 2) << 62));
    }
}
