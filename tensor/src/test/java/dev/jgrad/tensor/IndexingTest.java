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
}
