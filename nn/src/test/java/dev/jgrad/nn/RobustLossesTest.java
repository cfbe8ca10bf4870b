package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.ShapeException;
import org.junit.jupiter.api.Test;

import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * smooth_l1_loss, huber_loss and kl_div against PyTorch 2.13 on the same float64 values: each loss (every element where
 * the reduction is none) and the gradient of its sum with respect to the input. The differences cross beta and delta,
 * land on them and are 0.
 */
class RobustLossesTest {
    private static final double[] X = {0.3, -1.2, 2.5, 0.0, 0.9, -0.4};
    private static final double[] Y = {0.1, 0.5, -0.5, 1.0, 0.9, -1.4};

    /** The loss's values and the gradient of their sum with respect to the input. */
    private static double[][] run(Function<Variable[], Variable> loss, double[] x, double[] y) {
        Variable in = Variable.of(Tensor.of(x.clone(), 2, 3), true);
        Variable out = loss.apply(new Variable[] {in, Variable.of(Tensor.of(y.clone(), 2, 3))});
        out.sum().backward();
        return new double[][] {out.data().toDoubleArray(), in.grad().toDoubleArray()};
    }

    private static void assertLoss(double[] values, double[] grad, double[][] got) {
        assertArrayEquals(values, got[0], 1e-15, "values");
        assertArrayEquals(grad, got[1], 1e-15, "gradient");
    }

    @Test
    void smoothL1IsQuadraticInsideBetaAndLinearOutside() {
        double[] grad1 = {0.19999999999999998, -1.0, 1.0, -1.0, 0.0, 0.9999999999999999};
        assertLoss(new double[] {0.019999999999999997, 1.2, 2.5, 0.5, 0.0, 0.4999999999999999}, grad1,
                run(v -> Losses.smoothL1Loss(v[0], v[1], Reduction.NONE, 1.0), X, Y));
        assertLoss(new double[] {0.9566666666666667}, new double[] {0.06666666666666665, -0.16666666666666666, 0.16666666666666666,
            -0.16666666666666666, 0.0, 0.16666666666666666}, run(v -> Losses.smoothL1Loss(v[0], v[1], Reduction.MEAN, 0.5), X, Y));
        assertLoss(new double[] {6.9}, new double[] {1, -1, 1, -1, 0, 1}, run(v -> Losses.smoothL1Loss(v[0], v[1], Reduction.SUM, 0), X, Y));
        assertEquals(Losses.smoothL1Loss(Variable.of(Tensor.of(X.clone(), 2, 3)), Variable.of(Tensor.of(Y.clone(), 2, 3))).item(),
                run(v -> Losses.smoothL1Loss(v[0], v[1], Reduction.MEAN, 1.0), X, Y)[0][0]);
    }

    @Test
    void huberIsSmoothL1TimesDelta() {
        assertLoss(new double[] {0.019999999999999997, 1.2, 2.5, 0.5, 0.0, 0.4999999999999999},
                new double[] {0.19999999999999998, -1.0, 1.0, -1.0, 0.0, 0.9999999999999999},
                run(v -> Losses.huberLoss(v[0], v[1], Reduction.NONE, 1.0), X, Y));
        assertLoss(new double[] {1.0775}, new double[] {0.033333333333333326, -0.2833333333333333, 0.3333333333333333,
            -0.16666666666666666, 0.0, 0.16666666666666663}, run(v -> Losses.huberLoss(v[0], v[1], Reduction.MEAN, 2.0), X, Y));
    }

    /** Log-probabilities of two rows against target probabilities with a zero in them. */
    private static final double[] LOG_P = {-1.4026926145345144, -1.9026926145345144, -0.5026926145345143, -0.7333697948272112,
        -0.7333697948272112, -3.2333697948272113};
    private static final double[] P = {0.2, 0.0, 0.8, 0.5, 0.25, 0.25};

    @Test
    void klDivWeighsEachLogRatioByTheTarget() {
        double[] gradSum = {-0.2, -0.0, -0.8, -0.5, -0.25, -0.25};
        assertLoss(new double[] {-0.04134905957991719, 0.0, 0.22363925057624368, 0.02011130713363296, -0.16323114157316984,
            0.4617688584268302}, gradSum, run(v -> Losses.klDiv(v[0], v[1], Reduction.NONE, false), LOG_P, P));
        assertLoss(new double[] {0.5009392149836198}, gradSum, run(v -> Losses.klDiv(v[0], v[1], Reduction.SUM, false), LOG_P, P));
        assertLoss(new double[] {0.08348986916393664}, new double[] {-0.03333333333333333, -0.0, -0.13333333333333333,
            -0.08333333333333333, -0.041666666666666664, -0.041666666666666664},
                run(v -> Losses.klDiv(v[0], v[1], Reduction.MEAN, false), LOG_P, P));
        assertLoss(new double[] {0.2504696074918099}, new double[] {-0.1, -0.0, -0.4, -0.25, -0.125, -0.125},
                run(v -> Losses.klDiv(v[0], v[1], Reduction.BATCHMEAN, false), LOG_P, P));
    }

    @Test
    void klDivTakesLogProbabilitiesAsTheTargetToo() {
        double[] logQ = {-1.6094379124341003, -2.3025850929940455, -0.35667494393873245, -0.6931471805599453, -1.3862943611198906,
            -1.3862943611198906};
        double[][] got = run(v -> Losses.klDiv(v[0], v[1], Reduction.BATCHMEAN, true), LOG_P, logQ);
        assertEquals(0.16976154298923515, got[0][0], 1e-15);
        assertArrayEquals(new double[] {-0.1, -0.05000000000000001, -0.35, -0.25, -0.125, -0.125}, got[1], 1e-15);
    }

    @Test
    void badSettingsAndShapesAreRefused() {
        Variable a = Variable.of(Tensor.zeros(4, 1));
        Variable b = Variable.of(Tensor.zeros(4));
        assertTrue(assertThrows(ShapeException.class, () -> Losses.huberLoss(a, b)).getMessage().startsWith("huber_loss: input shape [4, 1]"));
        assertTrue(assertThrows(ShapeException.class, () -> Losses.klDiv(a, b, Reduction.BATCHMEAN, false)).getMessage()
                .startsWith("kl_div: input shape [4, 1]"));
        assertThrows(IllegalArgumentException.class, () -> Losses.smoothL1Loss(a, a, Reduction.MEAN, -1));
        assertThrows(IllegalArgumentException.class, () -> Losses.huberLoss(a, a, Reduction.MEAN, 0));
        assertEquals("reduction batchmean is kl_div's alone; this loss takes mean, sum or none",
                assertThrows(IllegalArgumentException.class, () -> Losses.mseLoss(a, a, Reduction.BATCHMEAN)).getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Losses.crossEntropy(Variable.of(Tensor.zeros(2, 3)), Tensor.zeros(dev.jgrad.tensor.DType.INT64, 2), Reduction.BATCHMEAN, -100, 0));
        assertEquals(Reduction.BATCHMEAN, Reduction.parse("batchmean"));
    }
}
