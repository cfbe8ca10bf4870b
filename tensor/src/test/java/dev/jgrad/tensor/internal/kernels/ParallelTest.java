package dev.jgrad.tensor.internal.kernels;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@ExtendWith(HelpersAlwaysRun.class)
class ParallelTest {
    @Test
    void everyIndexRunsExactlyOnceAndNestedCallsRunInline() {
        int before = Parallel.threads();
        try {
            Parallel.setThreads(2);
            for (int round = 0; round < 50; round++) {
                AtomicIntegerArray seen = new AtomicIntegerArray(1000);
                Parallel.forRange(1000, 10, (lo, hi) -> {
                    for (int i = lo; i < hi; i++) {
                        seen.incrementAndGet(i);
                    }
                    Parallel.forRange(100, 1, (a, b) -> { });
                });
                AtomicInteger tasks = new AtomicInteger();
                Parallel.forEachTask(37, (lo, hi) -> tasks.addAndGet(hi - lo));
                for (int i = 0; i < 1000; i++) {
                    assertEquals(1, seen.get(i));
                }
                assertEquals(37, tasks.get());
            }
        } finally {
            Parallel.setThreads(before);
        }
    }

    @Test
    void anExceptionInAHelperReachesTheCaller() {
        int before = Parallel.threads();
        try {
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
        } finally {
            Parallel.setThreads(before);
        }
    }
}
