package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * Whatever a tuning file says, the numbers are the same bits: matrix products of the shapes that take every path
 * (blocked, wide, split along k, small), softmax, sums and elementwise ops, each under the extreme measured choices.
 */
@ExtendWith(HelpersAlwaysRun.class)
class TuningBitsTest {
    private static float[][] compute() {
        Generator g = new Generator(4);
        int[][] shapes = {{300, 257, 190}, {64, 288, 7744}, {9, 4096, 7}, {768, 128, 512}, {5, 7, 3}};
        java.util.List<float[]> out = new java.util.ArrayList<>();
        for (int[] s : shapes) {
            Tensor a = Tensor.randn(g, s[0], s[1]);
            Tensor b = Tensor.randn(g, s[1], s[2]);
            out.add(a.matmul(b).toFloatArray());
            out.add(a.transpose(0, 1).contiguous().transpose(0, 1).matmul(b).toFloatArray());
        }
        // A linear layer's forward, x @ W^T: the blocked product with B transposed, k in one panel.
        Tensor x0 = Tensor.randn(g, 770, 128);
        Tensor w = Tensor.randn(g, 384, 128);
        out.add(x0.matmul(w.transpose(0, 1)).toFloatArray());
        Tensor x = Tensor.randn(g, 512, 1000);
        out.add(x.softmax(1).toFloatArray());
        out.add(x.sum(0, false).toFloatArray());
        out.add(x.add(x.mul(0.5)).exp().toFloatArray());
        return out.toArray(new float[0][]);
    }

    @Test
    void resultsDoNotDependOnTheTuning() {
        Tuning.Choices before = Tuning.choices();
        try {
            Tuning.use(new Tuning.Choices(Tuning.Choices.MIN_ROW_BLOCK, Tuning.Choices.MIN_PARALLEL));
            float[][] small = compute();
            Tuning.use(new Tuning.Choices(Tuning.Choices.MAX_ROW_BLOCK, Tuning.Choices.MAX_PARALLEL));
            float[][] large = compute();
            Tuning.use(Tuning.Choices.DEFAULT);
            float[][] dflt = compute();
            for (int i = 0; i < small.length; i++) {
                assertArrayEquals(dflt[i], small[i], "result " + i + " with the smallest choices");
                assertArrayEquals(dflt[i], large[i], "result " + i + " with the largest choices");
            }
        } finally {
            Tuning.use(before);
        }
    }
}
