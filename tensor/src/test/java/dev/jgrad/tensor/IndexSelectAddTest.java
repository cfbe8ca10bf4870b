package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * index_select and index_add against element-by-element references, over random shapes (every axis a distinct size),
 * every dim, the four dtypes, and inputs that are contiguous, offset into their storage or transposed: the contiguous
 * ones take the block-copy paths, the others the general one, and both must agree with the definition.
 */
class IndexSelectAddTest {
    private static final DType[] TYPES = {DType.FLOAT32, DType.FLOAT64, DType.INT64, DType.BOOL};

    /** 1 to 4 distinct sizes from 2..7, in random order. */
    private static int[] shape(Random r) {
        List<Integer> sizes = new ArrayList<>(List.of(2, 3, 4, 5, 6, 7));
        Collections.shuffle(sizes, r);
        int dims = 1 + r.nextInt(4);
        int[] s = new int[dims];
        for (int k = 0; k < dims; k++) {
            s[k] = sizes.get(k);
        }
        return s;
    }

    /** Values of the dtype that exercise it (integers for INT64, both truth values for BOOL). */
    private static Tensor values(Random r, DType t, int... shape) {
        Generator g = new Generator(r.nextLong());
        Tensor x = Tensor.randn(g, shape).mul(5);
        return t == DType.BOOL ? x.gt(0) : x.to(t);
    }

    /** Contiguous, offset into a larger storage, or transposed: the three layouts a caller hands in. */
    private static Tensor laidOut(Random r, Tensor x, int layout) {
        if (layout == 1) {
            int[] big = x.shape();
            big[0] += 2;
            return values(r, x.dtype(), big).slice(0, 1, 1 + x.size(0), 1).copyFrom(x);
        }
        if (layout == 2 && x.dim() >= 2) {
            return x.transpose(0, x.dim() - 1).contiguous().transpose(0, x.dim() - 1);
        }
        return x;
    }

    private static long[] indices(Random r, int count, int size) {
        long[] ix = new long[count];
        for (int j = 0; j < count; j++) {
            ix[j] = r.nextInt(size);
        }
        return ix;
    }

    @Test
    void indexSelectTakesTheIndexedSlicesInEveryLayoutAndType() {
        Random r = new Random(11);
        for (int trial = 0; trial < 120; trial++) {
            int[] shape = shape(r);
            DType t = TYPES[trial % TYPES.length];
            Tensor x = laidOut(r, values(r, t, shape), trial % 3);
            int d = r.nextInt(shape.length);
            long[] ix = indices(r, 1 + r.nextInt(9), shape[d]);
            Tensor y = x.indexSelect(d, Tensor.of(ix, ix.length));
            int[] expected = shape.clone();
            expected[d] = ix.length;
            assertArrayEquals(expected, y.shape());
            assertEquals(t, y.dtype());
            Positions.forEach(y.shape(), at -> {
                int[] from = at.clone();
                from[d] = (int) ix[at[d]];
                assertEquals(x.getDouble(from), y.getDouble(at), () -> "index_select of " + Shape.str(shape) + " along " + d);
            });
        }
    }

    @Test
    void indexAddSumsEachIndexedSliceInIndexOrderInEveryLayout() {
        Random r = new Random(12);
        for (int trial = 0; trial < 120; trial++) {
            int[] shape = shape(r);
            DType t = TYPES[trial % 3];
            Tensor self = laidOut(r, values(r, t, shape), trial % 3);
            int d = r.nextInt(shape.length);
            // More indices than the dim holds, so that some repeat and their slices add up.
            long[] ix = indices(r, shape[d] + 1 + r.nextInt(5), shape[d]);
            int[] srcShape = shape.clone();
            srcShape[d] = ix.length;
            Tensor src = laidOut(r, values(r, t, srcShape), (trial / 3) % 3);
            Tensor expected = self.clone();
            // The definition, one element at a time in the order of j: float32 sums round as they go, so the order is the bits.
            Positions.forEach(srcShape, at -> {
                int[] to = at.clone();
                to[d] = (int) ix[at[d]];
                double sum = t == DType.FLOAT32 ? (double) ((float) expected.getDouble(to) + (float) src.getDouble(at))
                        : expected.getDouble(to) + src.getDouble(at);
                expected.set(sum, to);
            });
            Tensor y = self.indexAdd(d, Tensor.of(ix, ix.length), src);
            assertArrayEquals(expected.toDoubleArray(), y.toDoubleArray(), () -> "index_add into " + Shape.str(shape) + " along " + d);
            Tensor inPlace = self.clone();
            inPlace.indexAddi(d, Tensor.of(ix, ix.length), src);
            assertArrayEquals(expected.toDoubleArray(), inPlace.toDoubleArray());
        }
    }

    @Test
    void anIndexOutOfRangeIsNamedAndLeavesTheTensorAsItWas() {
        Tensor w = Tensor.arange(0, 12, 1, DType.FLOAT32).reshape(4, 3);
        float[] before = w.toFloatArray();
        int version = w.storage().version();
        TensorIndexException e = assertThrows(TensorIndexException.class,
                () -> w.indexAddi(0, Tensor.of(new long[] {1, 4}, 2), Tensor.ones(2, 3)));
        assertTrue(e.getMessage().contains("4"), e.getMessage());
        assertArrayEquals(before, w.toFloatArray());
        assertEquals(version, w.storage().version());
        assertThrows(TensorIndexException.class, () -> w.indexSelect(0, Tensor.of(new long[] {0, -1}, 2)));
    }

    @Test
    void anEmptySelectionHasTheDimOfSizeZero() {
        Tensor x = Tensor.arange(0, 12, 1, DType.FLOAT32).reshape(3, 4);
        Tensor y = x.indexSelect(1, Tensor.of(new long[0], 0));
        assertArrayEquals(new int[] {3, 0}, y.shape());
        Tensor z = x.indexAdd(0, Tensor.of(new long[0], 0), Tensor.zeros(DType.FLOAT32, 0, 4));
        assertArrayEquals(x.toFloatArray(), z.toFloatArray());
    }
}
