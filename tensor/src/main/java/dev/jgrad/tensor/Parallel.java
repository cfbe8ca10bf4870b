package dev.jgrad.tensor;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/**
 * The threads jgrad's kernels may use: one shared fork-join pool, sized by {@link #setThreads} (the
 * {@code --threads} flag of the command line; default: the available processors, or the system property
 * {@code jgrad.threads}). Work is split into disjoint ranges, so results do not depend on the thread count.
 */
public final class Parallel {
    /** A body over the index range [lo, hi). */
    @FunctionalInterface
    public interface RangeBody {
        void run(int lo, int hi);
    }

    private static volatile ForkJoinPool pool;
    private static volatile int threads = Integer.getInteger("jgrad.threads", Runtime.getRuntime().availableProcessors());

    private Parallel() {
    }

    /** Sets how many threads kernels use (1 runs everything on the calling thread). */
    public static synchronized void setThreads(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + n);
        }
        if (n != threads) {
            threads = n;
            ForkJoinPool old = pool;
            pool = null;
            if (old != null) {
                old.shutdown();
            }
        }
    }

    public static int threads() {
        return threads;
    }

    private static ForkJoinPool pool() {
        ForkJoinPool p = pool;
        if (p == null) {
            synchronized (Parallel.class) {
                if (pool == null) {
                    pool = new ForkJoinPool(threads);
                }
                p = pool;
            }
        }
        return p;
    }

    /**
     * Runs {@code body} over [0, n) split into about {@link #threads()} ranges of at least {@code grain}
     * indices each; on the calling thread when one range is enough.
     */
    public static void forRange(int n, int grain, RangeBody body) {
        int t = threads;
        int parts = Math.min(t, Math.max(1, n / Math.max(1, grain)));
        if (parts <= 1 || java.util.concurrent.ForkJoinTask.inForkJoinPool() && java.util.concurrent.ForkJoinTask.getPool() == pool) {
            body.run(0, n);
            return;
        }
        pool().invoke(new RecursiveAction() {
            private static final long serialVersionUID = 1L;

            @Override
            protected void compute() {
                RecursiveAction[] tasks = new RecursiveAction[parts];
                for (int i = 0; i < parts; i++) {
                    int lo = (int) ((long) n * i / parts);
                    int hi = (int) ((long) n * (i + 1) / parts);
                    tasks[i] = new RecursiveAction() {
                        private static final long serialVersionUID = 1L;

                        @Override
                        protected void compute() {
                            body.run(lo, hi);
                        }
                    };
                }
                invokeAll(tasks);
            }
        });
    }
}
