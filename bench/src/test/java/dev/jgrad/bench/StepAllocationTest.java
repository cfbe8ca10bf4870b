package dev.jgrad.bench;

import dev.jgrad.tensor.Backend;
import dev.jgrad.tensor.Memory;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A compiled training step inside a memory scope allocates only its small objects: the arrays are the scope's. A
 * Vector API operation that C2 leaves uncompiled (past its inlining depth, say, once a kernel sits a call deeper) runs
 * as Java and allocates arrays for every vector, several times the step's own objects. This test catches that (run it
 * with -XX:MaxInlineLevel=14 to see it fail); the time is the benchmarks' to measure.
 */
class StepAllocationTest {
    @Test
    void aScopedMlpTrainingStepAllocatesOnlyItsSmallObjects() {
        // One thread, as W5 runs at its best; long enough a warm-up for C2 to compile the step's kernels.
        int threads = Backend.threads();
        Backend.setThreads(1);
        try {
            assertStepAllocatesLittle();
        } finally {
            Backend.setThreads(threads);
        }
    }

    private static void assertStepAllocatesLittle() {
        Workloads.MlpStep w = new Workloads.MlpStep(3);
        for (int i = 0; i < 12000; i++) {
            try (Memory.Scope s = Memory.scope()) {
                w.step();
            }
        }
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        long before = mx.getThreadAllocatedBytes(thread);
        int steps = 300;
        for (int i = 0; i < steps; i++) {
            try (Memory.Scope s = Memory.scope()) {
                w.step();
            }
        }
        long perStep = (mx.getThreadAllocatedBytes(thread) - before) / steps;
        assertTrue(perStep < 96 * 1024, "a scoped W5 step allocated " + perStep + " bytes (its tensors' objects are about 31 KB; "
                + "more means vector operations ran uncompiled; JVM flags: " + ManagementFactory.getRuntimeMXBean().getInputArguments() + ")");
    }
}
