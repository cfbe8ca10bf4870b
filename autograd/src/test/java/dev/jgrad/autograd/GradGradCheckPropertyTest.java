package dev.jgrad.autograd;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.Arrays;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every op of the registry ({@link OpRegistry#ALL}) differentiated twice: its gradient, taken with createGraph, checked
 * against central differences of itself in float64 ({@link GradCheck#gradgradcheck}), each over {@link #TRIALS} samples
 * on random shapes with a distinct size for every axis.
 */
class GradGradCheckPropertyTest {
    static final int TRIALS = 4;

    @TestFactory
    Stream<DynamicTest> everyRegisteredOpHasCorrectSecondDerivatives() {
        return OpRegistry.ALL.stream().map(op -> DynamicTest.dynamicTest(op.name(), () -> {
            RandomShapes rs = new RandomShapes(op.name().hashCode() + 7);
            for (int t = 0; t < TRIALS; t++) {
                OpInfo.Sample sample = op.sampler().draw(rs);
                GradCheck.Result r = GradCheck.gradgradcheck(sample.fn(), new Generator(4321 + t), op.atol(), op.rtol(), sample.inputs());
                int[][] shapes = Arrays.stream(sample.inputs()).map(Tensor::shape).toArray(int[][]::new);
                assertTrue(r.passed(), op.name() + " (" + op.domain() + ") with inputs " + RandomShapes.str(shapes) + ": " + r);
            }
        }));
    }
}
