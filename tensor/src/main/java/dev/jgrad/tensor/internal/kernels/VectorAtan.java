package dev.jgrad.tensor.internal.kernels;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * atan and atan2 of float32 a vector at a time, in double lanes, by fdlibm's method: |x| is brought near 0 by one of
 * four identities chosen by its size ({@code atan x = atan c + atan((x - c) / (1 + c x))} for c = 1/2, 1, 3/2, and
 * {@code pi/2 - atan(1/x)}), then its odd polynomial; atan2 is atan(|y| / |x|) put in its quadrant. Within a few
 * double ulp of the true value, so the float is {@code (float) Math.atan} / {@code Math.atan2}'s but where the true value
 * lies within about 2^-50 of halfway between two floats. atan2 takes a vector holding a zero, an infinity or a NaN to
 * Math.atan2 lane by lane (their signs and quadrants are its rules); each element's result depends on its values alone.
 */
final class VectorAtan {
    private static final VectorSpecies<Double> D = VectorMath.D;
    private static final VectorSpecies<Float> HALF = VectorMath.HALF;

    /** fdlibm's atan(1/2), atan(1), atan(3/2), atan(inf), each as a high and a low part. */
    private static final double HI0 = 4.63647609000806093515e-01;
    private static final double HI1 = 7.85398163397448278999e-01;
    private static final double HI2 = 9.82793723247329054082e-01;
    private static final double HI3 = 1.57079632679489655800e+00;
    private static final double LO0 = 2.26987774529616870924e-17;
    private static final double LO1 = 3.06161699786838301793e-17;
    private static final double LO2 = 1.39033110312309984516e-17;
    private static final double LO3 = 6.12323399573676603587e-17;
    /** fdlibm's aT: the odd polynomial's coefficients on [-7/16, 7/16]. */
    private static final double AT0 = 3.33333333333329318027e-01;
    private static final double AT1 = -1.99999999998764832476e-01;
    private static final double AT2 = 1.42857142725034663711e-01;
    private static final double AT3 = -1.11111104054623557880e-01;
    private static final double AT4 = 9.09088713343650656196e-02;
    private static final double AT5 = -7.69187620504482999495e-02;
    private static final double AT6 = 6.66107313738753120669e-02;
    private static final double AT7 = -5.83357013379057348645e-02;
    private static final double AT8 = 4.97687799461593236017e-02;
    private static final double AT9 = -3.65315727442169155270e-02;
    private static final double AT10 = 1.62858201153657823623e-02;
    private static final double PI = 0x1.921fb54442d18p1;
    private static final double PI_LO = 1.2246467991473531772e-16;

    private VectorAtan() {
    }

    /** {@code o[i] = atan(a[i])}. */
    static void atanLoop(float[] a, int ao, float[] o, int oo, int n) {
        loop(a, ao, null, 0, o, oo, n);
    }

    /** {@code o[i] = atan2(y[i], x[i])}, the angle of the point (x, y). */
    static void atan2Loop(float[] y, int yo, float[] x, int xo, float[] o, int oo, int n) {
        loop(y, yo, x, xo, o, oo, n);
    }

    /** atan of a, or with x atan2 of (a, x). */
    private static void loop(float[] a, int ao, float[] x, int xo, float[] o, int oo, int n) {
        boolean two = x != null;
        int covered = DoubleLanes.run(a, ao, x, xo, o, oo, n,
                (y1, yo1, x1, xo1, out, outOffset, d, e, len) -> block(y1, yo1, x1, xo1, out, outOffset, d, e, len, two));
        for (int i = covered; i < n; i++) {
            o[oo + i] = two ? atan2(a[ao + i], x[xo + i]) : atan(a[ao + i]);
        }
    }

