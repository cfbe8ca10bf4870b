package dev.jgrad.tensor.internal.kernels;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.function.IntSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TunerTest {
    /** Hands out the given measurements in order and counts how many were taken. */
    private static final class Measurements implements IntSupplier {
        final Deque<Integer> left;
        int taken;

        Measurements(Integer... values) {
            left = new ArrayDeque<>(Arrays.asList(values));
        }

        @Override
        public int getAsInt() {
            taken++;
            return left.removeFirst();
        }
    }

    @Test
    void aSplitSizeAtOrBelowTheDefaultStandsAfterOneMeasurement() {
        Measurements m = new Measurements(16384, 1 << 22);
        assertEquals(16384, Tuner.confirmed(m, 32768));
        assertEquals(1, m.taken);
        Measurements same = new Measurements(32768);
        assertEquals(32768, Tuner.confirmed(same, 32768));
        assertEquals(1, same.taken);
    }

    @Test
    void aSizeAboveTheDefaultIsMeasuredAgainAndTheSmallestKept() {
        Measurements noisy = new Measurements(262144, 16384, 1 << 22);
        assertEquals(16384, Tuner.confirmed(noisy, 32768));
        assertEquals(2, noisy.taken, "stops once a measurement is at or below the default");
        Measurements high = new Measurements(262144, 131072, 262144, 16384);
        assertEquals(131072, Tuner.confirmed(high, 32768));
        assertEquals(Tuner.SPLIT_MEASUREMENTS, high.taken, "at most three measurements");
    }
}
