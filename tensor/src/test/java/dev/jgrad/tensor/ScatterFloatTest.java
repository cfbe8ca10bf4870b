package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The float32 scatter and scatter_add, which work on the arrays, against the same ops in float64 (the general path). */
class ScatterFloatTest {
    @Test
    void floatScatterAddMatchesTheGeneralPathOverRandomShapesWithRepeatedIndices() {
        Generator g = new Generator(41);
        for (int trial = 0; trial < 40; trial++) {
            int rows = 2 + g.nextInt(5);
            int cols = 3 + g.nextInt(6);
            int dim = g.nextInt(2);
            int[] selfShape = {rows, cols};
            // The index is smaller than self along every dim but dim, where positions repeat.
            int[] idxShape = {dim == 0 ? 1 + g.nextInt(2 * rows) : 1 + g.nextInt(rows), dim == 1 ? 1 + g.nextInt(2 * cols) : 1 + g.nextInt(cols)};
            long[] pos = new long[idxShape[0] * idxShape[1]];
            for (int i = 0; i < pos.length; i++) {
                pos[i] = g.nextInt(selfShape[dim]);
            }
            Tensor index = Tensor.of(pos, idxShape);
            Tensor self = Tensor.randn(g, selfShape);
            // A source larger than the index and read through a transpose: strided.
            Tensor src = Tensor.randn(g, idxShape[1] + 1, idxShape[0] + 2).t();
            Tensor want = self.to(DType.FLOAT64).scatterAdd(dim, index, src.to(DType.FLOAT64));
            Tensor got = self.scatterAdd(dim, index, src);
            assertEquals(DType.FLOAT32, got.dtype());
            double[] w = want.toDoubleArray();
            double[] h = got.toDoubleArray();
            for (int i = 0; i < w.length; i++) {
                assertEquals(w[i], h[i], 1e-5 * (1 + Math.abs(w[i])), "trial " + trial + " element " + i);
            }
            Tensor assignedWant = self.to(DType.FLOAT64).scatter(dim, index, src.to(DType.FLOAT64));
            assertArrayEquals(assignedWant.to(DType.FLOAT32).toFloatArray(), self.scatter(dim, index, src).toFloatArray(),
                    "trial " + trial + ": scatter assigns the last value given a position, as the general path");
            assertArrayEquals(self.toFloatArray(), Tensor.of(self.toFloatArray(), selfShape).toFloatArray(), "self is not changed");
        }
    }

    @Test
    void gatherBackwardSumsRepeatedPicksInFloat32() {
        Tensor zeros = Tensor.zeros(DType.FLOAT32, 2, 3);
        Tensor index = Tensor.of(new long[] {2, 2, 0, 1, 1, 1}, 2, 3);
        Tensor grad = Tensor.of(new float[] {1f, 2f, 3f, 4f, 5f, 6f}, 2, 3);
        assertArrayEquals(new float[] {3f, 0f, 3f, 0f, 15f, 0f}, zeros.scatterAdd(1, index, grad).toFloatArray());
    }
}
