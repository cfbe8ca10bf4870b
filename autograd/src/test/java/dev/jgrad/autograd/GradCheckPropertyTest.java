package dev.jgrad.autograd;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.Arrays;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every op of the registry ({@link OpRegistry#ALL}) against central differences in float64, each over {@link #TRIALS}
 * samples drawn on random shapes (a distinct size for every axis, broadcasting where the op broadcasts).
 */
class GradCheckPropertyTest {
    static final int TRIALS = 12;

    @TestFactory
    Stream<DynamicTest> everyRegisteredOpMatchesCentralDifferences() {
        return OpRegistry.ALL.stream().map(op -> DynamicTest.dynamicTest(op.name(), () -> {
            RandomShapes rs = new RandomShapes(op.name().hashCode());
            for (int t = 0; t < TRIALS; t++) {
                OpInfo.Sample sample = op.sampler().draw(rs);
                GradCheck.Result r = GradCheck.check(sample.fn(), new Generator(1234 + t), op.atol(), op.rtol(), sample.inputs());
                int[][] shapes = Arrays.stream(sample.inputs()).map(Tensor::shape).toArray(int[][]::new);
                assertTrue(r.passed(), op.name() + " (" + op.domain() + ") with inputs " + RandomShapes.str(shapes) + ": " + r);
            }
        }));
    }

    @Test
    void amaxSplitsTheGradientAmongTies() {
        Variable x = Variable.of(Tensor.of(new float[] {1, 3, 3, 2}, 4), true);
        x.amax().backward();
        assertArrayEquals(new float[] {0, 0.5f, 0.5f, 0}, x.grad().toFloatArray());
    }
}
