package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The generator draws SplittableRandom's stream number for number, and a restored state continues it. */
class GeneratorTest {
    @Test
    void drawsWhatSplittableRandomDrawsFromTheSameSeed() {
        for (long seed : new long[] {0, 1, 42, -7, 123456789}) {
            SplittableRandom r = new SplittableRandom(seed);
            Generator g = new Generator(seed);
            for (int i = 0; i < 50_000; i++) {
                switch (i % 4) {
                    case 0: assertEquals(r.nextDouble(), g.nextDouble(), 0.0, "double " + i); break;
                    case 1: assertEquals(r.nextInt(1_000_003), g.nextInt(1_000_003), "int " + i); break;
                    case 2: assertEquals(r.nextInt(64), g.nextInt(64), "power of two " + i); break;
                    default: assertEquals(r.nextLong(1L << 40 | 5), g.nextLong(1L << 40 | 5), "long " + i);
                }
            }
        }
    }

    @Test
    void aRestoredStateContinuesTheStreamIncludingASpareGaussian() {
        Generator a = new Generator(9);
        for (int i = 0; i < 7; i++) {
            a.nextGaussian();
        }
        String state = a.state();
        Generator b = new Generator(12345);
        b.restore(state);
        for (int i = 0; i < 100; i++) {
            assertEquals(a.nextGaussian(), b.nextGaussian(), 0.0, "gaussian " + i);
            assertEquals(a.nextInt(17), b.nextInt(17));
        }
        assertThrows(IllegalArgumentException.class, () -> b.restore("not a state"));
    }
}