    /**
     * atan (or atan2 where {@code two}) of n elements, through {@link DoubleLanes}'s arrays (the loads and stores as
     * {@link VectorTrig} writes them): y from a or d, x from b or e. One loop with the polynomial written out in it,
     * constants inline: C2 does not inline a method this long, and a vector passed to one that is not inlined becomes an
     * object on the heap.
     */
    private static void block(float[] a, int ao, float[] b, int bo, float[] o, int oo, double[] d, double[] e, int n, boolean two) {
        int h = D.length();
        for (int i = 0; i < n; i += h) {
            DoubleVector yv = VectorMath.SECOND_SHAPE ? (DoubleVector) FloatVector.fromArray(HALF, a, ao + i).convertShape(VectorOperators.F2D, D, 0)
                    : DoubleVector.fromArray(D, d, i);
            DoubleVector ay = yv.abs();
            // atan's x is 1: the quadrant's test below then changes nothing (no vector here may be null: C2 would box it).
            DoubleVector xv = !two ? DoubleVector.broadcast(D, 1.0)
                    : VectorMath.SECOND_SHAPE ? (DoubleVector) FloatVector.fromArray(HALF, b, bo + i).convertShape(VectorOperators.F2D, D, 0)
                    : DoubleVector.fromArray(D, e, i);
            DoubleVector ax = xv.abs();
            if (two) {
                // Zeros, infinities and NaN (a NaN fails both tests) are Math.atan2's.
                VectorMask<Double> regular = ay.compare(VectorOperators.GT, 0.0).and(ay.compare(VectorOperators.LT, Double.POSITIVE_INFINITY))
                        .and(ax.compare(VectorOperators.GT, 0.0)).and(ax.compare(VectorOperators.LT, Double.POSITIVE_INFINITY));
                if (!regular.allTrue()) {
                    for (int k = 0; k < h; k++) {
                        DoubleLanes.put(atan2(DoubleLanes.element(a, ao, d, i + k), DoubleLanes.element(b, bo, e, i + k)), o, oo, d, i + k);
                    }
                    continue;
                }
            }
            DoubleVector t = two ? ay.div(ax) : ay;
            // Beyond 2^100 atan is pi/2 to the last bit, and infinity would make the last identity's 0 x NaN. A compare and a
            // blend, not min: Java's min of doubles (its NaN and signed-zero rules) cost a fifth of the loop, more on JDK 17.
            t = t.blend(0x1p100, t.compare(VectorOperators.GT, 0x1p100));
            VectorMask<Double> m0 = t.compare(VectorOperators.GE, 0.4375);
            VectorMask<Double> m1 = t.compare(VectorOperators.GE, 0.6875);
            VectorMask<Double> m2 = t.compare(VectorOperators.GE, 1.1875);
            VectorMask<Double> m3 = t.compare(VectorOperators.GE, 2.4375);
            // The identities take over at 7/16, 11/16, 19/16 and 39/16, each as (a t - b) / (c + d t): (2t - 1) / (2 + t),
            // (t - 1) / (1 + t), (t - 1.5) / (1 + 1.5t) and -1 / t; below 7/16 none (t / 1). hi + lo is atan c.
            DoubleVector ca = DoubleVector.broadcast(D, 1.0).blend(2.0, m0).blend(1.0, m1).blend(0.0, m3);
            DoubleVector cb = DoubleVector.zero(D).blend(1.0, m0).blend(1.5, m2).blend(1.0, m3);
            DoubleVector cd = DoubleVector.zero(D).blend(1.0, m0).blend(1.5, m2).blend(1.0, m3);
            DoubleVector hi = DoubleVector.zero(D).blend(HI0, m0).blend(HI1, m1).blend(HI2, m2).blend(HI3, m3);
            DoubleVector lo = DoubleVector.zero(D).blend(LO0, m0).blend(LO1, m1).blend(LO2, m2).blend(LO3, m3);
            // c equals a in every range.
            DoubleVector u = ca.fma(t, cb.neg()).div(cd.fma(t, ca));
            DoubleVector z = u.mul(u);
            DoubleVector w = z.mul(z);
            DoubleVector odd = w.fma(AT10, AT8).fma(w, DoubleVector.broadcast(D, AT6)).fma(w, DoubleVector.broadcast(D, AT4))
                    .fma(w, DoubleVector.broadcast(D, AT2)).fma(w, DoubleVector.broadcast(D, AT0)).mul(z);
            DoubleVector even = w.fma(AT9, AT7).fma(w, DoubleVector.broadcast(D, AT5)).fma(w, DoubleVector.broadcast(D, AT3))
                    .fma(w, DoubleVector.broadcast(D, AT1)).mul(w);
            // hi - ((u (s1 + s2) - lo) - u): u - u (s1 + s2) where no identity was used (hi and lo 0).
            DoubleVector r = hi.sub(u.mul(odd.add(even)).sub(lo).sub(u));
            r = r.blend(r.sub(PI_LO).neg().add(PI), xv.compare(VectorOperators.LT, 0.0));
            DoubleVector signed = r.reinterpretAsLongs().or(yv.reinterpretAsLongs().and(Long.MIN_VALUE)).reinterpretAsDoubles();
            if (VectorMath.SECOND_SHAPE) {
                ((FloatVector) signed.convertShape(VectorOperators.D2F, HALF, 0)).intoArray(o, oo + i);
            } else {
                signed.intoArray(d, i);
            }
        }
    }

