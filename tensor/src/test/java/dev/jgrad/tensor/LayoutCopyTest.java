package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Contiguous copies of views whose layout differs from the result's (transposes, permutes, flips, a broadcast, a
 * strided destination), element by element against the view they copy, bit for bit: the copy chooses a kernel by the
 * layout (block copies, sixteen lines transposed at once, runs read backwards), and each must put every element where
 * the view says it is. Sizes run from 1 to past two vectors, so that every kernel meets its tails.
 */
class LayoutCopyTest {
    private static void assertSameElements(Tensor view, Tensor copy, String what) {
        assertArrayEquals(view.shape(), copy.shape(), what);
        Positions.forEach(view.shape(), idx -> assertEquals(Float.floatToRawIntBits((float) view.getDouble(idx)),
                Float.floatToRawIntBits((float) copy.getDouble(idx)), what + " at " + java.util.Arrays.toString(idx)));
    }

    @Test
    void transposesPermutesAndFlipsCopyEveryElementToItsPlace() {
        Random r = new Random(41);
        for (int trial = 0; trial < 40; trial++) {
            int a = 1 + r.nextInt(40);
            int b = 1 + r.nextInt(40);
            int c = 1 + r.nextInt(37);
            Tensor x = Tensor.randn(new Generator(trial), a, b, c);
            assertSameElements(x.transpose(1, 2), x.transpose(1, 2).contiguous(), "transpose(1, 2) of " + a + "x" + b + "x" + c);
            assertSameElements(x.transpose(0, 2), x.transpose(0, 2).contiguous(), "transpose(0, 2)");
            assertSameElements(x.permute(1, 0, 2), x.permute(1, 0, 2).contiguous(), "permute(1, 0, 2)");
            assertSameElements(x.permute(2, 0, 1), x.permute(2, 0, 1).contiguous(), "permute(2, 0, 1)");
            Tensor m = x.select(0, 0);
            assertSameElements(m.t(), m.t().contiguous(), "t()");
            for (int d = 0; d < 3; d++) {
                Tensor f = x.flip(d);
                int dim = d;
                Positions.forEach(x.shape(), idx -> {
                    int[] from = idx.clone();
                    from[dim] = x.size(dim) - 1 - idx[dim];
                    assertEquals(Float.floatToRawIntBits((float) x.getDouble(from)), Float.floatToRawIntBits((float) f.getDouble(idx)),
                            "flip(" + dim + ") at " + java.util.Arrays.toString(idx));
                });
            }
        }
    }

    /** Expanded views made contiguous: a scalar, a column along rows, a row along columns, a middle dim, large and small. */
    @Test
    void expandedViewsAreCopiedAsFills() {
        Generator g = new Generator(8);
        int big = 3 * dev.jgrad.tensor.internal.kernels.Tuning.parallelMin() / 61 + 5;
        for (int rows : new int[] {7, big}) {
            Tensor one = Tensor.randn(g, 1).reshape();
            assertSameElements(one.expand(rows, 61), one.expand(rows, 61).contiguous(), "a scalar expanded to " + rows + "x61");
            Tensor col = Tensor.randn(g, rows, 1);
            assertSameElements(col.expand(rows, 61), col.expand(rows, 61).contiguous(), "a column along rows");
            Tensor row = Tensor.randn(g, 1, 61);
            assertSameElements(row.expand(rows, 61), row.expand(rows, 61).contiguous(), "a row along columns");
            Tensor mid = Tensor.randn(g, rows, 1, 3);
            assertSameElements(mid.expand(rows, 5, 3), mid.expand(rows, 5, 3).contiguous(), "a middle dim");
        }
    }

    @Test
    void aBroadcastSourceAndAStridedDestinationAreCopiedElementByElement() {
        // A column broadcast along rows, copied into a transposed destination: the source steps 0 along one dim, the
        // destination runs across the other.
        Tensor col = Tensor.randn(new Generator(5), 37, 1);
        Tensor wide = col.expand(37, 29);
        Tensor dst = Tensor.zeros(DType.FLOAT32, 29, 37).t();
        dst.copyFrom(wide);
        assertSameElements(wide, dst, "expand into a transposed destination");
        Tensor src = Tensor.randn(new Generator(6), 29, 37);
        Tensor dstT = Tensor.zeros(DType.FLOAT32, 37, 29).t();
        dstT.copyFrom(src.t().t());
        assertSameElements(src, dstT, "into a transposed destination");
        Tensor into = Tensor.zeros(DType.FLOAT32, 37, 29);
        into.copyFrom(src.t());
        assertSameElements(src.t(), into, "a transposed source into a contiguous destination");
    }

    @Test
    @org.junit.jupiter.api.extension.ExtendWith(AllThreads.class)
    void largeCopiesAreTheSameOnOneThreadAndOnTwo() {
        // Past the size from which a copy is split across the threads; rows a multiple of neither 16 nor 8.
        Tensor x = Tensor.randn(new Generator(8), 517, 263);
        Tensor q = Tensor.randn(new Generator(9), 5, 33, 61, 7);
        Backend.setThreads(1);
        float[][] one = {x.t().contiguous().toFloatArray(), x.flip(1).toFloatArray(), q.permute(0, 2, 1, 3).contiguous().toFloatArray(),
                         x.clone().toFloatArray()};
        Backend.setThreads(2);
        float[][] two = {x.t().contiguous().toFloatArray(), x.flip(1).toFloatArray(), q.permute(0, 2, 1, 3).contiguous().toFloatArray(),
                         x.clone().toFloatArray()};
        for (int k = 0; k < one.length; k++) {
            assertArrayEquals(one[k], two[k], 0f, "copy " + k);
        }
        assertSameElements(x.t(), x.t().contiguous(), "a large transpose on two threads");
        assertSameElements(q.permute(0, 2, 1, 3), q.permute(0, 2, 1, 3).contiguous(), "a large permute on two threads");
        assertSameElements(x, x.clone(), "a large clone on two threads");
    }
}
