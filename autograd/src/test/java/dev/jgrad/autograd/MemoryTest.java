package dev.jgrad.autograd;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Saved tensors are released once backward has used them, so a long training loop holds steady memory. */
class MemoryTest {
    @Test
    void tenThousandTrainingStepsLeaveNoSavedTensorsBehind() {
        Generator gen = new Generator(0);
        Variable w1 = Variable.of(Tensor.randn(gen, 16, 2).mul(0.5), true);
        Variable b1 = Variable.of(Tensor.zeros(16), true);
        Variable w2 = Variable.of(Tensor.randn(gen, 1, 16).mul(0.5), true);
        Variable x = Variable.of(Tensor.randn(gen, 16, 2));
        Variable y = Variable.of(Tensor.randn(gen, 16, 1));
        long baseNodes = Node.liveNodes();
        long baseBytes = Node.liveSavedBytes();
        long peakNodes = 0;
        for (int step = 0; step < 10_000; step++) {
            Variable h = Variable.linear(x, w1, b1).tanh();
            Variable loss = Variable.linear(h, w2, null).sub(y).square().mean();
            peakNodes = Math.max(peakNodes, Node.liveNodes() - baseNodes);
            loss.backward();
            assertEquals(baseNodes, Node.liveNodes(), "live nodes after step " + step);
            assertEquals(baseBytes, Node.liveSavedBytes(), "saved bytes after step " + step);
            try (NoGrad g = NoGrad.enter()) {
                for (Variable p : new Variable[] {w1, b1, w2}) {
                    p.data().addi(p.grad(), -0.01);
                    p.zeroGrad();
                }
            }
        }
        assertTrue(peakNodes >= 4, "the forward pass did record saved tensors (" + peakNodes + ")");
    }
}
