package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ViewTest {
    /** 0, 1, 2, ... in float32, B=2, T=3, D=5: distinct sizes so a swapped axis shows. */
    private static Tensor btd() {
        return Tensor.arange(0, 30, 1, DType.FLOAT32).reshape(2, 3, 5);
    }

    /** Every view shares storage with its base, and a write through it lands in the base. */
    @Test
    void everyViewSharesStorageAndWritesLand() {
        Tensor x = btd();
        List<Tensor> views = List.of(
                x.view(6, 5), x.reshape(2, 15), x.transpose(0, 2), x.permute(2, 0, 1), x.unsqueeze(1),
                x.flatten(0, 1), x.unflatten(2, 5, 1), x.movedim(0, -1), x.slice(2, 1, 5, 2), x.select(1, 2),
                x.narrow(2, 1, 3), x.index(Index.at(1), Index.slice(0, 2)), x.index(Index.ELLIPSIS, Index.NONE),
                x.diagonal(0, 1, 2), x.split(2, 2).get(1), x.chunk(2, 1).get(0), x.squeeze(0));
        for (Tensor v : views) {
            assertTrue(v.sharesStorage(x), "not a view: " + v);
            int[] first = new int[v.dim()];
            double before = v.getDouble(first);
            v.set(1000 + before, first);
            assertTrue(contains(x, 1000 + before), "write through " + java.util.Arrays.toString(v.shape()) + " did not land in the base");
        }
    }

    private static boolean contains(Tensor x, double v) {
        for (float f : x.toFloatArray()) {
            if (f == v) {
                return true;
            }
        }
        return false;
    }

    @Test
    void viewOfNonContiguousSaysUseReshape() {
        Tensor x = btd().transpose(1, 2).contiguous().transpose(1, 2);
        ShapeException e = assertThrows(ShapeException.class, () -> x.view(2, 15));
        assertTrue(e.getMessage().startsWith("view size is not compatible with input tensor's size and stride"));
        assertTrue(e.getMessage().contains("Use .reshape(...) instead."));
        Tensor r = x.reshape(2, 15);
        assertFalse(r.sharesStorage(x), "reshape must copy here");
        assertArrayEquals(btd().reshape(2, 15).toFloatArray(), r.toFloatArray());
    }

    @Test
    void reshapeCopiesOnlyWhenItMust() {
        Tensor x = btd();
        assertTrue(x.reshape(6, 5).sharesStorage(x));
        assertTrue(x.transpose(0, 1).reshape(3, 2, 5).sharesStorage(x));
        assertFalse(x.transpose(1, 2).reshape(2, 15).sharesStorage(x));
    }

    @Test
    void reshapeMinusOneAndBadSize() {
        assertArrayEquals(new int[] {6, 5}, btd().reshape(-1, 5).shape());
        ShapeException e = assertThrows(ShapeException.class, () -> Tensor.zeros(2, 3).reshape(4, 2));
        assertEquals("shape '[4, 2]' is invalid for input of size 6", e.getMessage());
    }

    @Test
    void expandRefusesNonSingletonAndInPlaceWritesThroughIt() {
        Tensor x = Tensor.zeros(1, 4);
        ShapeException e = assertThrows(ShapeException.class, () -> x.expand(3, 5));
        assertTrue(e.getMessage().startsWith("The expanded size of the tensor (5) must match the existing size (4) at non-singleton dimension 1."));
        Tensor ex = x.expand(3, 4);
        IllegalArgumentException w = assertThrows(IllegalArgumentException.class, () -> ex.addi(1.0));
        assertTrue(w.getMessage().contains("more than one element of the written-to tensor refers to a single memory location"));
    }

    @Test
    void squeezeIsANoOpWhereTheSizeIsNotOne() {
        Tensor x = Tensor.zeros(1, 3, 1, 2);
        assertArrayEquals(new int[] {3, 1, 2}, x.squeeze(0).shape());
        assertArrayEquals(new int[] {1, 3, 1, 2}, x.squeeze(1).shape());
        assertArrayEquals(new int[] {3, 2}, x.squeeze().shape());
    }

    @Test
    void sliceSemantics() {
        Tensor x = Tensor.arange(0, 7, 1, DType.FLOAT32);
        assertArrayEquals(new float[] {1, 3, 5}, x.slice(0, 1, 6, 2).toFloatArray());
        assertArrayEquals(new float[] {5, 6}, x.slice(0, -2, 100).toFloatArray());
        assertArrayEquals(new float[0], x.slice(0, 5, 2).toFloatArray());
        ShapeException e = assertThrows(ShapeException.class, () -> x.slice(0, 0, 7, -1));
        assertTrue(e.getMessage().contains("negative steps are not supported"));
    }

    @Test
    void chunkMayReturnFewerPiecesTensorSplitNever() {
        Tensor x = Tensor.zeros(5, 3);
        assertEquals(3, x.chunk(4, 0).size());
        List<Tensor> parts = x.tensorSplit(4, 0);
        assertEquals(4, parts.size());
        assertArrayEquals(new int[] {2, 3}, parts.get(0).shape());
        assertArrayEquals(new int[] {1, 3}, parts.get(3).shape());
        List<Tensor> split = x.split(2, 0);
        assertEquals(3, split.size());
        assertArrayEquals(new int[] {1, 3}, split.get(2).shape());
    }

    @Test
    void contiguousReturnsItselfWhenAlreadyContiguousCloneNever() {
        Tensor x = btd();
        assertSame(x, x.contiguous());
        assertNotSame(x.storage(), x.clone().storage());
        Tensor f = x.flip(2);
        assertFalse(f.sharesStorage(x));
        assertEquals(4.0, f.getDouble(0, 0, 0));
    }

    @Test
    void randomPermutationsRoundTrip() {
        Random r = new Random(5);
        Tensor x = btd();
        for (int t = 0; t < 50; t++) {
            int[] p = {0, 1, 2};
            for (int i = 2; i > 0; i--) {
                int j = r.nextInt(i + 1);
                int tmp = p[i];
                p[i] = p[j];
                p[j] = tmp;
            }
            int[] inv = new int[3];
            for (int i = 0; i < 3; i++) {
                inv[p[i]] = i;
            }
            assertArrayEquals(x.toFloatArray(), x.permute(p).contiguous().permute(inv).toFloatArray());
        }
    }

    @Test
    void movedimAndUnflatten() {
        Tensor x = btd();
        assertArrayEquals(new int[] {3, 5, 2}, x.movedim(0, -1).shape());
        assertArrayEquals(new int[] {2, 3, 5, 1}, x.unflatten(-1, 5, -1).shape());
        assertEquals(x.getDouble(1, 2, 3), x.movedim(0, -1).getDouble(2, 3, 1));
    }
}
