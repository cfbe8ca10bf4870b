package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A broadcast operand is read through stride-0 views, never copied: the bytes allocated by W2's ops
 * (counted by the JVM for every thread, helpers included) are the result's array and a little more.
 * The kernels keep their vectors in registers only when C2 compiles them whole, which on JDK 17 takes
 * the trap limit the build and the launcher set (docs/performance.md, "JVM flags"); without it, runs where C2 gave up
 * on a kernel fail here with boxed vectors, and the messages name the limit in force.
 */
class AllocationTest {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    /** Tensor and storage objects, shape and stride arrays, the iteration's offsets: far below a copy. */
    private static final long BOOKKEEPING = 8 * 1024;

    /** The JVM's JIT flags, named in failure messages: without the build's, boxing is the JIT's doing. */
    private static final String JIT_FLAGS = "; -XX:PerMethodTrapLimit=" + vmOption("PerMethodTrapLimit")
            + ", -XX:Tier3DelayOn=" + vmOption("Tier3DelayOn");

    private static String vmOption(String name) {
        return ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class).getVMOption(name).getValue();
    }

    private static long allocatedByAllThreads() {
        long total = 0;
        for (long b : THREADS.getThreadAllocatedBytes(THREADS.getAllThreadIds())) {
            total += Math.max(b, 0);
        }
        return total;
    }

    /**
     * The fewest bytes one call allocated, calling until a call stays within {@code result} plus
     * {@link #BOOKKEEPING} or ten seconds pass. Until the JIT compiles a Vector API loop (later when it
     * sends compiled code back to the interpreter), the interpreter boxes every vector, so single calls
     * measure the JIT; an op that allocates more than its result on every call fails all the same.
     */
    private static long bytesAllocatedBy(long result, Runnable op) {
        long fewest = Long.MAX_VALUE;
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (fewest >= result + BOOKKEEPING && System.nanoTime() < deadline) {
            long before = allocatedByAllThreads();
            op.run();
            fewest = Math.min(fewest, allocatedByAllThreads() - before);
        }
        return fewest;
    }

    @Test
    @org.junit.jupiter.api.extension.ExtendWith(AllThreads.class)
    void broadcastOpsAllocateOnlyTheirResult() {
        assertTrue(THREADS.isThreadAllocatedMemorySupported() && THREADS.isThreadAllocatedMemoryEnabled());
        Generator g = new Generator(4);
        Tensor p = Tensor.randn(g, 256, 1, 64);
        Tensor q = Tensor.randn(g, 1, 256, 64);
        Tensor x = Tensor.randn(g, 1024, 1024);
        Tensor v = Tensor.randn(g, 1024);
        for (int threads : new int[] {1, 2}) {
            Backend.setThreads(threads);
            long result = 4L * 256 * 256 * 64;
            long outer = bytesAllocatedBy(result, () -> p.sub(q));
            assertTrue(outer >= result && outer < result + BOOKKEEPING,
                    "(256,1,64) - (1,256,64) with " + threads + " thread(s) allocated " + outer + " bytes; its result is " + result + JIT_FLAGS);
            long addResult = 4L * 1024 * 1024;
            long add = bytesAllocatedBy(addResult, () -> x.add(v));
            assertTrue(add >= addResult && add < addResult + BOOKKEEPING,
                    "(1024,1024) + (1024,) with " + threads + " thread(s) allocated " + add + " bytes; its result is " + addResult + JIT_FLAGS);
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
        long result = 4L * 192 * 224;
        long big = bytesAllocatedBy(result, () -> a.matmul(b));
        assertTrue(big >= result && big < result + BOOKKEEPING, "(192,160) @ (160,224) allocated " + big + " bytes; its result is " + result + JIT_FLAGS);
        long smallResult = 4L * 30 * 40;
        long direct = bytesAllocatedBy(smallResult, () -> small.matmul(smallB));
        assertTrue(direct >= smallResult && direct < smallResult + BOOKKEEPING,
                "(30,20) @ (20,40) allocated " + direct + " bytes; its result is " + smallResult + JIT_FLAGS);
        // Fewer columns than a tile and a long k, B's columns contiguous: the dots kernel (a first convolution's weight
        // gradient), thirty 3 x 3 blocks a call, whose lane sums boxed its accumulators when written with vector ops.
        Tensor rows = Tensor.randn(g, 30, 2000);
        Tensor columns = Tensor.randn(g, 9, 2000).t();
        long dotsResult = 4L * 30 * 9;
        long dots = bytesAllocatedBy(dotsResult, () -> rows.matmul(columns));
        assertTrue(dots >= dotsResult && dots < dotsResult + BOOKKEEPING,
                "(30,2000) @ (2000,9) allocated " + dots + " bytes; its result is " + dotsResult + JIT_FLAGS);
    }

    @Test
    @org.junit.jupiter.api.extension.ExtendWith(AllThreads.class)
    void rowReductionsAllocateOnlyTheirResult() {
        Generator g = new Generator(6);
        Tensor x = Tensor.randn(g, 700, 300);
        long sumResult = 4L * 700;
        long sum = bytesAllocatedBy(sumResult, () -> x.sum(1, true));
        assertTrue(sum >= sumResult && sum < sumResult + BOOKKEEPING, "sum over dim 1 of (700,300) allocated " + sum + " bytes; its result is " + sumResult + JIT_FLAGS);
        long softmaxResult = 4L * 700 * 300;
        long softmax = bytesAllocatedBy(softmaxResult, () -> x.softmax(-1));
        assertTrue(softmax >= softmaxResult && softmax < softmaxResult + BOOKKEEPING,
                "softmax over the rows of (700,300) allocated " + softmax + " bytes; its result is " + softmaxResult + JIT_FLAGS);
        // Its backward at one thread: C2 compiled the kernel of each row's sum of g y with its vector ops as calls in some
        // JVMs (4 of 8 JMH forks) without the build's -XX:Tier3DelayOn (docs/performance.md, "JVM flags").
        Tensor y = x.softmax(-1);
        Tensor grad = Tensor.randn(g, 700, 300);
        Backend.setThreads(1);
        long backward = bytesAllocatedBy(softmaxResult, () -> Tensor.softmaxBackward(grad, y, -1));
        assertTrue(backward >= softmaxResult && backward < softmaxResult + BOOKKEEPING,
                "softmax's backward over the rows of (700,300) at one thread allocated " + backward + " bytes; its result is "
                        + softmaxResult + JIT_FLAGS);
    }
}
