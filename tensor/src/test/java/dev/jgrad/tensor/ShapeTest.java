package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShapeTest {
    private static int[] s(int... d) {
        return d;
    }

    @Test
    void seedRowsBroadcast() {
        assertArrayEquals(s(3, 4), Shape.broadcast(s(3, 1), s(4)));
        assertArrayEquals(s(2, 3, 4), Shape.broadcast(s(2, 3, 4), s(3, 1)));
        assertArrayEquals(s(5, 4, 3), Shape.broadcast(s(5, 1, 3), s(4, 3)));
        assertArrayEquals(s(0, 3), Shape.broadcast(s(0, 3), s(1, 3)));
        assertArrayEquals(s(2, 2), Shape.broadcast(s(), s(2, 2)));
        assertArrayEquals(s(), Shape.broadcast(s(), s()));
        assertArrayEquals(s(4, 0), Shape.broadcast(s(1, 0), s(4, 0)));
    }

    @Test
    void unravelInvertsRowMajorStrides() {
        int[] shape = s(2, 3, 4);
        int[] strides = Shape.contiguousStrides(shape);
        for (int flat = 0; flat < 24; flat++) {
            int[] idx = Shape.unravel(flat, shape);
            assertEquals(flat, idx[0] * strides[0] + idx[1] * strides[1] + idx[2] * strides[2]);
        }
        assertArrayEquals(s(1, 2, 3), Shape.unravel(23, shape));
        assertArrayEquals(s(), Shape.unravel(0, s()));
    }

    @Test
    void mismatchNamesBothSizesAndTheDimensionInPyTorchsWords() {
        ShapeException e = assertThrows(ShapeException.class, () -> Shape.broadcast(s(3, 4), s(2, 4)));
        String first = e.getMessage().split("\n")[0];
        assertEquals("The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0", first);
        assertTrue(e.getMessage().contains("a: [3, 4]"), e.getMessage());
        assertTrue(e.getMessage().contains("b: [2, 4]"), e.getMessage());
        assertTrue(e.getMessage().contains("^ dimension 0"), e.getMessage());
    }

    @Test
    void zeroAgainstTwoFails() {
        ShapeException e = assertThrows(ShapeException.class, () -> Shape.broadcast(s(0, 3), s(2, 3)));
        assertTrue(e.getMessage().startsWith("The size of tensor a (0) must match the size of tensor b (2) at non-singleton dimension 0"));
    }

    @Test
    void mismatchReportsTheRightmostBadDimension() {
        ShapeException e = assertThrows(ShapeException.class, () -> Shape.broadcast(s(4, 3, 5, 1), s(4, 4)));
        assertTrue(e.getMessage().startsWith("The size of tensor a (5) must match the size of tensor b (4) at non-singleton dimension 2"),
                e.getMessage());
    }

    @Test
    void alignmentPutsTheCaretUnderTheBadColumn() {
        String msg = Shape.aligned(new String[] {"a", "b"}, new int[][] {s(3, 4), s(3)}, 1);
        String[] lines = msg.split("\n");
        assertEquals("  a: [3, 4]", lines[0]);
        assertEquals("  b: [   3]", lines[1]);
        assertEquals(lines[0].indexOf('4'), lines[2].indexOf('^'));
    }

    @Test
    void broadcastShapesOfManyShapes() {
        assertArrayEquals(s(2, 4, 3), Shape.broadcastShapes(s(4, 1), s(2, 1, 3), s(3)));
        assertArrayEquals(s(), Shape.broadcastShapes());
        assertArrayEquals(s(1), Shape.broadcastShapes(s(1), s()));
        assertArrayEquals(s(0), Shape.broadcastShapes(s(0), s()));
        ShapeException e = assertThrows(ShapeException.class, () -> Shape.broadcastShapes(s(4, 3), s(4)));
        assertTrue(e.getMessage().startsWith("Shape mismatch: objects cannot be broadcast to a single shape"));
    }

    @Test
    void wrapDimAcceptsNegativeAndRefusesOutOfRange() {
        assertEquals(2, Shape.wrapDim(-1, 3));
        assertEquals(0, Shape.wrapDim(-1, 0));
        TensorIndexException e = assertThrows(TensorIndexException.class, () -> Shape.wrapDim(3, 3));
        assertEquals("Dimension out of range (expected to be in range of [-3, 2], but got 3)", e.getMessage());
    }

    @Test
    void stretchedDetection() {
        assertTrue(Shape.isStretched(s(4, 1), s(4, 4)));
        assertTrue(Shape.isStretched(s(4), s(4, 4)));
        assertFalse(Shape.isStretched(s(4, 4), s(4, 4)));
        assertFalse(Shape.isStretched(s(1, 4), s(1, 4)));
    }

    @Test
    void numelAndStrides() {
        assertEquals(24, Shape.numel(s(2, 3, 4)));
        assertEquals(1, Shape.numel(s()));
        assertEquals(0, Shape.numel(s(2, 0, 3)));
        assertArrayEquals(s(12, 4, 1), Shape.contiguousStrides(s(2, 3, 4)));
        assertThrows(ShapeException.class, () -> Shape.numel(s(1 << 16, 1 << 16)));
    }
}
