package dev.jgrad.nn;

import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.nn.optim.ReduceLrOnPlateau;
import dev.jgrad.nn.optim.SGD;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** ReduceLROnPlateau against PyTorch 2.13: the rate after each of fifteen losses (a NaN among them), at lr 1. */
class ReduceLrOnPlateauTest {
    private static final double[] LOSSES = {1.0, 0.9, 0.95, 0.93, 0.9, 0.89999, 0.91, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, Double.NaN, 0.49};

    private static Optimizer sgd() {
        return new SGD(List.of(new Parameter(Tensor.zeros(1))), 1.0);
    }

    private static double[] rates(Function<Optimizer, ReduceLrOnPlateau> make) {
        Optimizer opt = sgd();
        ReduceLrOnPlateau s = make.apply(opt);
        double[] out = new double[LOSSES.length];
        for (int i = 0; i < LOSSES.length; i++) {
            s.step(LOSSES[i]);
            out[i] = opt.lr();
        }
        return out;
    }

    @Test
    void patienceFactorCooldownMinimumAndThresholdAsPyTorch() {
        // PyTorch's rates to the bit: each cut multiplies the rate before it
        assertArrayEquals(new double[] {1, 1, 1, 1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.010000000000000002, 0.010000000000000002,
            0.010000000000000002, 0.0010000000000000002, 0.0010000000000000002}, rates(o -> new ReduceLrOnPlateau(o, 0.1, 2, 1e-4, 0, 0)), 0);
        assertArrayEquals(new double[] {1, 1, 1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3},
                rates(o -> new ReduceLrOnPlateau(o, 0.5, 1, 1e-4, 2, 0.3)), 0);
        // each loss must beat the best by 20%; a cut smaller than PyTorch's eps (1e-8) is not made
        double e8 = 1.0000000000000005e-08;
        assertArrayEquals(new double[] {1, 0.1, 0.010000000000000002, 0.0010000000000000002, 0.00010000000000000003,
            1.0000000000000004e-05, 1.0000000000000004e-06, 1.0000000000000004e-06, 1.0000000000000005e-07, e8, e8, e8, e8, e8, e8},
                rates(o -> new ReduceLrOnPlateau(o, 0.1, 0, 0.2, 0, 0)), 0);
    }

    /** A resumed run's schedule: the losses so far replayed from the first rate, whatever rate the optimizer has now. */
    @Test
    void replayingTheLossesEndsWhereSteppingThemDid() {
        Optimizer stepped = sgd();
        ReduceLrOnPlateau a = new ReduceLrOnPlateau(stepped, 0.5, 1, 1e-4, 2, 0.3);
        for (double l : LOSSES) {
            a.step(l);
        }
        Optimizer resumed = sgd();
        ReduceLrOnPlateau b = new ReduceLrOnPlateau(resumed, 0.5, 1, 1e-4, 2, 0.3);
        resumed.setLr(0.123);
        b.replay(LOSSES);
        assertEquals(stepped.lr(), resumed.lr());
        assertEquals(a.best(), b.best());
        assertEquals(15, b.evaluations());
        a.step(0.48);
        b.step(0.48);
        assertEquals(stepped.lr(), resumed.lr());
    }

    @Test
    void badSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ReduceLrOnPlateau(sgd(), 1.0, 2, 1e-4, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new ReduceLrOnPlateau(sgd(), 0.1, -1, 1e-4, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new ReduceLrOnPlateau(sgd(), 0.1, 2, Double.NaN, 0, 0));
    }
}