    /** One element of {@link #atanLoop}, by the same operations in the same order. */
    static float atan(float v) {
        double z = atanOfMagnitude((double) Math.abs(v));
        return (float) Double.longBitsToDouble(Double.doubleToRawLongBits(z) | (Double.doubleToRawLongBits(v) & Long.MIN_VALUE));
    }

    /** One element of {@link #atan2Loop}, by the same operations in the same order. */
    static float atan2(float y, float x) {
        double ay = Math.abs((double) y);
        double ax = Math.abs((double) x);
        if (!(ay > 0 && ay < Double.POSITIVE_INFINITY && ax > 0 && ax < Double.POSITIVE_INFINITY)) {
            return (float) Math.atan2(y, x);
        }
        double z = atanOfMagnitude(ay / ax);
        if (x < 0) {
            z = -(z - PI_LO) + PI;
        }
        return (float) Double.longBitsToDouble(Double.doubleToRawLongBits(z) | (Double.doubleToRawLongBits(y) & Long.MIN_VALUE));
    }

    /** atan of one double at least +0 (or NaN), by {@link #loop}'s operations in its order. */
    private static double atanOfMagnitude(double magnitude) {
        double t = magnitude > 0x1p100 ? 0x1p100 : magnitude;
        double ca = t >= 2.4375 ? 0.0 : t >= 0.6875 ? 1.0 : t >= 0.4375 ? 2.0 : 1.0;
        double cb = t >= 2.4375 ? 1.0 : t >= 1.1875 ? 1.5 : t >= 0.4375 ? 1.0 : 0.0;
        double cd = t >= 2.4375 ? 1.0 : t >= 1.1875 ? 1.5 : t >= 0.4375 ? 1.0 : 0.0;
        double hi = t >= 2.4375 ? HI3 : t >= 1.1875 ? HI2 : t >= 0.6875 ? HI1 : t >= 0.4375 ? HI0 : 0.0;
        double lo = t >= 2.4375 ? LO3 : t >= 1.1875 ? LO2 : t >= 0.6875 ? LO1 : t >= 0.4375 ? LO0 : 0.0;
        double u = Math.fma(ca, t, -cb) / Math.fma(cd, t, ca);
        double z = u * u;
        double w = z * z;
        double odd = Math.fma(Math.fma(Math.fma(Math.fma(Math.fma(w, AT10, AT8), w, AT6), w, AT4), w, AT2), w, AT0) * z;
        double even = Math.fma(Math.fma(Math.fma(Math.fma(w, AT9, AT7), w, AT5), w, AT3), w, AT1) * w;
        return hi - ((u * (odd + even) - lo) - u);
    }
}
