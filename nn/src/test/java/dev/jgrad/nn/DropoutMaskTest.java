package dev.jgrad.nn;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The one-pass float32 dropout mask equals the expression it replaces, bit for bit, and draws the same numbers. */
class DropoutMaskTest {
    @Test
    void theFloatMaskIsTheReferenceExpressionBitForBit() {
        int[][] shapes = {{3, 5, 7}, {64, 129}, {1}, {0, 4}};
        for (double p : new double[] {0.1, 0.2, 0.3, 1.0 / 3, 0.5, 0.7, 0.9999}) {
            for (int[] shape : shapes) {
                Generator a = new Generator(7);
                Generator b = new Generator(7);
                Tensor want = Tensor.rand(a, shape).ge(p).to(DType.FLOAT32).mul(1.0 / (1.0 - p));
                Tensor got = Functional.dropoutMask(shape, DType.FLOAT32, p, b);
                assertArrayEquals(want.shape(), got.shape());
                assertArrayEquals(want.toFloatArray(), got.toFloatArray(), "p " + p);
                assertEquals(a.state(), b.state(), "the same number of draws");
            }
        }
    }

    @Test
    void float64KeepsTheExpression() {
        Tensor m = Functional.dropoutMask(new int[] {4, 6}, DType.FLOAT64, 0.25, new Generator(3));
        assertEquals(DType.FLOAT64, m.dtype());
        for (double v : m.toDoubleArray()) {
            assertEquals(true, v == 0.0 || v == 1.0 / 0.75, "value " + v);
        }
    }
}
