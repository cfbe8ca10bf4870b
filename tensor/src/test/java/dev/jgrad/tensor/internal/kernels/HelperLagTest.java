package dev.jgrad.tensor.internal.kernels;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HelperLagTest {
    private final AtomicLong now = new AtomicLong(5_000_000_000L);
    private final HelperLag lag = new HelperLag(now::get);

    /** Records one window of jobs, 1 ms each, whose calling thread waited {@code share} of each. */
    private void window(double share) {
        long job = 1_000_000L;
        for (long t = 0; t < HelperLag.WINDOW_NANOS; t += job) {
            now.addAndGet(job);
            lag.record(job, (long) (share * job));
        }
    }

    @Test
    void laggingAfterTwoWindowsOfLongWaitsThenAllThreadsAgain() {
        window(0.10);
        assertFalse(lag.lagging(), "waits of a tenth: the helpers do their part");
        window(0.45);
        window(0.45);
        assertFalse(lag.lagging(), "under half: two threads still beat one");
        window(0.70);
        assertFalse(lag.lagging(), "one window past half is a compile or a collection taking a processor for a moment");
        window(0.20);
        window(0.70);
        assertFalse(lag.lagging(), "windows past half must follow each other");
        window(0.60);
        assertTrue(lag.lagging(), "two windows in a row past half: a helper without its processor");
        now.addAndGet(HelperLag.BACKOFF_NANOS - 1);
        assertTrue(lag.lagging());
        now.addAndGet(1);
        assertFalse(lag.lagging(), "after the back-off every thread is tried again");
        window(0.60);
        assertFalse(lag.lagging(), "and judged afresh: the windows before the back-off do not count");
        window(0.05);
        window(0.60);
        assertFalse(lag.lagging(), "the other process has gone");
    }

    @Test
    void aWindowIsJudgedWholeNotJobByJob() {
        long job = 1_000_000L;
        lag.record(job, job);
        assertFalse(lag.lagging(), "one late helper is not a window");
        // The rest of the window without waits: 1 ms of 100 waited.
        for (long t = job; t < HelperLag.WINDOW_NANOS; t += job) {
            lag.record(job, 0);
        }
        assertFalse(lag.lagging());
    }

    @Test
    void fewerThreadsOnlyWhileLaggingAndNeverWhenPinned() {
        CompilerLoad idle = new CompilerLoad(null, now::get);
        assertEquals(2, Parallel.usable(2, 2, idle, lag));
        window(0.6);
        window(0.6);
        assertEquals(1, Parallel.usable(2, 2, idle, lag), "2 threads on 2 processors: one while a helper lags");
        assertEquals(4, Parallel.usable(8, 8, idle, lag));
        assertEquals(1, Parallel.usable(1, 2, idle, lag));
        HelperLag never = HelperLag.never();
        for (int i = 0; i < 200; i++) {
            never.record(1_000_000L, 1_000_000L);
        }
        assertFalse(never.lagging());
        assertEquals(2, Parallel.usable(2, 2, idle, never));
    }
}
