package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Softmax and log-softmax over a dim that is not the last, which runs whole runs of columns through the vector kernels:
 * against the last-dim path on the same numbers moved to the end, with NaN, with more columns than one task takes, and
 * the same bits on one thread and on two.
 */
class SoftmaxAlongDimTest {
    /**
     * Within float rounding of the last-dim path on the same numbers: its short rows take Math.exp where the columns'
     * runs take the vector exp (within 2 ulp of it), and its sums add the same terms in another order. A log-softmax near
     * 0 is x minus a number close to it, so its error is a rounding of x (about 1e-6 here), not of the result.
     */
    private static void assertNear(Tensor expected, Tensor actual, boolean log, String what) {
        float[] e = expected.toFloatArray();
        float[] a = actual.toFloatArray();
        assertEquals(e.length, a.length);
        for (int i = 0; i < e.length; i++) {
            if (Float.isNaN(e[i])) {
                assertTrue(Float.isNaN(a[i]), what + " at " + i);
                continue;
            }
            assertEquals(e[i], a[i], 2e-6f * Math.abs(e[i]) + (log ? 2e-6f : 1e-7f), what + " at " + i);
        }
    }

    @Test
    void matchesTheLastDimPathOnTheSameNumbers() {
        int[][] shapes = {{7, 40}, {3, 5, 17, 2}, {2, 9, 600}, {4, 6, 33}};
        for (int[] shape : shapes) {
            Tensor x = Tensor.randn(new Generator(shape.length * 31L + shape[0]), shape).mul(4);
            for (int d = 0; d < shape.length - 1; d++) {
                for (boolean log : new boolean[] {false, true}) {
                    Tensor got = log ? x.logSoftmax(d) : x.softmax(d);
                    Tensor moved = x.movedim(d, -1).contiguous();
                    Tensor want = (log ? moved.logSoftmax(-1) : moved.softmax(-1)).movedim(-1, d).contiguous();
                    assertArrayEquals(x.shape(), got.shape());
                    assertNear(want, got, log, (log ? "log_softmax " : "softmax ") + Shape.str(shape) + " over " + d);
                }
            }
        }
    }

    @Test
    void aNaNSpoilsOnlyItsOwnColumn() {
        Tensor x = Tensor.randn(new Generator(5), 6, 20);
        x.set(Double.NaN, 2, 3);
        Tensor y = x.softmax(0);
        for (int i = 0; i < 6; i++) {
            for (int c = 0; c < 20; c++) {
                assertEquals(c == 3, Double.isNaN(y.getDouble(i, c)), "row " + i + " column " + c);
            }
        }
        assertEquals(1.0, y.sum(0, false).getDouble(7), 1e-6);
    }

    @Test
    @org.junit.jupiter.api.extension.ExtendWith(AllThreads.class)
    void theThreadCountDoesNotChangeTheBits() {
        Tensor x = Tensor.randn(new Generator(9), 64, 3, 700);
        Backend.setThreads(1);
        float[] one = x.softmax(1).toFloatArray();
        float[] oneLog = x.logSoftmax(0).toFloatArray();
        Backend.setThreads(2);
        assertArrayEquals(one, x.softmax(1).toFloatArray());
        assertArrayEquals(oneLog, x.logSoftmax(0).toFloatArray());
    }
}
