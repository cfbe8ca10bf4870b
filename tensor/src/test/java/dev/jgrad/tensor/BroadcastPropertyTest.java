package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** Properties of broadcasting over random shapes, checked against a plain reference implementation. */
class BroadcastPropertyTest {
    private static final int TRIALS = 400;

    /** A random shape, and a partner that broadcasts with it (size kept, set to 1, or dims dropped). */
    static int[][] compatiblePair(Random r) {
        int n = r.nextInt(5);
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = r.nextInt(10) == 0 ? 0 : 1 + r.nextInt(5);
        }
        int drop = n == 0 ? 0 : r.nextInt(n + 1);
        int[] b = Arrays.copyOfRange(a, drop, n);
        for (int i = 0; i < b.length; i++) {
            if (r.nextInt(3) == 0) {
                b[i] = 1;
            }
        }
        for (int i = 0; i < a.length; i++) {
            if (r.nextInt(4) == 0 && i >= drop && b[i - drop] != 1) {
                a[i] = 1;
            }
        }
        return r.nextBoolean() ? new int[][] {a, b} : new int[][] {b, a};
    }

    static Tensor random(Random r, int[] shape) {
        float[] v = new float[Shape.numel(shape)];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) r.nextGaussian();
        }
        return Tensor.of(v, shape);
    }

    @Test
    void broadcastingIsSymmetric() {
        Random r = new Random(1);
        for (int t = 0; t < TRIALS; t++) {
            int[][] p = compatiblePair(r);
            assertArrayEquals(Shape.broadcast(p[0], p[1]), Shape.broadcast(p[1], p[0]));
            assertArrayEquals(Shape.broadcast(p[0], p[1]), Shape.broadcastShapes(p[0], p[1]));
        }
    }

    @Test
    void broadcastViewAgreesWithMaterialisedCopyAndReference() {
        Random r = new Random(2);
        for (int t = 0; t < TRIALS; t++) {
            int[][] p = compatiblePair(r);
            Tensor a = random(r, p[0]);
            Tensor b = random(r, p[1]);
            int[] out = Shape.broadcast(p[0], p[1]);
            Tensor viaViews = a.sub(b);
            Tensor viaCopies = a.expand(out).contiguous().sub(b.expand(out).contiguous());
            assertArrayEquals(viaCopies.toFloatArray(), viaViews.toFloatArray(), 0f, Arrays.toString(p[0]) + " " + Arrays.toString(p[1]));
            float[] ref = reference(a, b, out);
            assertArrayEquals(ref, viaViews.toFloatArray(), 0f);
        }
    }

    /** a - b by explicit index arithmetic: each output index mapped to its input indices. */
    private static float[] reference(Tensor a, Tensor b, int[] out) {
        int n = Shape.numel(out);
        float[] r = new float[n];
        for (int flat = 0; flat < n; flat++) {
            int[] idx = Shape.unravel(flat, out);
            r[flat] = (float) (a.getDouble(project(idx, a.shape())) - b.getDouble(project(idx, b.shape())));
        }
        return r;
    }

    private static int[] project(int[] idx, int[] shape) {
        int[] p = new int[shape.length];
        for (int i = 0; i < shape.length; i++) {
            int j = idx.length - shape.length + i;
            p[i] = shape[i] == 1 ? 0 : idx[j];
        }
        return p;
    }

    @Test
    void expandHasStrideZeroAndAllocatesNothing() {
        Tensor a = Tensor.of(new float[] {1, 2, 3}, 3, 1);
        Tensor e = a.expand(3, 4);
        assertTrue(e.sharesStorage(a));
        assertArrayEquals(new int[] {1, 0}, e.strides());
        assertEquals(3, e.storage().size());
    }

    @Test
    void incompatiblePairsFailWithBothShapes() {
        Random r = new Random(3);
        for (int t = 0; t < 100; t++) {
            int[] a = {2 + r.nextInt(3), 3 + r.nextInt(3)};
            int[] b = {a[1] + 1};
            try {
                Shape.broadcast(a, b);
                fail("expected a mismatch for " + Arrays.toString(a) + " and " + Arrays.toString(b));
            } catch (ShapeException e) {
                assertTrue(e.getMessage().contains("(" + a[1] + ")") && e.getMessage().contains("(" + b[0] + ")"));
            }
        }
    }
}
