package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.internal.fused.FusedLstm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * The fused LSTM gives the same bits on 1, 2 and 3 threads, at a size whose recurrences the threads share (a batch of 29
 * rows: chunks of {@code FusedLstm.CHUNK_ROWS} and a shorter last one, claimed unevenly by 3 threads); FusedLstmTest
 * holds it to the definition.
 */
@ExtendWith(HelpersAlwaysRun.class)
class LstmThreadsTest {
    @Test
    void gradientsDoNotDependOnTheThreadCount() {
        float[][] first = null;
        for (int threads : new int[] {1, 2, 3}) {
            Parallel.setThreads(threads);
            Generator gen = new Generator(31);
            int steps = 3;
            int batch = 29;
            int in = 24;
            int h = 128;
            Tensor x = Tensor.randn(gen, steps, batch, in);
            Tensor h0 = Tensor.randn(gen, batch, h);
            Tensor c0 = Tensor.randn(gen, batch, h);
            Tensor wIh = Tensor.randn(gen, 4 * h, in).mul(0.1);
            Tensor wHh = Tensor.randn(gen, 4 * h, h).mul(0.1);
            Tensor bIh = Tensor.randn(gen, 4 * h);
            Tensor bHh = Tensor.randn(gen, 4 * h);
            FusedLstm.LstmForward f = FusedLstm.lstm(x, h0, c0, wIh, wHh, bIh, bHh);
            Tensor grad = Tensor.randn(gen, steps, batch, 2 * h);
            FusedLstm.LstmGradients d = FusedLstm.lstmBackward(grad, f, x, wIh, wHh, new boolean[] {true, true, true, true, true, true});
            float[][] all = {f.output().toFloatArray(), d.x().toFloatArray(), d.h0().toFloatArray(), d.c0().toFloatArray(),
                d.wIh().toFloatArray(), d.wHh().toFloatArray(), d.bias().toFloatArray()};
            if (first == null) {
                first = all;
                continue;
            }
            String[] names = {"output", "x", "h0", "c0", "weight_ih", "weight_hh", "bias"};
            for (int i = 0; i < all.length; i++) {
                assertArrayEquals(first[i], all[i], names[i] + " gradient on " + threads + " threads");
            }
        }
    }
}
