package dev.jgrad.nn;

import dev.jgrad.autograd.GradCheck;
import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Batch and group norm: gradients, running statistics, train and eval, PyTorch's names. */
class NormalizationTest {
    @Test
    void batchNormAndGroupNormGradientsMatchCentralDifferences() {
        Generator gen = new Generator(8);
        Tensor x = Tensor.randn(gen, 3, 4, 2, 5);
        Tensor w = Tensor.randn(gen, 4);
        Tensor b = Tensor.randn(gen, 4);
        GradCheck.Result bn = GradCheck.check(v -> Normalization.batchNorm(v[0], null, null, v[1], v[2], true, 0.1, 1e-5), x, w, b);
        assertTrue(bn.passed(), bn.toString());
        GradCheck.Result gn = GradCheck.check(v -> Normalization.groupNorm(v[0], 2, v[1], v[2], 1e-5), x, w, b);
        assertTrue(gn.passed(), gn.toString());
    }

    @Test
    void trainingNormalisesByTheBatchAndMovesTheRunningStatistics() {
        Generator gen = new Generator(9);
        BatchNorm2d bn = new BatchNorm2d(3);
        Tensor x = Tensor.randn(gen, 4, 3, 2, 5).mul(3).add(2);
        Tensor y = bn.forward(Variable.of(x)).data();
        Tensor mean = y.mean(new int[] {0, 2, 3}, false);
        Tensor var = y.var(new int[] {0, 2, 3}, 0, false);
        assertArrayEquals(new double[3], mean.toDoubleArray(), 1e-5);
        assertArrayEquals(new double[] {1, 1, 1}, var.toDoubleArray(), 1e-3);
        Tensor batchMean = x.mean(new int[] {0, 2, 3}, false);
        Tensor unbiased = x.var(new int[] {0, 2, 3}, 1, false);
        assertArrayEquals(batchMean.mul(0.1).toDoubleArray(), bn.runningMean().toDoubleArray(), 1e-5);
        assertArrayEquals(unbiased.mul(0.1).add(0.9).toDoubleArray(), bn.runningVar().toDoubleArray(), 1e-5);
        assertEquals(1L, (long) bn.stateDict().get("num_batches_tracked").item());
        assertEquals(DType.INT64, bn.stateDict().get("num_batches_tracked").dtype());
    }

    @Test
    void evalUsesTheRunningStatisticsAndLeavesThemAlone() {
        BatchNorm1d bn = new BatchNorm1d(2);
        bn.runningMean().copyFrom(Tensor.of(new float[] {1, -2}));
        bn.runningVar().copyFrom(Tensor.of(new float[] {4, 0.25f}));
        bn.eval();
        Tensor y = bn.forward(Variable.of(Tensor.of(new float[] {3, -1, 5, -2}, 2, 2))).data();
        assertArrayEquals(new double[] {1, 2, 2, 0}, y.toDoubleArray(), 1e-4);
        assertArrayEquals(new double[] {1, -2}, bn.runningMean().toDoubleArray(), 0);
        assertEquals(0L, (long) bn.stateDict().get("num_batches_tracked").item());
    }

    @Test
    void aNullMomentumIsTheCumulativeAverage() {
        BatchNorm1d bn = new BatchNorm1d(1, 1e-5, null, false, true);
        bn.forward(Variable.of(Tensor.of(new float[] {1, 3}, 2, 1)));
        bn.forward(Variable.of(Tensor.of(new float[] {5, 7}, 2, 1)));
        assertArrayEquals(new double[] {4}, bn.runningMean().toDoubleArray(), 1e-6);
    }

    @Test
    void stateDictHasPyTorchsNamesInPyTorchsOrder() {
        Sequential net = new Sequential(new Conv2d(1, 2, 3), new BatchNorm2d(2), new ReLU());
        assertEquals(List.of("0.weight", "0.bias", "1.weight", "1.bias", "1.running_mean", "1.running_var",
                "1.num_batches_tracked"), List.copyOf(net.stateDict().keySet()));
        assertEquals(4, net.parameters().size());
    }

    @Test
    void trainAndEvalReachEveryLayer() {
        BatchNorm2d bn = new BatchNorm2d(2);
        Dropout drop = new Dropout(0.5);
        Sequential net = new Sequential(new Sequential(bn), drop);
        net.eval();
        assertTrue(!bn.isTraining() && !drop.isTraining());
        net.train();
        assertTrue(bn.isTraining() && drop.isTraining());
    }

    @Test
    void badInputIsRefusedByName() {
        ShapeException one = assertThrows(ShapeException.class,
                () -> new BatchNorm1d(3).forward(Variable.of(Tensor.zeros(1, 3))));
        assertTrue(one.getMessage().contains("Expected more than 1 value per channel when training"), one.getMessage());
        ShapeException rank = assertThrows(ShapeException.class, () -> new BatchNorm2d(3).forward(Variable.of(Tensor.zeros(2, 3, 4))));
        assertTrue(rank.getMessage().contains("expected 4D input"), rank.getMessage());
        ShapeException channels = assertThrows(ShapeException.class, () -> new BatchNorm2d(3).forward(Variable.of(Tensor.zeros(2, 4, 2, 2))));
        assertTrue(channels.getMessage().contains("expected 3 channels"), channels.getMessage());
        ShapeException groups = assertThrows(ShapeException.class,
                () -> Normalization.groupNorm(Variable.of(Tensor.zeros(2, 6, 3)), 4, null, null, 1e-5));
        assertTrue(groups.getMessage().contains("divisible by num_groups"), groups.getMessage());
    }
}
