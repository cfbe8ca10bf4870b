package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GuardAndFormatTest {
    @Test
    void strictScopeCatchesTheBxBBugAndNamesTheShapes() {
        Tensor pred = Tensor.zeros(6, 1);
        Tensor target = Tensor.zeros(6);
        assertArrayEquals(new int[] {6, 6}, pred.sub(target).shape(), "without the scope it silently broadcasts");
        try (BroadcastGuard g = BroadcastGuard.strict()) {
            ShapeException e = assertThrows(ShapeException.class, () -> pred.sub(target));
            assertTrue(e.getMessage().startsWith("strict broadcasting: sub stretches both operands to [6, 6]"), e.getMessage());
            assertTrue(e.getMessage().contains("a: [6, 1]") && e.getMessage().contains("b: [   6]"), e.getMessage());
            assertArrayEquals(new int[] {6, 4}, Tensor.zeros(6, 4).add(Tensor.zeros(4)).shape(), "one-sided broadcasting passes");
            assertArrayEquals(new int[] {6, 1}, pred.mul(2.0).shape(), "a scalar never counts");
        }
        assertArrayEquals(new int[] {6, 6}, pred.sub(target).shape(), "closing the scope restores the default");
    }

    @Test
    void byteLimitRefusesBeforeAllocating() {
        Tensor a = Tensor.zeros(256, 1, 64);
        Tensor b = Tensor.zeros(1, 256, 64);
        try (BroadcastGuard g = BroadcastGuard.limitBytes(1 << 20)) {
            ShapeException e = assertThrows(ShapeException.class, () -> a.sub(b));
            assertTrue(e.getMessage().contains("would need 16777216 bytes, over the limit of 1048576 bytes"), e.getMessage());
            assertEquals(256 * 64, a.add(a).numel(), "results no larger than the inputs pass");
        }
        assertEquals(256 * 256 * 64, a.sub(b).numel());
    }

    @Test
    void printingShowsValuesShapeAndTypeAndTruncates() {
        assertEquals("tensor([[1.5000, 2.0000]], shape=[1, 2], dtype=float32)", Tensor.of(new float[] {1.5f, 2f}, 1, 2).toString());
        assertEquals("tensor([ True, False], shape=[2], dtype=bool)", Tensor.of(new boolean[] {true, false}, 2).toString());
        assertEquals("tensor(3, shape=[], dtype=int64)", Tensor.scalar(3, DType.INT64).toString());
        String big = Tensor.zeros(100, 100).toString();
        assertTrue(big.contains("...") && big.length() < 600, big);
    }
}
