package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** to(dtype) between the float types and into float32, contiguous and transposed: each element as a cast gives it. */
class ConversionTest {
    @Test
    void floatTypesConvertAsCastsDo() {
        Tensor d = Tensor.randn(new Generator(3), 6, 13).to(DType.FLOAT64).mul(1e3).add(1.0 / 3);
        d.set(Double.NaN, 0, 0).set(-0.0, 0, 1).set(Double.POSITIVE_INFINITY, 0, 2).set(1e300, 0, 3).set(1e-300, 0, 4);
        for (Tensor in : new Tensor[] {d, d.t()}) {
            Tensor f = in.to(DType.FLOAT32);
            Tensor back = f.to(DType.FLOAT64);
            for (int e = 0; e < in.numel(); e++) {
                int[] idx = Shape.unravel(e, in.shape());
                float want = (float) in.getDouble(idx);
                assertEquals(Float.floatToRawIntBits(want), Float.floatToRawIntBits((float) f.getDouble(idx)), "float64 -> float32 at " + e);
                assertEquals(Double.doubleToRawLongBits((double) want), Double.doubleToRawLongBits(back.getDouble(idx)), "float32 -> float64 at " + e);
            }
        }
    }

    @Test
    void longsGoThroughDoubleToFloat32AndMasksBecomeOnesAndZeros() {
        // 2^53 + 1 rounds to 2^53 in double, and 2^53 is a float: through double it is 2^53, cast directly 2^53 too;
        // 2^24 + 1 is no float; -(2^62 + 2^38 + 1) rounds once in double and again in float.
        long[] v = {0, -7, (1L << 24) + 1, (1L << 53) + 1, -((1L << 62) + (1L << 38) + 1), Long.MAX_VALUE};
        Tensor l = Tensor.of(v, 2, 3);
        float[] got = l.t().to(DType.FLOAT32).t().toFloatArray();
        float[] want = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            want[i] = (float) (double) v[i];
        }
        assertArrayEquals(want, got);
        Tensor mask = Tensor.of(new boolean[] {true, false, false, true, true, false}, 3, 2);
        assertArrayEquals(new float[] {1, 0, 0, 1, 1, 0}, mask.to(DType.FLOAT32).toFloatArray());
        assertArrayEquals(new float[] {1, 0, 1, 0, 1, 0}, mask.t().to(DType.FLOAT32).toFloatArray());
    }
}
