package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.optim.Adam;
import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.nn.optim.SGD;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Memory;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A training step per Memory.scope() gives the numbers a run without scopes gives, bit for bit, and what
 * must outlive a step (parameters, their gradients, optimizer state, batch norm's running statistics)
 * survives the scopes.
 */
class ScopedTrainingTest {
    private static double[] train(boolean scoped, Function<java.util.List<Parameter>, Optimizer> optimizer, Sequential[] out) {
        Generator g = new Generator(4);
        Sequential model = new Sequential(new Conv2d(2, 5, new int[] {3, 3}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, 1,
                true, g), new BatchNorm2d(5), new ReLU(), new MaxPool2d(2), new Flatten(), new Linear(5 * 3 * 4, 3, true, g));
        Optimizer opt = optimizer.apply(model.parameters());
        Tensor x = Tensor.randn(g, 6, 2, 7, 9);
        Tensor y = Tensor.of(new long[] {0, 1, 2, 0, 1, 2}, 6);
        double[] losses = new double[12];
        for (int step = 0; step < losses.length; step++) {
            Memory.Scope scope = scoped ? Memory.scope() : null;
            try {
                opt.zeroGrad();
                Variable loss = Losses.crossEntropy(model.forward(Variable.of(x)), y);
                loss.backward();
                opt.step();
                losses[step] = loss.item();
            } finally {
                if (scope != null) {
                    scope.close();
                }
            }
        }
        out[0] = model;
        return losses;
    }

    @Test
    void scopedStepsGiveTheSameNumbersAndKeepWhatMustLive() {
        for (Function<java.util.List<Parameter>, Optimizer> opt : java.util.List.<Function<java.util.List<Parameter>, Optimizer>>of(
                p -> new Adam(p, 1e-2), p -> new SGD(p, 0.05, 0.9, 0.0, false, 0.0))) {
            Sequential[] plain = new Sequential[1];
            Sequential[] scoped = new Sequential[1];
            double[] a = train(false, opt, plain);
            double[] b = train(true, opt, scoped);
            assertArrayEquals(a, b, 0, "scopes change no number");
            assertEquals(plain[0].stateDict().keySet(), scoped[0].stateDict().keySet());
            plain[0].stateDict().forEach((k, t) -> assertArrayEquals(t.toDoubleArray(), scoped[0].stateDict().get(k).toDoubleArray(), 0, k));
            for (Parameter p : scoped[0].parameters()) {
                assertEquals(p.data().numel(), p.grad().toDoubleArray().length, "gradients outlive the step's scope");
            }
        }
    }
}
