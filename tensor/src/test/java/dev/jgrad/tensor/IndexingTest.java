package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class IndexingTest {
    private static Tensor x567() {
        return Tensor.arange(0, 210, 1, DType.FLOAT32).reshape(5, 6, 7);
    }

    @Test
    void advancedIndicesSeparatedByASliceGoFirst() {
        Tensor y = x567().index(Index.of(0, 1), Index.ALL, Index.of(2, 3));
        assertArrayEquals(new int[] {2, 6}, y.shape());
        assertEquals(x567().getDouble(1, 4, 3), y.getDouble(1, 4));
    }

    @Test
    void aPlainIntBesideAnAdvancedIndexIsASelect() {
        Tensor y = x567().index(Index.at(0), Index.ALL, Index.of(1, 2));
        assertArrayEquals(new int[] {6, 2}, y.shape());
        assertEquals(x567().getDouble(0, 5, 2), y.getDouble(5, 1));
    }

    @Test
    void adjacentAdvancedIndicesStayInPlaceAndBroadcast() {
        Tensor y = x567().index(Index.ALL, Index.of(Tensor.of(new long[] {0, 1}, 2, 1)), Index.of(3, 4, 5));
        assertArrayEquals(new int[] {5, 2, 3}, y.shape());
        assertEquals(x567().getDouble(4, 1, 5), y.getDouble(4, 1, 2));
    }

    @Test
    void boolMasksSelectNonzeroPositions() {
        Tensor x = Tensor.arange(0, 12, 1, DType.FLOAT32).reshape(3, 4);
        Tensor m = x.gt(8.5);
        assertArrayEquals(new float[] {9, 10, 11}, x.index(Index.of(m)).toFloatArray());
        Tensor rows = Tensor.of(new boolean[] {false, true, false}, 3);
        assertArrayEquals(new int[] {1, 4}, x.index(Index.of(rows)).shape());
    }

    @Test
    void basicIndexingGivesViews() {
        Tensor x = x567();
        Tensor v = x.index(Index.at(1), Index.slice(1, 5, 2));
        assertArrayEquals(new int[] {2, 7}, v.shape());
        assertEquals(true, v.sharesStorage(x));
        assertArrayEquals(new int[] {5, 6, 7, 1}, x.index(Index.ELLIPSIS, Index.NONE).shape());
        assertArrayEquals(new int[] {5, 7}, x.index(Index.ALL, Index.at(-1)).shape());
    }

    @Test
    void outOfRangeIndicesNameIndexDimAndSize() {
        TensorIndexException e = assertThrows(TensorIndexException.class, () -> x567().index(Index.of(5)));
        assertEquals("index 5 is out of bounds for dimension 0 with size 5", e.getMessage());
        TensorIndexException g = assertThrows(TensorIndexException.class,
                () -> Tensor.zeros(3, 4).gather(1, Tensor.of(new long[] {0, 4, 1}, 3, 1)));
        assertEquals("index 4 is out of bounds for dimension 1 with size 4", g.getMessage());
    }

    /** gather along the last dim of a matrix from strided and offset views, with fewer index rows than the input's. */
    @Test
    void gatherAlongRowsReadsStridedInputsElementByElement() {
        Tensor base = Tensor.randn(new Generator(31), 9, 7);
        Tensor[] inputs = {base, base.t().contiguous().t(), base.narrow(0, 2, 6), base.t().t().narrow(1, 1, 5)};
        for (Tensor x : inputs) {
            int rows = x.size(0) - 1;
            int cols = x.size(1);
            long[] picks = new long[rows * 3];
            for (int i = 0; i < picks.length; i++) {
                picks[i] = (i * 5L + 2) % cols;
            }
            Tensor index = Tensor.of(picks, rows, 3);
            float[] got = x.gather(1, index).toFloatArray();
            for (int r = 0; r < rows; r++) {
                for (int j = 0; j < 3; j++) {
                    assertEquals((float) x.getDouble(r, (int) picks[r * 3 + j]), got[r * 3 + j], "row " + r + " pick " + j);
                }
            }
            assertArrayEquals(got, x.gather(1, index.t().contiguous().t()).toFloatArray(), "a transposed index takes the general path");
        }
    }

    @Test
    void gatherScatterAndFriends() {
        Tensor x = Tensor.of(new float[] {1, 2, 3, 4, 5, 6, 7, 8}, 2, 4);
        Tensor i = Tensor.of(new long[] {3, 0, 1, 1}, 2, 2);
        assertArrayEquals(new float[] {4, 1, 6, 6}, x.gather(1, i).toFloatArray());
        Tensor z = Tensor.zeros(2, 4);
        assertArrayEquals(new float[] {2, 0, 0, 1, 0, 0, 0, 0}, z.scatterAdd(1, Tensor.of(new long[] {3, 0, 0}, 1, 3), Tensor.of(new float[] {1, 1, 1}, 1, 3)).toFloatArray());
        Tensor zr = Tensor.of(1f, 1f, 1f);
        Tensor idx = Tensor.of(new long[] {0, 0, 2, 2}, 4);
        Tensor src = Tensor.of(2f, 4f, 6f, 8f);
        assertArrayEquals(new float[] {3, 1, 7}, zr.scatterReduce(0, idx, src, ScatterReduce.MEAN, false).toFloatArray());
        assertArrayEquals(new float[] {7f / 3, 1, 5}, zr.scatterReduce(0, idx, src, ScatterReduce.MEAN, true).toFloatArray(), 1e-6f);
        assertArrayEquals(new float[] {4, 1, 8}, zr.scatterReduce(0, idx, src, ScatterReduce.AMAX, false).toFloatArray());
        assertArrayEquals(new float[] {8, 1, 48}, zr.scatterReduce(0, idx, src, ScatterReduce.PROD, true).toFloatArray());
        assertArrayEquals(new float[] {5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8},
                x.indexSelect(0, Tensor.of(new long[] {1, 0, 1}, 3)).toFloatArray());
        assertArrayEquals(new float[] {2, 1, 6, 5}, x.takeAlongDim(Tensor.of(new long[] {1, 0}, 1, 2), 1).toFloatArray());
    }

    @Test
    void nonzeroIsRowMajor() {
        Tensor m = Tensor.of(new boolean[] {false, true, true, false, false, true}, 2, 3);
        Tensor nz = m.nonzero();
        assertArrayEquals(new int[] {3, 2}, nz.shape());
        assertArrayEquals(new long[] {0, 1, 0, 2, 1, 2}, nz.toLongArray());
    }

    /** torch.masked_select broadcasts the mask and the input, and always gives a 1-d result. */
    @Test
    void maskedSelectBroadcastsAsPyTorch() {
        Tensor x = Tensor.arange(6).reshape(2, 3);
        Tensor columns = Tensor.of(new float[] {1, 0, 1}, 3).gt(0.0);
        assertArrayEquals(new float[] {0, 2, 3, 5}, x.maskedSelect(columns).toFloatArray());
        Tensor rows = Tensor.of(new float[] {0, 1}, 2, 1).gt(0.0);
        Tensor picked = Tensor.of(new float[] {7}, 1).maskedSelect(rows);
        assertArrayEquals(new int[] {1}, picked.shape());
        assertArrayEquals(new float[] {3, 4, 5}, x.maskedSelect(rows).toFloatArray());
        assertThrows(ShapeException.class, () -> x.maskedSelect(Tensor.of(new float[] {1, 0}, 2).gt(0.0)));
    }

    /** Random masks of 0 to 4 dims (a zero-size dim among them), and a float tensor whose NaN counts and -0 does not. */
    @Test
    void nonzeroListsEveryTrueElementInRowMajorOrder() {
        java.util.Random r = new java.util.Random(29);
        int[][] shapes = {{}, {37}, {5, 41}, {3, 7, 19}, {2, 3, 5, 17}, {4, 0, 6}};
        for (int[] shape : shapes) {
            for (double density : new double[] {0.0, 0.03, 0.5, 1.0}) {
                Tensor x = Tensor.randn(new Generator(r.nextLong()), shape);
                Tensor mask = Tensor.rand(new Generator(r.nextLong()), shape).lt(density);
                Tensor withValues = x.where(mask, 0.0);
                for (Tensor in : new Tensor[] {mask, withValues}) {
                    java.util.List<long[]> want = new java.util.ArrayList<>();
                    Positions.forEach(shape, idx -> {
                        if (in.getDouble(idx) != 0.0) {
                            want.add(java.util.Arrays.stream(idx).asLongStream().toArray());
                        }
                    });
                    Tensor got = in.nonzero();
                    assertArrayEquals(new int[] {want.size(), shape.length}, got.shape(), "nonzero of " + Shape.str(shape));
                    long[] flat = got.toLongArray();
                    for (int k = 0; k < want.size(); k++) {
                        assertArrayEquals(want.get(k), java.util.Arrays.copyOfRange(flat, k * shape.length, (k + 1) * shape.length),
                                "hit " + k + " of " + Shape.str(shape) + " at density " + density);
                    }
                }
            }
        }
        Tensor special = Tensor.of(new float[] {0f, -0f, Float.NaN, 1f, -0f}, 5);
        assertArrayEquals(new long[] {2, 3}, special.nonzero().toLongArray());
    }

    /** x[mask] and masked_select against their definition, for a transposed x, a broadcast mask and int64 values. */
    @Test
    void maskedSelectTakesTheTrueElementsInRowMajorOrder() {
        java.util.Random r = new java.util.Random(31);
        for (int trial = 0; trial < 12; trial++) {
            int a = 1 + r.nextInt(30);
            int b = 1 + r.nextInt(45);
            Tensor base = Tensor.randn(new Generator(trial), b, a);
            Tensor x = trial % 2 == 0 ? base.t() : base.t().contiguous();
            // None, some and all true: the count and the copy up to the last true element both see the ends.
            Tensor mask = Tensor.rand(new Generator(100 + trial), a, b).lt(trial % 3 == 0 ? 0.0 : trial % 3 == 1 ? 0.4 : 1.0);
            Tensor rowMask = Tensor.rand(new Generator(200 + trial), 1, b).lt(0.4);
            for (Tensor m : new Tensor[] {mask, rowMask}) {
                Tensor full = m.expand(a, b);
                java.util.List<Double> want = new java.util.ArrayList<>();
                Positions.forEach(new int[] {a, b}, idx -> {
                    if (full.getBool(idx)) {
                        want.add(x.getDouble(idx));
                    }
                });
                float[] got = x.maskedSelect(m).toFloatArray();
                long[] gotLong = x.mul(100.0).to(DType.INT64).maskedSelect(m).toLongArray();
                Tensor gotDouble = x.to(DType.FLOAT64).maskedSelect(m);
                boolean[] gotBool = x.gt(0.0).maskedSelect(m).toBooleanArray();
                assertEquals(want.size(), got.length, "count, trial " + trial);
                for (int k = 0; k < got.length; k++) {
                    assertEquals(Float.floatToRawIntBits(want.get(k).floatValue()), Float.floatToRawIntBits(got[k]), "element " + k + ", trial " + trial);
                    assertEquals((long) (float) (want.get(k) * 100), gotLong[k], "int64 element " + k);
                    assertEquals(want.get(k), gotDouble.getDouble(k), 0.0, "float64 element " + k);
                    assertEquals(want.get(k) > 0, gotBool[k], "bool element " + k);
                }
            }
            float[] indexed = x.index(Index.of(mask)).toFloatArray();
            org.junit.jupiter.api.Assertions.assertArrayEquals(x.maskedSelect(mask).toFloatArray(), indexed, 0f, "x[mask]");
        }
    }

    /** A contiguous x whose mask is true at one end only, or at both: the picks stop at the last true flag. */
    @Test
    void maskedSelectOfAContiguousTensorTakesItsEnds() {
        Tensor x = Tensor.arange(0, 7 * 19, 1, DType.FLOAT32).reshape(7, 19);
        boolean[] flags = new boolean[7 * 19];
        flags[0] = true;
        assertArrayEquals(new float[] {0}, x.maskedSelect(Tensor.of(flags, 7, 19)).toFloatArray());
        flags[0] = false;
        flags[7 * 19 - 1] = true;
        assertArrayEquals(new float[] {132}, x.maskedSelect(Tensor.of(flags, 7, 19)).toFloatArray());
        flags[0] = true;
        flags[17] = true;
        assertArrayEquals(new float[] {0, 17, 132}, x.maskedSelect(Tensor.of(flags, 7, 19)).toFloatArray());
    }

    /**
     * index_put with every dim indexed (x[rows, cols] = v, x[mask] += v: what x[mask]'s backward does) writes each value
     * into its element: a repeated position keeps the last value, or with accumulate adds each in turn; a scalar value
     * broadcasts; float32, float64, int64 and bool alike.
     */
    @Test
    void indexPutWithEveryDimIndexedWritesEachPosition() {
        Index[] at = {Index.of(0, 2, 2, 4), Index.of(1, 3, 3, 6)};
        for (DType t : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.INT64}) {
            Tensor v = Tensor.of(new float[] {1, 2, 3, 4}, 4).to(t);
            Tensor put = Tensor.zeros(t, 5, 7).add(Tensor.scalar(10.0, t)).indexPut(at, v, false);
            Tensor added = Tensor.zeros(t, 5, 7).add(Tensor.scalar(10.0, t)).indexPut(at, v, true);
            Positions.forEach(new int[] {5, 7}, idx -> {
                double wantPut = idx[0] == 0 && idx[1] == 1 ? 1 : idx[0] == 2 && idx[1] == 3 ? 3 : idx[0] == 4 && idx[1] == 6 ? 4 : 10;
                double wantAdd = idx[0] == 0 && idx[1] == 1 ? 11 : idx[0] == 2 && idx[1] == 3 ? 15 : idx[0] == 4 && idx[1] == 6 ? 14 : 10;
                assertEquals(wantPut, put.getDouble(idx), 0.0, t + " put at " + java.util.Arrays.toString(idx));
                assertEquals(wantAdd, added.getDouble(idx), 0.0, t + " accumulate at " + java.util.Arrays.toString(idx));
            });
        }
        // (2, 3) is written true, then false: the last stays.
        Tensor flags = Tensor.zeros(DType.BOOL, 5, 7).indexPut(at, Tensor.of(new boolean[] {true, true, false, true}, 4), false);
        assertEquals(2, (int) flags.sum().getLong());
        assertEquals(false, flags.getBool(2, 3));
        java.util.Random r = new java.util.Random(37);
        for (int trial = 0; trial < 6; trial++) {
            int a = 3 + r.nextInt(20);
            int b = 2 + r.nextInt(30);
            Tensor mask = Tensor.rand(new Generator(300 + trial), a, b).lt(0.5);
            int hits = (int) mask.sum().getLong();
            Tensor values = Tensor.randn(new Generator(400 + trial), hits);
            Tensor x = Tensor.randn(new Generator(500 + trial), a, b);
            Tensor put = x.indexPut(new Index[] {Index.of(mask)}, values, true);
            Tensor filled = x.indexPut(new Index[] {Index.of(mask)}, Tensor.scalar(-2.0, DType.FLOAT32), false);
            int[] k = {0};
            Positions.forEach(new int[] {a, b}, idx -> {
                boolean hit = mask.getBool(idx);
                float want = hit ? (float) x.getDouble(idx) + (float) values.getDouble(k[0]++) : (float) x.getDouble(idx);
                assertEquals(want, (float) put.getDouble(idx), 0f, "x[mask] += v at " + java.util.Arrays.toString(idx));
                assertEquals(hit ? -2.0 : x.getDouble(idx), filled.getDouble(idx), 0.0, "x[mask] = -2 at " + java.util.Arrays.toString(idx));
            });
        }
    }
}
