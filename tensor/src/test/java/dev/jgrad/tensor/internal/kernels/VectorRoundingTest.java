package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.UnaryOp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The vector floor and round against {@code Math.floor} and {@code Math.rint} bit for bit: halves, signed zeros, the edges. */
@Tag(VectorKernelsOnly.TAG)
class VectorRoundingTest {
    private static ElementwiseKernels elementwise;

    @BeforeAll
    static void vectorKernelsInUse() {
        VectorKernelsRequired.check();
        elementwise = new VectorElementwise();
    }

    private static float[] inputs() {
        SplittableRandom r = new SplittableRandom(7);
        float[] x = new float[600_000];
        for (int i = 0; i < x.length; i++) {
            switch (i % 4) {
                case 0 -> x[i] = Float.intBitsToFloat(r.nextInt());                      // any magnitude, NaNs too
                case 1 -> x[i] = (r.nextInt(2_000_001) - 1_000_000) + 0.5f;               // halves: to the even one
                case 2 -> x[i] = (float) ((r.nextDouble() * 2 - 1) * 10);
                default -> x[i] = (float) ((r.nextDouble() * 2 - 1) * 2e7);                 // around 2^23 = 8388608
            }
        }
        float[] edges = {0f, -0f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 0.49999997f, -0.49999997f, 8388607.5f,
            -8388607.5f, 8388608f, 8388609f, 16777215f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
            Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE};
        System.arraycopy(edges, 0, x, 1000, edges.length);
        return x;
    }

    @Test
    void floorAndRoundAreMathsBitForBit() {
        float[] x = inputs();
        for (UnaryOp op : new UnaryOp[] {UnaryOp.FLOOR, UnaryOp.ROUND}) {
            float[] got = new float[x.length];
            elementwise.unary(op, x, 0, got, 0, x.length);
            for (int i = 0; i < x.length; i++) {
                float in = x[i];
                float want = (float) (op == UnaryOp.FLOOR ? Math.floor(in) : Math.rint(in));
                float was = got[i];
                assertEquals(Float.floatToIntBits(want), Float.floatToIntBits(was), () -> op + "(" + in + "): want " + want + ", got " + was);
            }
        }
    }
}
