package dev.jgrad.tensor.internal.kernels;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(HelpersAlwaysRun.class)
class ParallelTest {
    @Test
    void everyIndexRunsExactlyOnceAndNestedCallsRunInline() {
        Parallel.setThreads(2);
        for (int round = 0; round < 50; round++) {
            AtomicIntegerArray seen = new AtomicIntegerArray(1000);
            Parallel.forRange(1000, 10, (lo, hi) -> {
                for (int i = lo; i < hi; i++) {
                    seen.incrementAndGet(i);
                }
                Parallel.forRange(100, 1, (a, b) -> { });
            });
            AtomicIntegerArray ran = new AtomicIntegerArray(37);
            Parallel.forEachTask(37, (lo, hi) -> {
                for (int t = lo; t < hi; t++) {
                    ran.incrementAndGet(t);
                }
            });
            for (int i = 0; i < 1000; i++) {
                assertEquals(1, seen.get(i));
            }
            for (int t = 0; t < 37; t++) {
                assertEquals(1, ran.get(t), "task " + t);
            }
        }
    }

    /**
     * A helper that has not started its part of a static split when the caller has finished its own (here: parked,
     * after an idle spell longer than its spin, so waking it takes microseconds) has that part run by the caller
     * instead of waited for. Whoever runs it, every part runs exactly once. (forEachTask's tasks were taken over
     * before: the caller claims a late helper's unclaimed tasks.)
     */
    @Test
    void theCallerRunsThePartOfAHelperThatHasNotStarted() throws Exception {
        Parallel.setThreads(2);
        Thread caller = Thread.currentThread();
        int callerRanBoth = 0;
        for (int trial = 0; trial < 200 && callerRanBoth == 0; trial++) {
            Thread.sleep(2 * Tuning.SPIN_NANOS / 1_000_000 + 2);
            AtomicIntegerArray runs = new AtomicIntegerArray(2);
            AtomicIntegerArray byCaller = new AtomicIntegerArray(2);
            Parallel.forRange(2, 1, (lo, hi) -> {
                for (int i = lo; i < hi; i++) {
                    runs.incrementAndGet(i);
                    byCaller.set(i, Thread.currentThread() == caller ? 1 : 0);
                }
            });
            assertEquals(1, runs.get(0), "part 0, trial " + trial);
            assertEquals(1, runs.get(1), "part 1, trial " + trial);
            callerRanBoth += byCaller.get(0) + byCaller.get(1) == 2 ? 1 : 0;
        }
        // Waking a parked thread takes microseconds and the caller's part nanoseconds, but the caller's first trials run
        // interpreted and the machine may hold it up: the helper can win many trials in a row (all of 20 once, in a
        // CI run on 2 vCPUs), never all of 200. Without the take-back the caller never runs part 1.
        assertTrue(callerRanBoth > 0, "the caller never ran a parked helper's part");
    }

    @Test
    void eachThreadStartsWithItsOwnShareOfTasksAndTakesOverALateOnesRest() throws Exception {
        Parallel.setThreads(2);
        Thread caller = Thread.currentThread();
        // Task 0 (the caller's) waits until the helper has claimed a task: that first claim must come from the
        // helper's own share, tasks 5..9, not the next in line (1). Task 5 then waits until the caller has
        // finished its share and taken the helper's remaining tasks, so stealing has to work for this to end.
        java.util.concurrent.CountDownLatch helperStarted = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch callerDone = new java.util.concurrent.CountDownLatch(1);
        AtomicInteger helperFirst = new AtomicInteger(-1);
        AtomicIntegerArray byCaller = new AtomicIntegerArray(10);
        Parallel.forEachTask(10, (lo, hi) -> {
            try {
                if (Thread.currentThread() == caller) {
                    byCaller.set(lo, 1);
                    if (lo == 0 && !helperStarted.await(10, java.util.concurrent.TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the helper never claimed a task");
                    }
                    if (lo == 9) {
                        callerDone.countDown();
                    }
                } else {
                    helperFirst.compareAndSet(-1, lo);
                    helperStarted.countDown();
                    if (lo == 5 && !callerDone.await(10, java.util.concurrent.TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the caller never took over the helper's tasks");
                    }
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertEquals(5, helperFirst.get(), "the helper's first task is the first of its share");
        for (int t = 0; t < 10; t++) {
            assertEquals(t == 5 ? 0 : 1, byCaller.get(t), "task " + t + " ran on the caller");
        }
    }

    @Test
    void anExceptionInAHelperReachesTheCaller() {
        Parallel.setThreads(2);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Parallel.forEachTask(8, (lo, hi) -> {
            if (lo == 5) {
                throw new IllegalStateException("task 5 failed");
            }
        }));
        assertEquals("task 5 failed", e.getMessage());
        AtomicInteger after = new AtomicInteger();
        Parallel.forEachTask(4, (lo, hi) -> after.incrementAndGet());
        assertEquals(4, after.get(), "the pool still works after a failure");
    }
}
