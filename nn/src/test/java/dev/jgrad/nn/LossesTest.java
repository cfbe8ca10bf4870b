package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.TensorIndexException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LossesTest {
    @Test
    void everyLossRefusesMismatchedShapesNamingBothAndTheFix() {
        Variable pred = Variable.of(Tensor.zeros(6, 1));
        Variable target = Variable.of(Tensor.zeros(6));
        ShapeException e = assertThrows(ShapeException.class, () -> Losses.mseLoss(pred, target));
        assertTrue(e.getMessage().startsWith("mse_loss: input shape [6, 1] and target shape [6] differ"));
        assertTrue(e.getMessage().contains("broadcast them to [6, 6]"));
        assertTrue(e.getMessage().contains("target.unsqueeze(1)"), e.getMessage());
        assertThrows(ShapeException.class, () -> Losses.l1Loss(pred, target));
        assertThrows(ShapeException.class, () -> Losses.bceWithLogits(pred, target));
        ShapeException ce = assertThrows(ShapeException.class,
                () -> Losses.crossEntropy(Variable.of(Tensor.zeros(5, 7)), Tensor.zeros(dev.jgrad.tensor.DType.INT64, 5, 1)));
        assertTrue(ce.getMessage().contains("target.squeeze(1)"), ce.getMessage());
    }

    @Test
    void targetOutOfRangeIsAnIndexErrorNamingTheIndex() {
        TensorIndexException e = assertThrows(TensorIndexException.class,
                () -> Losses.crossEntropy(Variable.of(Tensor.zeros(2, 3)), Tensor.of(new long[] {0, 3}, 2)));
        assertTrue(e.getMessage().startsWith("Target 3 is out of bounds."));
    }

    @Test
    void ignoredTargetsCountForNothing() {
        Variable x = Variable.of(Tensor.of(new float[] {2, 0, 0, 0, 5, 0}, 2, 3), true);
        Variable both = Losses.crossEntropy(x, Tensor.of(new long[] {0, -100}, 2));
        Variable first = Losses.crossEntropy(Variable.of(Tensor.of(new float[] {2, 0, 0}, 1, 3)), Tensor.of(new long[] {0}, 1));
        assertEquals(first.item(), both.item(), 1e-6);
        both.backward();
        assertArrayEquals(new float[] {0, 0, 0}, x.grad().slice(0, 1, 2).reshape(-1).toFloatArray());
    }

    @Test
    void bceWithLogitsIsStableForHugeLogits() {
        Variable x = Variable.of(Tensor.of(200f, -200f, 0f), true);
        Variable y = Variable.of(Tensor.of(0f, 1f, 1f));
        Variable loss = Losses.bceWithLogits(x, y, Reduction.NONE);
        assertArrayEquals(new float[] {200f, 200f, (float) Math.log(2)}, loss.data().toFloatArray(), 1e-4f);
        loss.sum().backward();
        assertArrayEquals(new float[] {1f, -1f, -0.5f}, x.grad().toFloatArray(), 1e-6f);
    }

    @Test
    void reductions() {
        Variable p = Variable.of(Tensor.of(1f, 2f, 4f));
        Variable t = Variable.of(Tensor.of(0f, 0f, 0f));
        assertEquals(7.0, Losses.mseLoss(p, t).item(), 1e-6);
        assertEquals(21.0, Losses.mseLoss(p, t, Reduction.SUM).item(), 1e-6);
        assertArrayEquals(new float[] {1, 2, 4}, Losses.l1Loss(p, t, Reduction.NONE).data().toFloatArray());
        assertThrows(IllegalArgumentException.class, () -> Reduction.parse("avg"));
    }
}
