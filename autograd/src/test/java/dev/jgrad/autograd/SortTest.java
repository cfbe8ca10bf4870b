package dev.jgrad.autograd;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.ValuesIndices;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** sort and argsort as PyTorch 2.13's CPU sort gives them (the expected numbers are its output for the same inputs). */
class SortTest {
    private static final float NAN = Float.NaN;

    @Test
    void tiesKeepTheirOrderInBothDirectionsAndNanSortsAboveNumbers() {
        Tensor x = Tensor.of(3f, 1f, 2f, 1f, 3f, NAN, 1f, -0f, 0f);
        // torch.sort(x), torch.sort(x, descending=True)
        ValuesIndices<Tensor> up = x.sort();
        assertArrayEquals(new float[] {-0f, 0f, 1f, 1f, 1f, 2f, 3f, 3f, NAN}, up.values().toFloatArray());
        assertArrayEquals(new long[] {7, 8, 1, 3, 6, 2, 0, 4, 5}, up.indices().toLongArray());
        ValuesIndices<Tensor> down = x.sort(0, true);
        assertArrayEquals(new float[] {NAN, 3f, 3f, 2f, 1f, 1f, 1f, -0f, 0f}, down.values().toFloatArray());
        assertArrayEquals(new long[] {5, 0, 4, 2, 1, 3, 6, 7, 8}, down.indices().toLongArray());
        assertArrayEquals(new long[] {7, 8, 1, 3, 6, 2, 0, 4, 5}, x.argsort(0, false).toLongArray());
    }

    @Test
    void alongAnyDimOfAnyType() {
        Tensor m = Tensor.of(new double[] {3, 0, 1, 5, 2, 4}, 2, 3);               // rows (3, 0, 1), (5, 2, 4)
        assertArrayEquals(new long[] {1, 2, 0, 1, 2, 0}, m.sort(1, false).indices().toLongArray());
        assertArrayEquals(new long[] {1, 1, 1, 0, 0, 0}, m.sort(0, true).indices().toLongArray());
        assertArrayEquals(new double[] {5, 2, 4, 3, 0, 1}, m.sort(0, true).values().toDoubleArray());
        // A transposed view sorts along its own dim.
        assertArrayEquals(new double[] {3, 5, 0, 2, 1, 4}, m.t().sort(1, false).values().toDoubleArray());
        // 2^53 + 1 and 2^53 are one double: int64 sorts by the integers themselves.
        Tensor ints = Tensor.of(new long[] {(1L << 53) + 1, -4, 1L << 53}, 3);
        assertArrayEquals(new long[] {1, 2, 0}, ints.sort().indices().toLongArray());
        assertEquals(DType.INT64, ints.sort().values().dtype());
        // torch.sort(torch.tensor([True, False, True])): indices (1, 0, 2)
        Tensor flags = Tensor.of(new double[] {1, 0, 1}, 3).ne(0.0);
        assertArrayEquals(new long[] {1, 0, 2}, flags.sort().indices().toLongArray());
        assertEquals(DType.BOOL, flags.sort().values().dtype());
        assertEquals(5.0, Tensor.scalar(5.0).sort().values().item());
        assertArrayEquals(new int[] {0, 3}, Tensor.zeros(0, 3).sort(0, false).values().shape());
    }

