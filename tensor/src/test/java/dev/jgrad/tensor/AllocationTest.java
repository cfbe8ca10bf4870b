package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A broadcast operand is read through stride-0 views, never copied: the bytes allocated by W2's ops
 * (counted by the JVM for every thread, helpers included) are the result's array and a little more.
 */
class AllocationTest {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    /** Tensor and storage objects, shape and stride arrays, the iteration's offsets: far below a copy. */
    private static final long BOOKKEEPING = 8 * 1024;

    private static long allocatedByAllThreads() {
        long total = 0;
        for (long b : THREADS.getThreadAllocatedBytes(THREADS.getAllThreadIds())) {
            total += Math.max(b, 0);
        }
        return total;
    }

    /**
     * The fewest bytes one call allocated in several: until the JIT compiles a Vector API loop, the
     * interpreter boxes every vector, and the count would measure the JIT, not the op.
     */
    private static long bytesAllocatedBy(int calls, Runnable op) {
        long fewest = Long.MAX_VALUE;
        for (int i = 0; i < calls; i++) {
            long before = allocatedByAllThreads();
            op.run();
            fewest = Math.min(fewest, allocatedByAllThreads() - before);
        }
        return fewest;
    }

    @Test
    void broadcastOpsAllocateOnlyTheirResult() {
        assertTrue(THREADS.isThreadAllocatedMemorySupported() && THREADS.isThreadAllocatedMemoryEnabled());
        Generator g = new Generator(4);
        Tensor p = Tensor.randn(g, 256, 1, 64);
        Tensor q = Tensor.randn(g, 1, 256, 64);
        Tensor x = Tensor.randn(g, 1024, 1024);
        Tensor v = Tensor.randn(g, 1024);
        int before = Parallel.threads();
        try {
            for (int threads : new int[] {1, 2}) {
                Parallel.setThreads(threads);
                long outer = bytesAllocatedBy(40, () -> p.sub(q));
                long result = 4L * 256 * 256 * 64;
                assertTrue(outer >= result && outer < result + BOOKKEEPING,
                        "(256,1,64) - (1,256,64) with " + threads + " thread(s) allocated " + outer + " bytes; its result is " + result);
                long add = bytesAllocatedBy(40, () -> x.add(v));
                long addResult = 4L * 1024 * 1024;
                assertTrue(add >= addResult && add < addResult + BOOKKEEPING,
                        "(1024,1024) + (1024,) with " + threads + " thread(s) allocated " + add + " bytes; its result is " + addResult);
            }
        } finally {
            Parallel.setThreads(before);
        }
    }

    @Test
    void aMatrixProductAllocatesOnlyItsResult() {
        // Packing buffers are kept per thread, and the micro-kernel's accumulators must stay in registers:
        // boxed, they cost kilobytes per tile.
        Generator g = new Generator(5);
        Tensor a = Tensor.randn(g, 192, 160);
        Tensor b = Tensor.randn(g, 160, 224);
        Tensor small = Tensor.randn(g, 30, 20);
        Tensor smallB = Tensor.randn(g, 20, 40);
        long big = bytesAllocatedBy(100, () -> a.matmul(b));
        long result = 4L * 192 * 224;
        assertTrue(big >= result && big < result + BOOKKEEPING, "(192,160) @ (160,224) allocated " + big + " bytes; its result is " + result);
        long direct = bytesAllocatedBy(2000, () -> small.matmul(smallB));
        long smallResult = 4L * 30 * 40;
        assertTrue(direct >= smallResult && direct < smallResult + BOOKKEEPING,
                "(30,20) @ (20,40) allocated " + direct + " bytes; its result is " + smallResult);
    }
}
