package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Memory;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;
import static dev.jgrad.tensor.internal.TensorAccess.floats;
import static dev.jgrad.tensor.internal.TensorAccess.offset;
import static dev.jgrad.tensor.internal.TensorAccess.strides;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LinalgTest {
    private static double[] naive(Tensor a, Tensor b) {
        int n = a.size(0);
        int k = a.size(1);
        int p = b.size(1);
        double[] c = new double[n * p];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < p; j++) {
                double s = 0;
                for (int q = 0; q < k; q++) {
                    s += a.getDouble(i, q) * b.getDouble(q, j);
                }
                c[i * p + j] = s;
            }
        }
        return c;
    }

    @Test
    void matmulAgreesWithNaiveProductForManyShapesAndLayouts() {
        Generator g = new Generator(11);
        // Each path of PackedGemm: direct (B small), wide (few rows, many columns: {20, 100, 400}, {30, 9, 4000}),
        // split along k (k long beside C: {16, 4100, 40}, {9, 9000, 30}) and blocked (the rest).
        int[][] shapes = {{1, 1, 1}, {3, 5, 7}, {17, 9, 33}, {64, 65, 63}, {2, 300, 3}, {130, 7, 129}, {40, 700, 45}, {70, 128, 300},
            {20, 100, 400}, {30, 9, 4000}, {16, 4100, 40}, {9, 9000, 30},
            // dots (fewer columns than a tile, k long; taken with B's columns contiguous, the third product below)
            {32, 5000, 9}, {7, 600, 15}, {4, 300, 1}, {10, 2500, 5}, {2, 4099, 7}};
        for (int[] s : shapes) {
            Tensor a = Tensor.randn(g, s[0], s[1]);
            Tensor b = Tensor.randn(g, s[1], s[2]);
            double[] ref = naive(a, b);
            assertArrayEquals(ref, a.matmul(b).to(DType.FLOAT64).toDoubleArray(), 1e-4 * s[1]);
            Tensor at = a.t().contiguous().t();
            Tensor bt = b.t().contiguous().t();
            assertArrayEquals(ref, at.matmul(bt).to(DType.FLOAT64).toDoubleArray(), 1e-4 * s[1]);
            assertArrayEquals(ref, a.matmul(bt).to(DType.FLOAT64).toDoubleArray(), 1e-4 * s[1]);
            // B's columns a window of a wider matrix: its rows further apart than its width, and not at the start.
            Tensor wide = Tensor.randn(g, s[1], s[2] + 37);
            wide.slice(1, 5, 5 + s[2], 1).copyFrom(b);
            Tensor window = wide.slice(1, 5, 5 + s[2], 1);
            assertArrayEquals(ref, a.matmul(window).to(DType.FLOAT64).toDoubleArray(), 1e-4 * s[1]);
        }
    }

    /** The plain-Java kernel, then the vector kernels (the usual one, and the 8-row one where there is one). */
    private static MicroKernel[] kernels() {
        if (!Simd.ENABLED) {
            return new MicroKernel[] {new ScalarMicroKernel()};
        }
        return Kernels.gemmFor(64) == Kernels.GEMM ? new MicroKernel[] {new ScalarMicroKernel(), Kernels.GEMM}
                : new MicroKernel[] {new ScalarMicroKernel(), Kernels.GEMM, Kernels.gemmFor(64)};
    }

    /** The Vector API micro-kernels against the plain-Java one, through the same packing, on edge-heavy shapes. */
    @Test
    @Tag(VectorKernelsOnly.TAG)
    void vectorKernelAgreesWithThePlainKernel() {
        VectorKernelsRequired.check();
        Generator g = new Generator(21);
        int[][] shapes = {{1, 1, 1}, {13, 7, 33}, {12, 512, 32}, {25, 600, 65}, {100, 3, 70}, {7, 1030, 5}, {20, 100, 400}, {16, 4100, 40},
            {64, 32, 64}, {64, 288, 363}, {8, 64, 32}};
        MicroKernel[] kernels = kernels();
        for (int[] s : shapes) {
            Tensor a = Tensor.randn(g, s[0], s[1]);
            Tensor b = Tensor.randn(g, s[1], s[2]);
            float[] plain = new float[s[0] * s[2]];
            PackedGemm.sgemm(kernels[0], s[0], s[1], s[2], floats(a), 0, s[1], 1, floats(b), 0, s[2], 1, plain, 0, s[2]);
            for (int v = 1; v < kernels.length; v++) {
                float[] vector = new float[s[0] * s[2]];
                PackedGemm.sgemm(kernels[v], s[0], s[1], s[2], floats(a), 0, s[1], 1, floats(b), 0, s[2], 1, vector, 0, s[2]);
                for (int i = 0; i < plain.length; i++) {
                    assertEquals(plain[i], vector[i], 1e-4 * Math.sqrt(s[1]) * (1 + Math.abs(plain[i])),
                            "shape " + java.util.Arrays.toString(s) + ", " + kernels[v].mr() + "-row kernel, element " + i);
                }
            }
        }
        // The dot-product kernels, rows and columns cut at 1, 2 and 3, k with and without a tail of lanes.
        for (int[] s : new int[][] {{1, 1000, 1}, {2, 517, 2}, {3, 256, 3}, {5, 1203, 4}}) {
            float[] a = floats(Tensor.randn(g, s[0], s[1]));
            float[] b = floats(Tensor.randn(g, s[2], s[1]));
            float[] plain = new float[s[0] * s[2]];
            float[] vector = new float[s[0] * s[2]];
            for (int i = 0; i < s[0]; i += 3) {
                for (int j = 0; j < s[2]; j += 3) {
                    int rows = Math.min(3, s[0] - i);
                    int cols = Math.min(3, s[2] - j);
                    new ScalarMicroKernel().dots(s[1], a, i * s[1], s[1], rows, b, j * s[1], s[1], cols, plain, i * s[2] + j, s[2]);
                    Kernels.GEMM.dots(s[1], a, i * s[1], s[1], rows, b, j * s[1], s[1], cols, vector, i * s[2] + j, s[2]);
                }
            }
            for (int i = 0; i < plain.length; i++) {
                assertEquals(plain[i], vector[i], 1e-4 * Math.sqrt(s[1]) * (1 + Math.abs(plain[i])), "dots " + java.util.Arrays.toString(s) + " element " + i);
            }
        }
    }

    /**
     * {@code Gemm.sgemmInto} writes C without reading it: a C full of NaN (a recycled array's old values) must not
     * show through, on every path of PackedGemm and with both kernels, while {@code sgemm} still adds into C.
     */
    @Test
    void productIntoOverwritesWhatCHeldOnEveryPath() {
        Generator g = new Generator(23);
        // small, k = 0, direct, wide, split along k, blocked over two panels of k, dots; 64 rows (8-row tiles).
        int[][] shapes = {{3, 5, 7}, {6, 0, 9}, {17, 9, 33}, {20, 100, 400}, {16, 4100, 40}, {70, 600, 300}, {32, 5000, 9}, {64, 40, 70}};
        MicroKernel[] kernels = kernels();
        for (int[] s : shapes) {
            Tensor a = Tensor.randn(g, s[0], s[1]);
            Tensor b = Tensor.randn(g, s[1], s[2]);
            Tensor bt = b.t().contiguous().t();
            double[] ref = naive(a, b);
            for (MicroKernel kernel : kernels) {
                for (Tensor bb : new Tensor[] {b, bt}) {
                    // C sits inside a wider buffer (row stride p + 3) whose other columns must stay untouched.
                    int crs = s[2] + 3;
                    float[] c = new float[s[0] * crs];
                    java.util.Arrays.fill(c, Float.NaN);
                    PackedGemm.sgemm(kernel, true, s[0], s[1], s[2], floats(a), 0, s[1], 1, floats(bb), offset(bb), strides(bb)[0],
                            strides(bb)[1], c, 0, crs);
                    float[] added = new float[s[0] * crs];
                    java.util.Arrays.fill(added, 1f);
                    PackedGemm.sgemm(kernel, false, s[0], s[1], s[2], floats(a), 0, s[1], 1, floats(bb), offset(bb), strides(bb)[0],
                            strides(bb)[1], added, 0, crs);
                    String what = java.util.Arrays.toString(s) + " " + kernel.mr() + "-row kernel" + (bb == b ? "" : " transposed B");
                    for (int i = 0; i < s[0]; i++) {
                        for (int j = 0; j < crs; j++) {
                            float got = c[i * crs + j];
                            if (j >= s[2]) {
                                assertTrue(Float.isNaN(got), what + ": wrote past C's columns at " + i + ", " + j);
                                assertEquals(1f, added[i * crs + j], what + ": added past C's columns");
                                continue;
                            }
                            double want = ref[i * s[2] + j];
                            double tol = 1e-4 * Math.sqrt(Math.max(1, s[1])) * (1 + Math.abs(want));
                            assertEquals(want, got, tol, what + " element " + i + ", " + j);
                            assertEquals(want + 1, added[i * crs + j], tol, what + " (added) element " + i + ", " + j);
                        }
                    }
                }
            }
        }
        // Through the tensor API: the batched and 2-d products make new results this way.
        Tensor a = Tensor.randn(g, 5, 7, 13);
        Tensor b = Tensor.randn(g, 5, 13, 11);
        try (Memory.Scope outer = Memory.scope()) {
            for (int i = 0; i < 3; i++) {
                try (Memory.Scope step = Memory.scope()) {
                    Tensor.full(Float.NaN, 5, 7, 11);
                    Tensor.full(Float.NaN, 7, 11);
                }
                try (Memory.Scope step = Memory.scope()) {
                    for (int q = 0; q < 5; q++) {
                        Tensor one = a.select(0, q).matmul(b.select(0, q));
                        assertArrayEquals(naive(a.select(0, q), b.select(0, q)), one.to(DType.FLOAT64).toDoubleArray(), 1e-4);
                    }
                    Tensor all = a.matmul(b);
                    assertTrue(!all.isnan().any(), "a recycled array's NaN showed through a batched product");
                }
            }
        }
    }

    /**
     * A once-packed A (a convolution's weight) against the naive product: k over several panels, B read in place
     * (small, unit-stride rows) or packed (large or transposed), written or added, rows and columns cut by the tile.
     */
    @Test
    void aPackedOnceMultipliesLikeThePlainProduct() {
        Generator g = new Generator(29);
        int[][] shapes = {{1, 1, 1}, {13, 7, 33}, {64, 288, 121}, {25, 600, 65}, {7, 1100, 40}, {30, 0, 5}, {40, 600, 70}};
        MicroKernel[] kernels = kernels();
        for (int[] s : shapes) {
            Tensor a = Tensor.randn(g, s[0], s[1]);
            Tensor b = Tensor.randn(g, s[1], s[2]);
            double[] ref = naive(a, b);
            for (MicroKernel kernel : kernels) {
                for (Tensor aa : new Tensor[] {a, a.t().contiguous().t()}) {
                    PackedGemm.PackedA packed = PackedGemm.packWhole(kernel, s[0], s[1], floats(aa), 0, strides(aa)[0], strides(aa)[1]);
                    for (Tensor bb : new Tensor[] {b, b.t().contiguous().t()}) {
                        float[] c = new float[s[0] * s[2]];
                        java.util.Arrays.fill(c, Float.NaN);
                        PackedGemm.sgemmPacked(packed, true, s[2], floats(bb), 0, strides(bb)[0], strides(bb)[1], c, 0, s[2]);
                        float[] added = new float[s[0] * s[2]];
                        java.util.Arrays.fill(added, 2f);
                        PackedGemm.sgemmPacked(packed, false, s[2], floats(bb), 0, strides(bb)[0], strides(bb)[1], added, 0, s[2]);
                        for (int i = 0; i < c.length; i++) {
                            double tol = 1e-4 * Math.sqrt(Math.max(1, s[1])) * (1 + Math.abs(ref[i]));
                            String what = java.util.Arrays.toString(s) + " " + kernel.mr() + "-row kernel, element " + i;
                            assertEquals(ref[i], c[i], tol, what);
                            assertEquals(ref[i] + 2, added[i], tol, what + " (added)");
                        }
                    }
                }
            }
        }
    }

    /** The summed product against the stack of products summed by sumTo, over broadcast batches, layouts and both dtypes. */
    @Test
    void matmulSummedIsTheSumOfTheBatchOfProducts() {
        Generator g = new Generator(17);
        int[][][] cases = {
            {{5, 3, 7}, {5, 7, 4}}, {{3, 7}, {6, 7, 9}}, {{2, 3, 13, 6}, {3, 6, 11}}, {{1, 4, 5}, {9, 5, 2}},
            {{11, 40, 37}, {11, 37, 45}}, {{0, 3, 4}, {0, 4, 2}}, {{3, 0}, {4, 0, 5}},
        };
        for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64}) {
            for (int[][] c : cases) {
                Tensor a = Tensor.randn(g, c[0]).to(dt);
                Tensor b = Tensor.randn(g, c[1]).to(dt);
                int n = c[0][c[0].length - 2];
                int p = c[1][c[1].length - 1];
                double[] want = a.matmul(b).sumTo(n, p).toDoubleArray();
                double[] got = a.matmulSummed(b).toDoubleArray();
                assertArrayEquals(new int[] {n, p}, a.matmulSummed(b).shape());
                for (int i = 0; i < want.length; i++) {
                    assertEquals(want[i], got[i], (dt == DType.FLOAT32 ? 1e-4 : 1e-11) * (1 + Math.abs(want[i])) * c[0][c[0].length - 1],
                            java.util.Arrays.deepToString(c) + " " + dt + " element " + i);
                }
            }
        }
        // Transposed operands (a convolution's weight gradient reads its columns through mT).
        Tensor gy = Tensor.randn(g, 7, 6, 30);
        Tensor cols = Tensor.randn(g, 7, 19, 30);
        assertArrayEquals(gy.matmul(cols.mT()).sumTo(6, 19).toFloatArray(), gy.matmulSummed(cols.mT()).toFloatArray(), 1e-4f);
        assertThrows(ShapeException.class, () -> Tensor.ones(2, 3, 4).matmulSummed(Tensor.ones(2, 5, 6)));
        assertThrows(ShapeException.class, () -> Tensor.ones(2, 3, 4).matmulSummed(Tensor.ones(3, 4, 6)));
    }

    @Test
    @ExtendWith(HelpersAlwaysRun.class)
    void matmulSummedDoesNotDependOnTheThreadCount() {
        Generator g = new Generator(5);
        Tensor a = Tensor.randn(g, 13, 24, 40);
        Tensor b = Tensor.randn(g, 13, 40, 33);
        Parallel.setThreads(1);
        float[] one = a.matmulSummed(b).toFloatArray();
        Parallel.setThreads(2);
        assertArrayEquals(one, a.matmulSummed(b).toFloatArray(), 0f);
    }

    /**
     * The blocked product shares rows among the threads for a tall C and column slivers for a wide one (a weight's
     * gradient: few rows, k the batch), each thread packing what it reads: the bits are the same at 1, 2 and 3 threads,
     * k in one panel and over several, with the helpers made to run.
     */
    @Test
    @ExtendWith(HelpersAlwaysRun.class)
    void resultsDoNotDependOnTheThreadCount() {
        Generator g = new Generator(3);
        MicroKernel kernel = Kernels.GEMM;
        int k = 2 * PackedGemm.KC + 37;
        int mr = kernel.mr();
        int nr = kernel.nr();
        // {rows, k, columns, A stored transposed}, in the kernel's tiles (edges cut off): split by rows (one panel, then
        // several), by columns (a single sliver of rows), by columns with a transposed A (three slivers of rows, 16 of
        // columns: a split by rows would give one thread two).
        int[][] shapes = {{40 * mr - 1, PackedGemm.KC, 3 * nr - 5, 0}, {40 * mr + 3, k, 3 * nr - 5, 0}, {mr - 1, k, 20 * nr + 7, 0},
            {2 * mr + 1, k, 16 * nr, 1}};
        boolean[] byRows = {true, true, false, false};
        for (int i = 0; i < shapes.length; i++) {
            int[] s = shapes[i];
            int rowSlivers = (s[0] + kernel.mr() - 1) / kernel.mr();
            int colSlivers = (s[2] + kernel.nr() - 1) / kernel.nr();
            assertEquals(byRows[i], PackedGemm.splitByRows(kernel.mr(), kernel.nr(), s[1], rowSlivers, colSlivers, 2),
                    java.util.Arrays.toString(s) + " is shared by " + (byRows[i] ? "rows" : "columns"));
            Tensor a = s[3] == 1 ? Tensor.randn(g, s[1], s[0]).t() : Tensor.randn(g, s[0], s[1]);
            // B as given (read in place, or wide, where it may be) and stored transposed as a linear layer's weight,
            // which only the blocked product takes.
            Tensor weight = Tensor.randn(g, s[2], s[1]).t();
            assertEquals(GemmPlan.BLOCKED, GemmPlan.of(nr, s[0], s[1], s[2], s[3] == 1 ? s[0] : 1, 1, s[1]), java.util.Arrays.toString(s));
            for (Tensor b : new Tensor[] {Tensor.randn(g, s[1], s[2]), weight}) {
                String what = java.util.Arrays.toString(s) + (b == weight ? " B transposed" : "");
                Parallel.setThreads(1);
                float[] one = a.matmul(b).toFloatArray();
                assertArrayEquals(naive(a, b), a.matmul(b).to(DType.FLOAT64).toDoubleArray(), 1e-4 * s[1], what);
                for (int threads : new int[] {2, 3}) {
                    Parallel.setThreads(threads);
                    assertArrayEquals(one, a.matmul(b).toFloatArray(), 0f, what + " at " + threads + " threads");
                }
            }
        }
    }

    @Test
    void matmulRanksFollowPyTorch() {
        assertArrayEquals(new int[] {}, Tensor.ones(4).matmul(Tensor.ones(4)).shape());
        assertArrayEquals(new int[] {3}, Tensor.ones(3, 4).matmul(Tensor.ones(4)).shape());
        assertArrayEquals(new int[] {2}, Tensor.ones(4).matmul(Tensor.ones(4, 2)).shape());
        assertArrayEquals(new int[] {2, 3, 5}, Tensor.ones(3, 4).matmul(Tensor.ones(2, 4, 5)).shape());
        assertArrayEquals(new int[] {2, 5, 3, 2}, Tensor.ones(2, 1, 3, 4).matmul(Tensor.ones(5, 4, 2)).shape());
        assertArrayEquals(new int[] {2, 3, 4}, Tensor.ones(2, 3, 0).matmul(Tensor.ones(0, 4)).shape());
        assertEquals(0.0, Tensor.ones(2, 3, 0).matmul(Tensor.ones(0, 4)).sum().item());
        ShapeException e = assertThrows(ShapeException.class, () -> Tensor.ones(3, 4).matmul(Tensor.ones(5, 6)));
        assertTrue(e.getMessage().startsWith("mat1 and mat2 shapes cannot be multiplied (3x4 and 5x6)"));
    }

    @Test
    void linearIsXTimesWTransposedPlusB() {
        Tensor x = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
        Tensor w = Tensor.of(new float[] {1, 0, 0, 0, 1, 1}, 2, 3);
        Tensor b = Tensor.of(10f, 20f);
        assertArrayEquals(new float[] {11, 25, 14, 31}, Tensor.linear(x, w, b).toFloatArray());
    }

    /**
     * Float32 linear with a bias starts each row as the bias and adds the product into it: against float64 over
     * batch dims, transposed and sliced inputs and weights, sizes past a tile, no input features, and inside a
     * scope whose recycled arrays are full of NaN.
     */
    @Test
    void linearWithBiasAgreesWithFloat64OverLayoutsAndInARecycledScope() {
        Generator g = new Generator(12);
        int[][] shapes = {{3, 5, 7, 4}, {2, 70, 33, 19}, {1, 9, 130, 40}, {4, 6, 0, 5}};
        for (int[] sh : shapes) {
            int batch = sh[0];
            int rows = sh[1];
            int in = sh[2];
            int out = sh[3];
            Tensor x = Tensor.randn(g, batch, rows, in);
            Tensor w = Tensor.randn(g, out, in);
            Tensor b = Tensor.randn(g, out);
            Tensor[] xs = {x, Tensor.randn(g, batch, in, rows).transpose(1, 2), Tensor.randn(g, batch, rows, in + 3).narrow(2, 2, in)};
            Tensor[] ws = {w, Tensor.randn(g, in, out).t()};
            for (Tensor xv : xs) {
                for (Tensor wv : ws) {
                    double[] want = Tensor.linear(xv.to(DType.FLOAT64), wv.to(DType.FLOAT64), b.to(DType.FLOAT64)).toDoubleArray();
                    String label = java.util.Arrays.toString(sh) + " x " + java.util.Arrays.toString(xv.strides()) + " w "
                            + java.util.Arrays.toString(wv.strides());
                    assertArrayEquals(want, Tensor.linear(xv, wv, b).toDoubleArray(), 1e-4, label);
                    double[] got;
                    try (Memory.Scope dirty = Memory.scope()) {
                        Tensor.full(Double.NaN, DType.FLOAT32, batch * rows, out);
                    }
                    try (Memory.Scope step = Memory.scope()) {
                        got = Tensor.linear(xv, wv, b).toDoubleArray();
                    }
                    assertArrayEquals(want, got, 1e-4, label + " in a scope");
                }
            }
        }
    }

    @Test
    void einsumCoversDiagonalsEllipsisOuterAndSums() {
        Generator g = new Generator(5);
        Tensor a = Tensor.randn(g, 2, 3, 4);
        Tensor b = Tensor.randn(g, 2, 4, 5);
        assertArrayEquals(a.matmul(b).toFloatArray(), Tensor.einsum("...ij,...jk->...ik", a, b).toFloatArray(), 1e-5f);
        assertArrayEquals(a.matmul(b).toFloatArray(), Tensor.einsum("bij,bjk->bik", a, b).toFloatArray(), 1e-5f);
        Tensor sq = Tensor.randn(g, 4, 4);
        assertArrayEquals(sq.diagonal(0, 0, 1).toFloatArray(), Tensor.einsum("ii->i", sq).toFloatArray());
        Tensor u = Tensor.of(1f, 2f, 3f);
        Tensor v = Tensor.of(1f, 10f);
        assertArrayEquals(new float[] {1, 10, 2, 20, 3, 30}, Tensor.einsum("i,j->ij", u, v).toFloatArray());
        assertEquals(a.sum().item(), Tensor.einsum("bij->", a).item(), 1e-4);
        assertArrayEquals(a.transpose(1, 2).contiguous().toFloatArray(), Tensor.einsum("bij->bji", a).toFloatArray());
        ShapeException e = assertThrows(ShapeException.class, () -> Tensor.einsum("ij,jk->ik", Tensor.ones(3, 4), Tensor.ones(5, 2)));
        assertTrue(e.getMessage().startsWith("einsum(): subscript j has size 5 for operand 1 which does not broadcast with previously seen size 4"));
    }

    @Test
    void catAndStackCheckShapes() {
        Tensor y = Tensor.cat(0, Tensor.ones(2, 3), Tensor.zeros(4, 3));
        assertArrayEquals(new int[] {6, 3}, y.shape());
        ShapeException e = assertThrows(ShapeException.class, () -> Tensor.cat(0, Tensor.ones(2, 3), Tensor.ones(2, 4)));
        assertEquals("Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for tensor number 1 in the list.", e.getMessage());
        assertArrayEquals(new int[] {2, 2, 3}, Tensor.stack(1, Tensor.ones(2, 3), Tensor.ones(2, 3)).shape());
        assertThrows(ShapeException.class, () -> Tensor.stack(0, Tensor.ones(2, 3), Tensor.ones(3, 2)));
    }
}
