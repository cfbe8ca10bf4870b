package dev.jgrad.tensor;

import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The public report of which kernels run, in each of the build's test executions (vector width, 256 bits, plain). */
class BackendTest {
    @Test
    void reportsTheKernelsThisJvmRuns() {
        if ("false".equals(System.getProperty("jgrad.vector"))) {
            assertEquals("plain Java", Backend.kernels());
            assertEquals(false, Backend.vectorized());
        } else {
            assertEquals("Vector API, " + FloatVector.SPECIES_PREFERRED.vectorBitSize() + "-bit", Backend.kernels());
            assertEquals(true, Backend.vectorized());
        }
    }

    @Test
    @org.junit.jupiter.api.extension.ExtendWith(AllThreads.class)
    void threadsAreAtLeastOne() {
        Backend.setThreads(3);
        assertEquals(3, Backend.threads());
        assertThrows(IllegalArgumentException.class, () -> Backend.setThreads(0));
        assertThrows(IllegalArgumentException.class, () -> Backend.setThreads(100_000), "a mistyped count starts no thousands of threads");
        Backend.setThreads(Backend.maxThreads());
        assertEquals(Backend.maxThreads(), Backend.threads());
    }
}