    @Test
    void longLinesAgreeWithAStableLibrarySort() {
        Random r = new Random(5);
        int n = 1000;
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = r.nextInt(50);                                                   // many ties
        }
        long[] got = Tensor.of(v, n).sort(0, true).indices().toLongArray();
        Integer[] expected = new Integer[n];
        for (int i = 0; i < n; i++) {
            expected[i] = i;
        }
        java.util.Arrays.sort(expected, (a, b) -> Double.compare(v[b], v[a]));   // TimSort: stable
        for (int i = 0; i < n; i++) {
            assertEquals((long) expected[i], got[i], "position " + i);
        }
    }

    @Test
    void float32LinesAgreeWithAStableSortAndTopkWithTheirFirstK() {
        // Ties, both zeros, both infinities and NaNs of either sign bit: the packed keys of float32 against a stable
        // sort of the positions, and against float64's merge sort of the same values; topk against the sort's first k.
        Random r = new Random(9);
        int lines = 37;
        int n = 301;
        float[] special = {0f, -0f, Float.NaN, Float.intBitsToFloat(0xffc00001), Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY, Float.MIN_VALUE, -Float.MAX_VALUE};
        float[] v = new float[lines * n];
        for (int i = 0; i < v.length; i++) {
            v[i] = r.nextInt(10) == 0 ? special[r.nextInt(special.length)] : r.nextInt(40) - 20 + (r.nextBoolean() ? 0.5f : 0f);
        }
        Tensor x = Tensor.of(v, lines, n);
        for (boolean descending : new boolean[] {false, true}) {
            long[] got = x.sort(1, descending).indices().toLongArray();
            assertArrayEquals(got, x.to(DType.FLOAT64).sort(1, descending).indices().toLongArray());
            for (int line = 0; line < lines; line++) {
                int at = line * n;
                Integer[] expected = new Integer[n];
                for (int i = 0; i < n; i++) {
                    expected[i] = i;
                }
                java.util.Comparator<Integer> up = (a, b) -> {
                    float p = v[at + a];
                    float q = v[at + b];
                    return p != p ? (q != q ? 0 : 1) : q != q ? -1 : Float.compare(p + 0f, q + 0f);
                };
                java.util.Arrays.sort(expected, descending ? up.reversed() : up);
                for (int i = 0; i < n; i++) {
                    assertEquals((long) expected[i], got[at + i], "line " + line + ", position " + i);
                }
            }
            for (int k : new int[] {0, 1, 7, n - 1, n}) {
                long[] top = x.topk(k, 1, descending).indices().toLongArray();
                for (int line = 0; line < lines; line++) {
                    for (int i = 0; i < k; i++) {
                        assertEquals(got[line * n + i], top[line * k + i], "topk " + k + ", line " + line);
                    }
                }
            }
        }
    }

    @Test
    void topkTakesTheFirstKOfTheSortAlongAnyDim() {
        // x = torch.tensor([[3., 1, 2, 5], [0, 6, 4, 4.5]]); x.topk(2, 1); x.topk(3, 1, largest=False)
        Variable x = Variable.of(Tensor.of(new float[] {3, 1, 2, 5, 0, 6, 4, 4.5f}, 2, 4), true);
        ValuesIndices<Variable> top = x.topk(2);
        assertArrayEquals(new float[] {5, 3, 6, 4.5f}, top.values().data().toFloatArray());
        assertArrayEquals(new long[] {3, 0, 1, 3}, top.indices().toLongArray());
        ValuesIndices<Variable> low = x.topk(3, 1, false);
        assertArrayEquals(new float[] {1, 2, 3, 0, 4, 4.5f}, low.values().data().toFloatArray());
        assertArrayEquals(new long[] {1, 2, 0, 0, 2, 3}, low.indices().toLongArray());
        assertArrayEquals(new long[] {0, 1, 1, 0}, x.data().topk(1, 0, true).indices().toLongArray());
        // (v * [[1, 2], [3, 4]]).sum().backward(): each value's weight lands where it came from.
        top.values().mul(Variable.of(Tensor.of(new float[] {1, 2, 3, 4}, 2, 2))).sum().backward();
        assertArrayEquals(new float[] {2, 0, 0, 1, 0, 3, 0, 4}, x.grad().toFloatArray());
        // PyTorch leaves the order of equal values open; jgrad's is the order they came in.
        assertArrayEquals(new long[] {1, 2}, Tensor.of(0f, 4f, 4f).topk(2).indices().toLongArray());
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> x.topk(5));
        assertTrue(e.getMessage().contains("k (5)") && e.getMessage().contains("size 4") && e.getMessage().contains("[2, 4]"),
                e.getMessage());
    }

    @Test
    void gradientGoesBackToEachValuesPosition() {
        // x = torch.tensor([[3., 1, 2], [0, 5, 4]], requires_grad=True); v, i = x.sort(1, descending=True)
        // (v * torch.tensor([[1., 2, 3], [4, 5, 6]])).sum().backward()
        Variable x = Variable.of(Tensor.of(new float[] {3, 1, 2, 0, 5, 4}, 2, 3), true);
        Variable v = x.sort(1, true).values();
        v.mul(Variable.of(Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3))).sum().backward();
        assertArrayEquals(new float[] {1, 3, 2, 6, 4, 5}, x.grad().toFloatArray());
        assertEquals(DType.INT64, x.argsort(1, true).dtype());
    }
}
