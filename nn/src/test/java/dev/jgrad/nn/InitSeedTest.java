package dev.jgrad.nn;

import dev.jgrad.tensor.Generator;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** Init's default generator belongs to the calling thread: seeding in one thread never changes another's weights. */
class InitSeedTest {
    private static float[] build(long seed, CyclicBarrier together) throws Exception {
        Init.manualSeed(seed);
        together.await();
        // Both threads draw at the same time: with one shared generator their draws interleave.
        Sequential m = new Sequential(new Linear(37, 23), new Linear(23, 11), new Linear(11, 5));
        float[] all = new float[(int) m.parameterCount()];
        int at = 0;
        for (Parameter p : m.parameters()) {
            float[] f = p.data().toFloatArray();
            System.arraycopy(f, 0, all, at, f.length);
            at += f.length;
        }
        return all;
    }

    @Test
    void twoThreadsSeedingAtOnceEachGetTheirSeedsWeights() throws Exception {
        float[] alone3 = build(3, new CyclicBarrier(1));
        float[] alone4 = build(4, new CyclicBarrier(1));
        assertFalse(java.util.Arrays.equals(alone3, alone4));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 20; round++) {
                CyclicBarrier together = new CyclicBarrier(2);
                Future<float[]> a = pool.submit(() -> build(3, together));
                Future<float[]> b = pool.submit(() -> build(4, together));
                assertArrayEquals(alone3, a.get(), "round " + round + ": the thread seeded 3");
                assertArrayEquals(alone4, b.get(), "round " + round + ": the thread seeded 4");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aGeneratorPassedInIgnoresTheDefault() {
        Init.manualSeed(1);
        float[] a = new Linear(6, 4, true, new Generator(9)).weight.data().toFloatArray();
        Init.manualSeed(2);
        float[] b = new Linear(6, 4, true, new Generator(9)).weight.data().toFloatArray();
        assertArrayEquals(a, b);
    }
}
