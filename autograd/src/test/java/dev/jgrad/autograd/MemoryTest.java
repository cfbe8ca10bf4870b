package dev.jgrad.autograd;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Memory;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Saved tensors are released once backward has used them, so a long training loop holds steady memory; and a backward
 * pass recycles the gradients it makes for itself, so a loop without a Memory scope allocates for the forward alone.
 */
class MemoryTest {
    /**
     * A two-layer network's backward (gradients of 96 x 200 activations, 200 x 200 weights), outside any scope: the first
     * pass gives the gradients it made for itself to the thread's pool, and later passes take them from it and give them
     * back (the pool holds as much after the sixth pass as after the fourth; without the reuse it would grow by a pass's
     * worth each time). What leaves a pass, the leaves' grads, a retained grad and what grad() returns, stays readable after later
     * passes.
     */
    @Test
    void backwardRecyclesItsOwnGradientsOutsideAScope() {
        assertTrue(!Memory.inScope());
        Memory.clearPool();
        Generator gen = new Generator(1);
        Variable w1 = Variable.of(Tensor.randn(gen, 200, 200).mul(0.05), true);
        Variable w2 = Variable.of(Tensor.randn(gen, 200, 200).mul(0.05), true);
        Variable x = Variable.of(Tensor.randn(gen, 96, 200));
        long afterFirst = 0;
        long afterFourth = 0;
        Variable kept = null;
        Tensor keptValues = null;
        for (int step = 0; step < 6; step++) {
            Variable h = Variable.linear(x, w1, null).relu().retainGrad();
            Variable loss = Variable.linear(h, w2, null).tanh().square().sum();
            loss.backward();
            afterFirst = step == 0 ? Memory.pooledBytes() : afterFirst;
            afterFourth = step == 3 ? Memory.pooledBytes() : afterFourth;
            if (step == 2) {
                kept = h;
                keptValues = h.grad().clone();
                Variable again = Variable.linear(x, w1, null).relu().sum();
                Variable g = Autograd.grad(again, w1);
                // Another pass would have handed a recycled array to a later op; this one must still hold its values.
                Tensor gValues = g.data().clone();
                Variable.linear(x, w1, null).tanh().sum().backward();
                assertArrayEquals(gValues.toFloatArray(), g.data().toFloatArray(), "grad()'s result is kept");
            }
            w1.zeroGrad();
            w2.zeroGrad();
        }
        assertArrayEquals(keptValues.toFloatArray(), kept.grad().toFloatArray(), "a retained grad is kept");
        long gradientBytes = 4L * (96 * 200 + 200 * 200);
        assertTrue(afterFirst >= gradientBytes, "the first pass gave its gradients to the pool (" + afterFirst + " bytes)");
        // The passes of step 2 left arrays of their own shapes; steps 4 and 5 took theirs and gave them back.
        assertEquals(afterFourth, Memory.pooledBytes(), "later passes took their arrays from the pool and gave them back");
        Memory.clearPool();
    }

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
