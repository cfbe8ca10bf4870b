package dev.jgrad.tensor.internal.kernels;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompilerLoadTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final AtomicLong compiledMillis = new AtomicLong();
    private final CompilerLoad load = new CompilerLoad(compiledMillis::get, now::get);

    /** Advances the clock by one sampling interval in which the compilers ran {@code millis} ms. */
    private boolean after(long millis) {
        now.addAndGet(CompilerLoad.INTERVAL_NANOS);
        compiledMillis.addAndGet(millis);
        return load.busy();
    }

    @Test
    void busyWhileTheCompilersTakeMoreThanAQuarterOfTheTimeTwiceInARow() {
        assertTrue(load.busy(), "a run starts compiling");
        assertTrue(after(40));
        assertTrue(after(13));
        assertFalse(after(12), "12 ms of 50 is under a quarter");
        assertFalse(after(0));
        assertFalse(after(140), "one compile that ended (counted when it ends) leaves every thread to the jobs");
        assertFalse(after(0));
        assertFalse(after(50));
        assertTrue(after(50), "a burst of compiles (new shapes at the first evaluation) makes them busy again");
        assertTrue(after(30));
        assertFalse(after(1));
    }

    @Test
    void sampledOncePerIntervalNotOnEveryCall() {
        assertFalse(after(0));
        assertFalse(after(1000));
        compiledMillis.addAndGet(1000);
        now.addAndGet(CompilerLoad.INTERVAL_NANOS / 2);
        assertFalse(load.busy(), "within the interval the last sample stands");
        now.addAndGet(CompilerLoad.INTERVAL_NANOS / 2);
        assertTrue(load.busy());
    }

    @Test
    void onlyWhereNoProcessorIsSpareDoJobsLeaveOneToTheCompilers() {
        CompilerLoad busy = new CompilerLoad(compiledMillis::get, now::get);
        assertTrue(busy.busy());
        assertEquals(1, Parallel.usable(2, 2, busy, HelperLag.never()), "2 threads on 2 processors: one while compiling");
        assertEquals(3, Parallel.usable(4, 4, busy, HelperLag.never()));
        assertEquals(2, Parallel.usable(2, 4, busy, HelperLag.never()), "a spare processor is the compilers' already");
        assertEquals(1, Parallel.usable(1, 1, busy, HelperLag.never()));
        CompilerLoad unknown = new CompilerLoad(null, now::get);
        assertFalse(unknown.busy(), "a JVM that does not report compile time is never taken to be busy");
        assertEquals(2, Parallel.usable(2, 2, unknown, HelperLag.never()));
        assertFalse(after(0));
        assertEquals(2, Parallel.usable(2, 2, load, HelperLag.never()), "idle compilers: every thread");
    }
}
