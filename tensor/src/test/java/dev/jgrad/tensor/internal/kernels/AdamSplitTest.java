package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.internal.fused.AdamStep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * Adam's step over a parameter large enough to be split across the threads (70,001 elements, at an offset) gives the
 * bits the plain kernel gives over the whole range at once, at 1 thread and at 2. The helpers run whatever the JIT
 * compilers and any other process are doing, so the split really happens.
 */
@ExtendWith(HelpersAlwaysRun.class)
class AdamSplitTest {
    @Test
    void aSplitStepEqualsTheWholeRangeBitForBit() {
        int n = 70_001;
        Generator gen = new Generator(5);
        Tensor p0 = Tensor.randn(gen, n + 3).narrow(0, 3, n);
        Tensor g = Tensor.randn(gen, n);
        Tensor m0 = Tensor.randn(gen, n).mul(0.01);
        Tensor v0 = Tensor.rand(gen, n).mul(0.01);
        float[][] want = {p0.toFloatArray(), g.toFloatArray(), m0.toFloatArray(), v0.toFloatArray()};
        PlainKernels.PROVIDER.optimizer().adam(want[0], 0, want[1], 0, want[2], 0, want[3], 0, n, 0.9f, 0.99f, 0.01f, 0.003f, 0.14f, 1e-8f);
        for (int threads : new int[] {1, 2}) {
            Parallel.setThreads(threads);
            Tensor p = p0.clone();
            Tensor m = m0.clone();
            Tensor v = v0.clone();
            AdamStep.adam(p, g, m, v, 0.9, 0.99, 0.01, 0.003, 0.14, 1e-8);
            assertArrayEquals(want[0], p.toFloatArray(), threads + " thread(s): parameter");
            assertArrayEquals(want[2], m.toFloatArray(), threads + " thread(s): first moment");
            assertArrayEquals(want[3], v.toFloatArray(), threads + " thread(s): second moment");
        }
    }
}
