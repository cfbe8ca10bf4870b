package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.UnaryOp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The float32 functions computed in double lanes (sin, cos, expm1) against {@code (float) Math.sin} and the rest bit
 * for bit (the plain kernels' result, so a tensor's values do not depend on which kernels ran), over every magnitude a
 * float has, the points where the argument reduction is hardest, and the edges.
 */
@Tag(VectorKernelsOnly.TAG)
class DoubleLaneFunctionsTest {
    private static ElementwiseKernels elementwise;

    @BeforeAll
    static void vectorKernelsInUse() {
        VectorKernelsRequired.check();
        elementwise = new VectorElementwise();
    }

    /** Floats whose bits are uniform: every exponent from the subnormals to the largest, both signs. */
    private static float[] anyMagnitude(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            float f;
            do {
                f = Float.intBitsToFloat(r.nextInt());
            } while (Float.isNaN(f));
            x[i] = f;
        }
        return x;
    }

    /** The floats on either side of k pi/2 for k up to a million, where x - n pi/2 cancels most digits. */
    private static float[] nearMultiplesOfHalfPi() {
        int k = 1_000_000;
        float[] x = new float[4 * k];
        for (int i = 0; i < k; i++) {
            float f = (float) (i * (Math.PI / 2));
            x[4 * i] = f;
            x[4 * i + 1] = Math.nextUp(f);
            x[4 * i + 2] = -Math.nextDown(f);
            x[4 * i + 3] = -f;
        }
        return x;
    }

    private static float[] edges() {
        float b = (float) VectorTrig.BOUND;
        return new float[] {0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE,
            -Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE, -Float.MAX_VALUE, b, -b, Math.nextUp(b), Math.nextDown(b),
            1e-30f, -1e-8f, 0.7853982f, 1.5707964f, 3.1415927f, 100f, 1e5f, 1e7f, 16777216f, 1e10f, -1e20f, 1f, -1f, 2f};
    }

    private static void assertSameBitsAsMath(UnaryOp op, float[] x) {
        float[] got = new float[x.length];
        elementwise.unary(op, x, 0, got, 0, x.length);
        for (int i = 0; i < x.length; i++) {
            float in = x[i];
            float want = (float) (op == UnaryOp.SIN ? Math.sin(in) : op == UnaryOp.COS ? Math.cos(in)
                    : op == UnaryOp.ATAN ? Math.atan(in) : Math.expm1(in));
            float was = got[i];
            assertEquals(Float.floatToIntBits(want), Float.floatToIntBits(was), () -> op + "(" + in + "): want " + want + ", got " + was);
        }
    }

    @Test
    void sinAndCosAreMathsFloatsAtEveryMagnitude() {
        for (UnaryOp op : new UnaryOp[] {UnaryOp.SIN, UnaryOp.COS}) {
            assertSameBitsAsMath(op, anyMagnitude(1_000_003, 11));
            assertSameBitsAsMath(op, nearMultiplesOfHalfPi());
            assertSameBitsAsMath(op, edges());
            assertSameBitsAsMath(op, signedZerosInRange());
        }
    }

    @Test
    void expm1IsMathsFloatAtEveryMagnitudeAndNearZero() {
        assertSameBitsAsMath(UnaryOp.EXPM1, anyMagnitude(1_000_003, 12));
        assertSameBitsAsMath(UnaryOp.EXPM1, edges());
        // Where k = round(x / ln 2) changes, and below 1e-3, where e^x - 1 would lose every digit.
        float[] x = new float[400_000];
        SplittableRandom r = new SplittableRandom(8);
        for (int i = 0; i < x.length; i++) {
            x[i] = i % 2 == 0 ? (float) ((r.nextInt(301) - 150) * 0.34657359027997264 + (r.nextDouble() - 0.5) * 1e-6)
                    : (float) ((r.nextDouble() * 2 - 1) * 1e-3);
        }
        assertSameBitsAsMath(UnaryOp.EXPM1, x);
        float[] e = {88.7f, 88.75f, 89f, -17f, -18f, -103.9f, 103.9f, 104.5f, -104.5f};
        assertSameBitsAsMath(UnaryOp.EXPM1, e);
        assertSameBitsAsMath(UnaryOp.EXPM1, signedZerosInRange());
    }

    /** Both zeros and tiny numbers in whole vectors whose every lane is in range (so not by the scalar form). */
    private static float[] signedZerosInRange() {
        float[] x = new float[64];
        for (int i = 0; i < x.length; i++) {
            x[i] = i % 3 == 0 ? -0f : i % 3 == 1 ? 0f : (i % 2 == 0 ? 1e-30f : -Float.MIN_VALUE);
        }
        return x;
    }

    @Test
    void atanIsMathsFloatAtEveryMagnitudeAndAtTheIdentitiesBorders() {
        assertSameBitsAsMath(UnaryOp.ATAN, anyMagnitude(1_000_003, 13));
        assertSameBitsAsMath(UnaryOp.ATAN, edges());
        assertSameBitsAsMath(UnaryOp.ATAN, signedZerosInRange());
        float[] borders = {0.4375f, 0.6875f, 1.1875f, 2.4375f};
        float[] x = new float[4 * borders.length * 64];
        int at = 0;
        for (float b : borders) {
            float f = b;
            for (int k = 0; k < 32; k++) {
                x[at++] = f;
                x[at++] = -f;
                f = Math.nextDown(f);
            }
            f = Math.nextUp(b);
            for (int k = 0; k < 32; k++) {
                x[at++] = f;
                x[at++] = -f;
                f = Math.nextUp(f);
            }
        }
        assertSameBitsAsMath(UnaryOp.ATAN, x);
    }

    @Test
    void atan2IsMathsFloatInEveryQuadrantAndOnTheAxes() {
        SplittableRandom r = new SplittableRandom(14);
        int n = 1_000_003;
        float[] y = new float[n];
        float[] x = new float[n];
        float[] special = {0f, -0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN, Float.MIN_VALUE, Float.MAX_VALUE};
        for (int i = 0; i < n; i++) {
            boolean anyBits = i % 3 == 0;
            y[i] = anyBits ? Float.intBitsToFloat(r.nextInt()) : (float) (r.nextGaussian() * Math.pow(10, r.nextInt(7) - 3));
            x[i] = anyBits ? Float.intBitsToFloat(r.nextInt()) : (float) (r.nextGaussian() * Math.pow(10, r.nextInt(7) - 3));
            if (i % 101 == 0) {
                x[i] = special[r.nextInt(special.length)];
            }
            if (i % 103 == 0) {
                y[i] = special[r.nextInt(special.length)];
            }
        }
        float[] got = new float[n];
        elementwise.binaryRows(dev.jgrad.tensor.BinaryOp.ATAN2, y, 0, n, x, 0, n, got, 0, n, 1, n);
        for (int i = 0; i < n; i++) {
            float yi = y[i];
            float xi = x[i];
            assertEquals(Float.floatToIntBits((float) Math.atan2(yi, xi)), Float.floatToIntBits(got[i]), () -> "atan2(" + yi + ", " + xi + ")");
        }
    }

    @Test
    void expm1TailIsTheLoopsArithmetic() {
        // Mostly in range (the vector path), now and then a lane beyond it (the whole vector by the scalar form).
        float[] big = anyMagnitude(997, 6);
        float[] x = new float[big.length];
        for (int i = 0; i < x.length; i++) {
            x[i] = i % 37 == 0 ? big[i] : (i % 40 - 20) * 0.7f;
        }
        for (int start = 0; start < 20; start += 3) {
            float[] part = new float[x.length - start];
            VectorExpm1.loop(x, start, part, 0, part.length);
            for (int i = 0; i < part.length; i++) {
                assertEquals(Float.floatToIntBits(VectorExpm1.expm1(x[start + i])), Float.floatToIntBits(part[i]), "from " + start + " at " + i);
            }
        }
    }

    @Test
    void sinAndCosAreMathsFloatsOnTheRangesNetworksUse() {
        SplittableRandom r = new SplittableRandom(5);
        for (double scale : new double[] {1e-3, 1, 10, 1000}) {
            float[] x = new float[300_007];
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) ((r.nextDouble() * 2 - 1) * scale);
            }
            assertSameBitsAsMath(UnaryOp.SIN, x);
            assertSameBitsAsMath(UnaryOp.COS, x);
        }
    }

    @Test
    void eachElementDependsOnItsValueAloneWhereverTheLoopStarts() {
        // A split between threads starts the loop elsewhere, so an element may fall in a vector, the tail, or a
        // vector that holds a lane beyond the bound.
        SplittableRandom r = new SplittableRandom(3);
        float[] big = anyMagnitude(1000, 4);
        float[] x = new float[1000];
        for (int i = 0; i < x.length; i++) {
            x[i] = i % 37 == 0 ? big[i] : (float) (r.nextDouble() * 20 - 10);
        }
        for (boolean cosine : new boolean[] {false, true}) {
            float[] whole = new float[x.length];
            VectorTrig.loop(x, 0, whole, 0, x.length, cosine);
            for (int start = 0; start < 40; start += 3) {
                int n = x.length - start - start % 7;
                float[] part = new float[n];
                VectorTrig.loop(x, start, part, 0, n, cosine);
                for (int i = 0; i < n; i++) {
                    assertEquals(Float.floatToIntBits(whole[start + i]), Float.floatToIntBits(part[i]), "from " + start + " at " + i);
                    assertEquals(Float.floatToIntBits(VectorTrig.sin(x[start + i], cosine)), Float.floatToIntBits(part[i]));
                }
            }
        }
    }
}
