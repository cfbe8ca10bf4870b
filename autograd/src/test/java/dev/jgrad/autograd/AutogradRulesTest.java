package dev.jgrad.autograd;

import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** PyTorch's rules for leaves, in-place ops, saved tensors and the graph's lifetime. */
class AutogradRulesTest {
    private static Variable leaf(float... v) {
        return Variable.of(Tensor.of(v), true);
    }

    @Test
    void inPlaceOnALeafThatRequiresGradFailsButIsAllowedUnderNoGrad() {
        Variable w = leaf(1, 2, 3);
        AutogradException e = assertThrows(AutogradException.class, () -> w.addi(1.0));
        assertTrue(e.getMessage().startsWith("a leaf Variable that requires grad is being used in an in-place operation."));
        try (NoGrad g = NoGrad.enter()) {
            w.addi(1.0);
        }
        assertArrayEquals(new float[] {2, 3, 4}, w.data().toFloatArray());
        assertTrue(w.isLeaf());
    }

    @Test
    void modifyingASavedTensorFailsAtBackwardNamingTheOp() {
        Variable x = leaf(1, 2, 3);
        Variable y = x.exp();
        y.addi(1.0);
        AutogradException e = assertThrows(AutogradException.class, () -> y.sum().backward());
        assertTrue(e.getMessage().startsWith("one of the variables needed for gradient computation has been modified by an inplace operation"));
        assertTrue(e.getMessage().contains("output 0 of exp, is at version 1; expected version 0 instead"), e.getMessage());
    }

    @Test
    void inPlaceOnANonLeafIsRecordedAndDifferentiatesCorrectly() {
        Variable x = leaf(1, 2, 3);
        Variable y = x.mul(2.0);
        y.addi(1.0);
        Variable s = y.mul(y).sum();
        s.backward();
        // s = sum((2x + 1)^2), ds/dx = 4 (2x + 1)
        assertArrayEquals(new float[] {12, 20, 28}, x.grad().toFloatArray());
        assertFalse(y.isLeaf());
    }

    @Test
    void backwardOfANonScalarNeedsAGradient() {
        Variable y = leaf(1, 2, 3).mul(2.0);
        AutogradException e = assertThrows(AutogradException.class, y::backward);
        assertTrue(e.getMessage().startsWith("grad can be implicitly created only for scalar outputs"));
        y.backward(Tensor.of(1f, 1f, 1f));
    }

    @Test
    void aSecondBackwardThroughAFreedGraphSaysHowToKeepIt() {
        Variable x = leaf(1, 2);
        Variable s = x.exp().sum();
        s.backward();
        AutogradException e = assertThrows(AutogradException.class, s::backward);
        assertTrue(e.getMessage().startsWith("Trying to backward through the graph a second time"));
        assertTrue(e.getMessage().contains("Pass retainGraph (or createGraph)"), e.getMessage());
        Variable t = x.exp().sum();
        t.backward(null, true);
        t.backward(null, true);
    }

    @Test
    void leafGradientsAccumulateAcrossBackwardCallsUntilZeroed() {
        Variable x = leaf(1, 2);
        x.mul(3.0).sum().backward();
        x.mul(3.0).sum().backward();
        assertArrayEquals(new float[] {6, 6}, x.grad().toFloatArray());
        Tensor buffer = x.grad();
        x.zeroGrad();
        x.mul(3.0).sum().backward();
        assertArrayEquals(new float[] {3, 3}, x.grad().toFloatArray());
        assertTrue(buffer == x.grad(), "the gradient buffer is reused after zeroGrad");
    }

    @Test
    void aValueUsedTwiceGetsTheSumOfBothGradients() {
        Variable x = leaf(2, 3);
        Variable y = x.mul(x).add(x.exp());
        y.sum().backward();
        assertEquals(2 * 2 + Math.exp(2), x.grad().getDouble(0), 1e-4);
    }

    @Test
    void noGradRecordsNothingAndUnusedInputsGetNoGradient() {
        Variable x = leaf(1, 2, 3);
        Variable u = leaf(5, 6);
        Variable a;
        try (NoGrad g = NoGrad.enter()) {
            a = x.mul(2.0);
        }
        assertFalse(a.requiresGrad());
        assertNull(a.gradFn());
        a.mul(x).sum().backward();
        assertArrayEquals(new float[] {2, 4, 6}, x.grad().toFloatArray());
        assertNull(u.grad());
    }

    @Test
    void gradientOfABroadcastInputIsSummedDownToItsShape() {
        Variable a = Variable.of(Tensor.ones(3, 1), true);
        Variable b = Variable.of(Tensor.ones(4), true);
        a.add(b).sum().backward();
        assertArrayEquals(new int[] {3, 1}, a.grad().shape());
        assertArrayEquals(new float[] {4, 4, 4}, a.grad().toFloatArray());
        assertArrayEquals(new float[] {3, 3, 3, 3}, b.grad().toFloatArray());
    }

    @Test
    void recordingIsPerThread() throws Exception {
        Variable x = leaf(1, 2);
        Variable[] fromOtherThread = new Variable[1];
        try (NoGrad g = NoGrad.enter()) {
            Thread t = new Thread(() -> fromOtherThread[0] = x.mul(2.0));
            t.start();
            t.join();
            assertFalse(x.mul(2.0).requiresGrad());
        }
        assertTrue(fromOtherThread[0].requiresGrad(), "NoGrad on one thread does not switch off recording on another");
    }

    @Test
    void inPlaceOnAViewOfALeafIsRefused() {
        Variable w = leaf(1, 2, 3, 4);
        Variable v = w.slice(0, 0, 2);
        AutogradException e = assertThrows(AutogradException.class, () -> v.muli(2.0));
        assertTrue(e.getMessage().startsWith("a view of a leaf Variable that requires grad is being used in an in-place operation."));
    }

    @Test
    void detachCutsTheGraphAndSharesTheData() {
        Variable x = leaf(1, 2);
        Variable y = x.mul(2.0);
        Variable d = y.detach();
        assertTrue(d.isLeaf());
        assertFalse(d.requiresGrad());
        assertTrue(d.data().sharesStorage(y.data()), "detach is a view of the same data, as in PyTorch");
        // d * x: the gradient reaches x only through its direct use, d counts as a constant (2, 4).
        d.mul(x).sum().backward();
        assertArrayEquals(new float[] {2, 4}, x.grad().toFloatArray());
    }
}
