package dev.jgrad.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ForkJvmTest {
    @Test
    void theResultsNameTheForksJdkAndKernelsNotTheRunners() {
        String[] fork = ForkJvm.describe(BenchRunner.jvmArgs(1, null));
        // The forks run the runner's own java, whatever the test JVM's kernels are.
        assertEquals(ForkJvm.jdk(), fork[0]);
        assertTrue(fork[1].startsWith("Vector API, ") || fork[1].equals("plain Java"), fork[1]);
        if (fork[1].startsWith("Vector API, ")) {
            // A flag for the forks alone (JGRAD_BENCH_JVM_ARGS) shows in what the results say they ran on.
            String[] narrow = ForkJvm.describe(BenchRunner.jvmArgs(1, "-XX:MaxVectorSize=32"));
            assertEquals("Vector API, 256-bit", narrow[1]);
        }
    }

    @Test
    void aForkJvmThatCannotStartIsUnknownNotAGuess() {
        String[] fork = ForkJvm.describe(new String[] {"-XX:+NoSuchFlagAtAll"});
        assertArrayEquals(new String[] {ForkJvm.UNKNOWN, ForkJvm.UNKNOWN}, fork);
    }
}
