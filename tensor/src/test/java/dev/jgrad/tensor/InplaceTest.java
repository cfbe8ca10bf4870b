package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InplaceTest {
    @Test
    void sourceMayBroadcastDestinationNeverGrows() {
        Tensor a = Tensor.zeros(3, 4);
        a.addi(Tensor.of(new float[] {1, 2, 3}, 3, 1));
        assertArrayEquals(new float[] {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}, a.toFloatArray());
        Tensor small = Tensor.zeros(3, 1);
        ShapeException e = assertThrows(ShapeException.class, () -> small.addi(Tensor.zeros(3, 4)));
        assertTrue(e.getMessage().startsWith("output with shape [3, 1] doesn't match the broadcast shape [3, 4]"), e.getMessage());
        assertThrows(ShapeException.class, () -> Tensor.zeros(3).copyFrom(Tensor.zeros(2, 3)));
    }

    @Test
    void writesGoThroughViewsIntoTheBaseAndBumpTheVersion() {
        Tensor x = Tensor.zeros(3, 4);
        int v0 = x.version();
        x.slice(1, 1, 3).addi(10);
        x.transpose(0, 1).select(0, 0).fill(7);
        assertEquals(v0 + 2, x.version());
        assertArrayEquals(new float[] {7, 10, 10, 0, 7, 10, 10, 0, 7, 10, 10, 0}, x.toFloatArray());
    }

    @Test
    void floatResultCannotBeWrittenIntoAnIntTensor() {
        Tensor i = Tensor.of(new long[] {1, 2}, 2);
        assertThrows(DTypeException.class, () -> i.addi(Tensor.of(0.5f, 0.5f)));
    }

    @Test
    void overlappingSourceIsReadBeforeItIsOverwritten() {
        Tensor x = Tensor.of(new float[] {1, 2, 3, 4}, 2, 2);
        x.addi(x.t());
        assertArrayEquals(new float[] {2, 5, 5, 8}, x.toFloatArray());
    }

    @Test
    void fusedOptimizerHelpers() {
        Tensor p = Tensor.of(1f, 2f);
        p.addi(Tensor.of(10f, 20f), -0.1);
        assertArrayEquals(new float[] {0f, 0f}, p.toFloatArray(), 1e-6f);
        p.addcmuli(Tensor.of(2f, 3f), Tensor.of(4f, 5f), 0.5);
        assertArrayEquals(new float[] {4f, 7.5f}, p.toFloatArray(), 1e-6f);
        p.addcdivi(Tensor.of(2f, 3f), Tensor.of(4f, 6f), 2);
        assertArrayEquals(new float[] {5f, 8.5f}, p.toFloatArray(), 1e-6f);
    }

    @Test
    void indexPutAccumulatesRepeatedIndices() {
        Tensor z = Tensor.zeros(3);
        z.indexPuti(new Index[] {Index.of(0, 2, 0)}, Tensor.of(1f, 2f, 3f), true);
        assertArrayEquals(new float[] {4, 0, 2}, z.toFloatArray());
        Tensor w = Tensor.zeros(3, 2);
        w.indexAddi(0, Tensor.of(new long[] {1, 1, 2}, 3), Tensor.ones(3, 2));
        assertArrayEquals(new float[] {0, 0, 2, 2, 1, 1}, w.toFloatArray());
    }
}
