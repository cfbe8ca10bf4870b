package dev.jgrad.nn;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The normal initialisers: PyTorch's standard deviations, the generator's draws, the default generator for null. */
class InitTest {
    @Test
    void xavierAndKaimingNormalScaleTheGeneratorsDrawsByPyTorchsStd() {
        float[] draws = Tensor.randn(new Generator(3), 40, 30).toFloatArray();
        float[] xavier = Init.xavierNormal(new Generator(3), 30, 40, 40, 30).toFloatArray();
        float[] kaiming = Init.kaimingNormal(new Generator(3), 30, 40, 30).toFloatArray();
        double xStd = Math.sqrt(2.0 / 70);
        double kStd = Math.sqrt(2.0 / 30);
        for (int i = 0; i < draws.length; i++) {
            assertEquals((float) (draws[i] * xStd), xavier[i], 1e-6f, "xavier " + i);
            assertEquals((float) (draws[i] * kStd), kaiming[i], 1e-6f, "kaiming " + i);
        }
    }

    @Test
    void theirSpreadIsTheStdAskedFor() {
        Tensor w = Init.kaimingNormal(new Generator(5), 50, 400, 500);
        assertEquals(Math.sqrt(2.0 / 50), w.std().item(), 0.01 * Math.sqrt(2.0 / 50));
        assertEquals(0.0, w.mean().item(), 0.002);
    }

    @Test
    void aNullGeneratorDrawsFromTheSeededDefault() {
        Init.manualSeed(11);
        float[] a = Init.xavierNormal(null, 3, 4, 4, 3).toFloatArray();
        Init.manualSeed(11);
        float[] b = Init.normal(null, Math.sqrt(2.0 / 7), 4, 3).toFloatArray();
        assertArrayEquals(a, b);
        assertEquals(0.0, Init.kaimingNormal(new Generator(1), 0, 2, 0).numel());
    }
}
