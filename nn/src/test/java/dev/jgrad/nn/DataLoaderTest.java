package dev.jgrad.nn;

import dev.jgrad.nn.data.DataLoader;
import dev.jgrad.nn.data.TensorDataset;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DataLoaderTest {
    private static TensorDataset data() {
        return new TensorDataset(Tensor.arange(0, 10, 1, dev.jgrad.tensor.DType.FLOAT32).reshape(10, 1), Tensor.arange(10));
    }

    private static List<Float> firstColumn(DataLoader loader) {
        List<Float> seen = new ArrayList<>();
        for (List<Tensor> batch : loader) {
            for (float f : batch.get(0).toFloatArray()) {
                seen.add(f);
            }
        }
        return seen;
    }

    @Test
    void batchesInOrderWithASmallerLastOne() {
        DataLoader loader = new DataLoader(data(), 4, false, 0, false);
        assertEquals(3, loader.batches());
        List<int[]> shapes = new ArrayList<>();
        for (List<Tensor> b : loader) {
            shapes.add(b.get(0).shape());
            assertEquals(b.get(0).size(0), b.get(1).size(0));
        }
        assertArrayEquals(new int[] {2, 1}, shapes.get(2));
        assertEquals(2, new DataLoader(data(), 4, false, 0, true).batches());
    }

    @Test
    void shufflingIsSeededAndDiffersPerEpoch() {
        DataLoader a = new DataLoader(data(), 3, true, 7, false);
        DataLoader b = new DataLoader(data(), 3, true, 7, false);
        List<Float> epoch1 = firstColumn(a);
        assertEquals(epoch1, firstColumn(b));
        assertNotEquals(epoch1, firstColumn(a), "the next epoch is shuffled anew");
        assertEquals(10, epoch1.stream().distinct().count());
    }

    @Test
    void tensorsOfDifferentLengthsAreRefused() {
        assertThrows(dev.jgrad.tensor.ShapeException.class, () -> new TensorDataset(Tensor.zeros(10, 2), Tensor.zeros(9)));
        assertThrows(IllegalArgumentException.class, () -> new DataLoader(data(), 0, false, 0, false));
    }
}
