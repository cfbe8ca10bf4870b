package dev.jgrad.autograd;

import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the shared op surface adds to autograd: unfold, casts, in-place alpha, grad-mode scopes and the engine's shape check. */
class OpSurfaceTest {
    @Test
    void unfoldIsAZeroCopyViewOfOverlappingWindows() {
        Tensor x = Tensor.arange(0, 7, 1, dev.jgrad.tensor.DType.FLOAT32).reshape(1, 7);
        Tensor w = x.unfold(1, 3, 2);
        assertArrayEquals(new int[] {1, 3, 3}, w.shape());
        assertArrayEquals(new float[] {0, 1, 2, 2, 3, 4, 4, 5, 6}, w.toFloatArray());
        assertTrue(w.sharesStorage(x));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w.fill(0));
        assertTrue(e.getMessage().contains("refers to a single memory location"), e.getMessage());
        x.unfold(1, 2, 2).fill(1);   // windows that do not overlap may be written
        assertArrayEquals(new float[] {1, 1, 1, 1, 1, 1, 6}, x.toFloatArray());
    }

    @Test
    void unfoldGradientAddsEachWindowBackWhereItWasRead() {
        RandomShapes rs = new RandomShapes(21);
        int[][] cases = {{3, 1}, {2, 2}, {4, 3}, {1, 1}, {5, 1}};
        for (int[] c : cases) {
            Tensor x = rs.normal(2, 7, 3);
            GradCheck.Result r = GradCheck.check(v -> v[0].unfold(1, c[0], c[1]), x);
            assertTrue(r.passed(), "unfold(1, " + c[0] + ", " + c[1] + "): " + r);
        }
        // Each element counts the windows it appears in: size 3, step 1 over 5 elements.
        Variable v = Variable.of(Tensor.zeros(5), true);
        v.unfold(0, 3, 1).sum().backward();
        assertArrayEquals(new float[] {1, 2, 3, 2, 1}, v.grad().toFloatArray());
    }

    @Test
    void castsBetweenFloatTypesPassTheGradientBack() {
        Variable x = Variable.of(Tensor.of(1f, 2f), true);
        Variable y = x.to(dev.jgrad.tensor.DType.FLOAT64).mul(3.0).sum();
        y.backward();
        assertEquals(dev.jgrad.tensor.DType.FLOAT32, x.grad().dtype());
        assertArrayEquals(new float[] {3, 3}, x.grad().toFloatArray());
        assertFalse(x.to(dev.jgrad.tensor.DType.INT64).requiresGrad());
    }

    @Test
    void inPlaceAddWithAlphaAddsAlphaTimesTheOther() {
        Variable x = Variable.of(Tensor.of(1f, 2f), true);
        Variable other = Variable.of(Tensor.of(10f, 20f), true);
        Variable y = x.mul(1.0);
        y.addi(other, 0.5);
        assertArrayEquals(new float[] {6, 12}, y.data().toFloatArray());
        y.sum().backward();
        assertArrayEquals(new float[] {0.5f, 0.5f}, other.grad().toFloatArray());
        assertArrayEquals(new float[] {1, 1}, x.grad().toFloatArray());
    }

    @Test
    void enableGradRecordsInsideNoGrad() {
        Variable x = Variable.of(Tensor.of(1f), true);
        try (NoGrad off = NoGrad.enter()) {
            assertFalse(x.mul(2.0).requiresGrad());
            try (EnableGrad on = EnableGrad.enter()) {
                assertTrue(x.mul(2.0).requiresGrad());
            }
            assertFalse(x.mul(2.0).requiresGrad());
        }
        assertTrue(GradMode.isEnabled());
    }

    @Test
    void aRuleWhoseGradientDoesNotFitItsInputIsNamedWithBothShapes() {
        Variable x = Variable.of(Tensor.ones(2, 3), true);
        Variable y = CustomFunction.apply("bad_rule", x.data().mul(2.0), new Variable[] {x}, new Tensor[0],
                (g, saved, needs) -> new Tensor[] {Tensor.ones(4, 3)});
        AutogradException e = assertThrows(AutogradException.class, () -> y.sum().backward());
        assertTrue(e.getMessage().contains("'bad_rule'") && e.getMessage().contains("[4, 3]") && e.getMessage().contains("[2, 3]"),
                e.getMessage());
    }

    @Test
    void comparisonsAndArgmaxGiveConstantsAndSignHasAZeroGradient() {
        Variable x = Variable.of(Tensor.of(3f, 1f, 2f), true);
        Variable gt = x.gt(1.5);
        assertFalse(gt.requiresGrad());
        assertArrayEquals(new boolean[] {true, false, true}, gt.data().toBooleanArray());
        assertEquals(0, x.argmax().item());
        assertEquals(1, x.argmin().item());
        x.sign().mul(x).sum().backward();
        assertArrayEquals(new float[] {1, 1, 1}, x.grad().toFloatArray());
    }
}
