package dev.jgrad.autograd;

import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AnomalyTest {
    private static Variable x() {
        return Variable.of(Tensor.of(-1f, 0f, 2f), true);
    }

    @Test
    void whereOfLogHasANanGradientExactlyAsInPyTorch() {
        Variable x = x();
        Variable.where(x.gt(0), x.log(), 0.0).sum().backward();
        float[] g = x.grad().toFloatArray();
        assertEquals(-0.0f, g[0]);
        assertEquals(Float.floatToIntBits(-0.0f), Float.floatToIntBits(g[0]), "the sign of zero matches PyTorch too");
        assertTrue(Float.isNaN(g[1]));
        assertEquals(0.5f, g[2]);
    }

    @Test
    void clampingTheUnusedBranchFixesIt() {
        Variable x = x();
        Variable.where(x.gt(0), x.clampMin(1e-6).log(), 0.0).sum().backward();
        assertArrayEquals(new float[] {0, 0, 0.5f}, x.grad().toFloatArray());
    }

    @Test
    void anomalyModeNamesTheOpAndTheCallSiteInForward() {
        Variable x = x();
        try (Anomaly a = Anomaly.enable()) {
            AnomalyException e = assertThrows(AnomalyException.class, () -> Variable.where(x.gt(0), x.log(), 0.0));
            assertEquals("log", e.op());
            assertTrue(e.inForward());
            assertTrue(e.getMessage().contains("'log' produced NaN (1 of 3) and -inf (1 of 3)"), e.getMessage());
            assertTrue(e.getMessage().contains("AnomalyTest"), "names the caller's code: " + e.getMessage());
        }
        assertFalse(Anomaly.isEnabled());
    }

    @Test
    void anomalyModeNamesTheOpInBackward() {
        Variable x = x();
        Variable l = x.log();
        Variable y = Variable.where(x.gt(0), l, 0.0);
        try (Anomaly a = Anomaly.enable()) {
            Variable s = y.mul(1.0).sum();
            // log was recorded outside the scope, so forward passes; backward finds its NaN
            AnomalyException e = assertThrows(AnomalyException.class, s::backward);
            assertEquals("log", e.op());
            assertFalse(e.inForward());
            assertTrue(e.getMessage().startsWith("anomaly in backward: the gradient of 'log' with respect to its input 0 (shape [3]) has NaN (1 of 3)"),
                    e.getMessage());
        }
    }

    @Test
    void aMaskFilledWithMinusInfinityIsNotAnAnomaly() {
        try (Anomaly a = Anomaly.enable()) {
            Variable scores = Variable.of(Tensor.of(1f, 2f, 3f), true);
            Tensor mask = Tensor.of(new boolean[] {false, false, true}, 3);
            Variable p = scores.maskedFill(mask, Double.NEGATIVE_INFINITY).softmax(0);
            p.sum().backward();
            assertTrue(scores.grad().allFinite());
        }
    }
}
