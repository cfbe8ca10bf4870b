package dev.jgrad.nn.data;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** random_split's parts: their sizes as PyTorch computes them, disjoint, covering the dataset, the same for one seed. */
class SubsetTest {
    private static TensorDataset numbers(int n) {
        return new TensorDataset(Tensor.arange(n).reshape(n, 1), Tensor.arange(n).mul(10));
    }

    private static long[] firstField(Subset s) {
        return s.all().get(0).reshape(-1).toLongArray();
    }

    @Test
    void partsHavePyTorchsSizesAndShareNoSample() {
        List<Subset> parts = Subset.randomSplit(numbers(11), new Generator(4), 0.5, 0.3, 0.2);
        // floor(5.5, 3.3, 2.2) = 5, 3, 2; the one left over goes to the first part
        assertEquals(List.of(6, 3, 2), parts.stream().map(Subset::size).toList());
        TreeSet<Long> seen = new TreeSet<>();
        for (Subset p : parts) {
            for (long v : firstField(p)) {
                assertEquals(true, seen.add(v), "sample " + v + " in two parts");
            }
        }
        assertEquals(11, seen.size());
        assertArrayEquals(firstField(parts.get(1)), firstField(Subset.randomSplit(numbers(11), new Generator(4), 0.5, 0.3, 0.2).get(1)));
    }

    @Test
    void aSubsetReadsItsSamplesThroughTheDatasetAndCanBeLoaded() {
        Subset s = new Subset(numbers(6), new long[] {4, 1, 5});
        List<Tensor> b = s.get(new long[] {2, 0});
        assertArrayEquals(new long[] {5, 4}, b.get(0).reshape(-1).toLongArray());
        assertArrayEquals(new long[] {50, 40}, b.get(1).toLongArray());
        int seen = 0;
        for (List<Tensor> batch : new DataLoader(s, 2, true, 1, false)) {
            seen += batch.get(0).size(0);
        }
        assertEquals(3, seen);
        assertEquals(2, new Subset(s, new long[] {0, 2}).size());
    }

    @Test
    void badIndicesAndFractionsAreRefused() {
        assertThrows(IndexOutOfBoundsException.class, () -> new Subset(numbers(3), new long[] {3}));
        assertThrows(IndexOutOfBoundsException.class, () -> new Subset(numbers(3), new long[] {0}).get(new long[] {1}));
        assertThrows(IllegalArgumentException.class, () -> Subset.randomSplit(numbers(3), new Generator(1), 0.5, 0.6));
        assertThrows(IllegalArgumentException.class, () -> Subset.randomSplit(numbers(3), new Generator(1), 1.5, -0.5));
        assertThrows(IllegalArgumentException.class, () -> Subset.randomSplit(numbers(3), new Generator(1)));
    }
}
