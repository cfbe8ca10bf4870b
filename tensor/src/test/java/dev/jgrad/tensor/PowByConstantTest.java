package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * pow with the exponents that skip Math.pow (2, 1, 3, 4, -1, -2, 0.5, -0.5) against Math.pow over floats of every
 * magnitude and sign and the special values, bit for bit (a float product of three floats, two roundings, would be off
 * by an ulp on a third of them; -0 and -infinity follow pow, not the square root); a strided tensor's powers have a
 * contiguous one's bits; any other exponent is Math.pow's.
 */
class PowByConstantTest {
    private static float[] values() {
        Random r = new Random(53);
        float[] special = {0f, -0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN, 1f, -1f, Float.MIN_VALUE,
                           -Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE, 1e-20f, -3e19f, 0.5f};
        float[] v = new float[30 * 37];
        for (int i = 0; i < v.length; i++) {
            v[i] = i < special.length ? special[i] : (r.nextBoolean() ? -1 : 1) * (float) Math.pow(10, r.nextDouble() * 60 - 30) * r.nextFloat();
        }
        return v;
    }

    @Test
    void shortFormsFollowMathPow() {
        float[] v = values();
        Tensor x = Tensor.of(v, 30, 37);
        for (float s : new float[] {2f, 1f, 3f, 4f, -1f, -2f, 0.5f, -0.5f, 2.5f, -3f}) {
            Tensor y = x.pow(s);
            Tensor strided = x.t().contiguous().t().pow(s);
            for (int i = 0; i < v.length; i++) {
                int[] idx = {i / 37, i % 37};
                float want = (float) Math.pow(v[i], s);
                float got = (float) y.getDouble(idx);
                String what = v[i] + "^" + s;
                assertEquals(Float.floatToRawIntBits(got), Float.floatToRawIntBits((float) strided.getDouble(idx)), "strided " + what);
                assertEquals(Float.floatToRawIntBits(want), Float.floatToRawIntBits(got), what);
            }
        }
    }
}
