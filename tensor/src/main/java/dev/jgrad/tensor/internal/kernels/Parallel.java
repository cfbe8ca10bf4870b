package dev.jgrad.tensor.internal.kernels;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The threads jgrad's kernels may use, sized by {@link #setThreads} (the {@code --threads} flag; default:
 * the available processors, or the system property {@code jgrad.threads}). Work is split into disjoint
 * ranges, so results do not depend on the thread count.
 *
 * <p>Small models run many short kernels back to back, where waking a parked thread (tens of
 * microseconds on a virtual machine) costs more than the kernel. So the helper threads spin for a
 * while after each job before they park, the calling thread does a share of every job itself and then
 * the shares of helpers that have not started theirs, and a
 * job is only split when it is large enough to pay (the callers decide, with {@code grain}). Jobs use fewer
 * threads while the JIT compilers need a processor ({@link CompilerLoad}) or another process holds one
 * ({@link HelperLag}).
 */
public final class Parallel {
    /** A body over the index range [lo, hi). */
    @FunctionalInterface
    public interface RangeBody {
        void run(int lo, int hi);
    }


    private static volatile int threads = Math.max(1, Integer.getInteger("jgrad.threads", Runtime.getRuntime().availableProcessors()));
    private static volatile Helper[] helpers = new Helper[0];
    private static final ReentrantLock BUSY = new ReentrantLock();

    private Parallel() {
    }

    /**
     * The most threads the kernels may use: four per available processor (at least 8). More only wait on each other,
     * and a mistyped count would start thousands of threads.
     */
    public static int maxThreads() {
        return Math.max(8, 4 * Runtime.getRuntime().availableProcessors());
    }

    /** Sets how many threads kernels use (1 runs everything on the calling thread). */
    public static synchronized void setThreads(int n) {
        if (n < 1 || n > maxThreads()) {
            throw new IllegalArgumentException("threads must be from 1 to " + maxThreads() + " (4 per available processor), got " + n);
        }
        threads = n;
    }

    public static int threads() {
        return threads;
    }

    private static final int PROCESSORS = Runtime.getRuntime().availableProcessors();

    /**
     * The threads a job may use now: one processor fewer while the JIT compilers are busy and no processor is spare,
     * and half while the helpers lag behind for want of a processor.
     */
    private static int usable() {
        return usable(threads, PROCESSORS, compilers, lag);
    }

    /** The compilers' load that {@link #usable()} heeds (tests pin it to never busy, to exercise the helpers). */
    static volatile CompilerLoad compilers = CompilerLoad.JIT;
    /** The helpers' lag that {@link #usable()} heeds (tests pin it to never lagging, to exercise the helpers). */
    static volatile HelperLag lag = new HelperLag(System::nanoTime);

    static int usable(int threads, int processors, CompilerLoad compilers, HelperLag lag) {
        int usable = threads >= processors && threads > 1 && compilers.busy() ? Math.max(1, processors - 1) : threads;
        return usable > 1 && lag.lagging() ? Math.max(1, usable / 2) : usable;
    }

    /**
     * Runs {@code body} over [0, n) split into at most {@link #threads()} equal ranges of at least
     * {@code grain} indices; on the calling thread alone when one range is enough.
     */
    public static void forRange(int n, int grain, RangeBody body) {
        int parts = Math.min(usable(), Math.max(1, n / Math.max(1, grain)));
        if (parts <= 1 || BUSY.isHeldByCurrentThread() || !BUSY.tryLock()) {
            body.run(0, n);
            return;
        }
        try {
            run(new Job(parts, n, body, false));
        } finally {
            BUSY.unlock();
        }
    }

    /**
     * Runs tasks 0..n-1: each thread claims the tasks of its own share (the range {@link #forRange} would give it) in
     * order, then those left in the others' shares, so unequal tasks balance out. Shares rather than one queue keep
     * neighbouring tasks on one thread, as forRange keeps neighbouring indices: a product's rows are then made by the
     * thread whose next op reads them, from its own core's cache, instead of every other block crossing cores.
     */
    public static void forEachTask(int n, RangeBody body) {
        int parts = Math.min(usable(), n);
        if (parts <= 1 || BUSY.isHeldByCurrentThread() || !BUSY.tryLock()) {
            body.run(0, n);
            return;
        }
        try {
            run(new Job(parts, n, body, true));
        } finally {
            BUSY.unlock();
        }
    }

    /**
     * {@link #forRange forRange(n, 1, body)} for a job of {@code flops} floating-point operations in all: on the calling
     * thread alone when they are fewer than {@link Tuning#PARALLEL_FLOPS}, too few to pay for handing out parts.
     */
    public static void forRangeCosting(long flops, int n, RangeBody body) {
        if (flops < Tuning.PARALLEL_FLOPS) {
            body.run(0, n);
        } else {
            forRange(n, 1, body);
        }
    }

    /** {@link #forEachTask} for a job of {@code flops} floating-point operations in all, as {@link #forRangeCosting}. */
    public static void forEachTaskCosting(long flops, int n, RangeBody body) {
        if (flops < Tuning.PARALLEL_FLOPS) {
            body.run(0, n);
        } else {
            forEachTask(n, body);
        }
    }

    private static void run(Job job) {
        long start = System.nanoTime();
        Helper[] hs = helpers(job.parts - 1);
        for (int i = 1; i < job.parts; i++) {
            hs[i - 1].assign(job, i);
        }
        Throwable mine = null;
        try {
            job.work(0);
            // A helper that has not started its part yet (parked, or its processor taken by another process) is not
            // waited for: its part runs here. The parts are the same ranges whoever runs them, so the result is too.
            for (int i = 1; i < job.parts; i++) {
                if (hs[i - 1].revoke(job)) {
                    try {
                        job.work(i);
                    } finally {
                        job.pending.decrementAndGet();
                    }
                }
            }
        } catch (Throwable t) {
            mine = t;
        }
        long waitFrom = System.nanoTime();
        job.awaitHelpers();
        long end = System.nanoTime();
        lag.record(end - start, end - waitFrom);
        if (mine != null) {
            sneaky(mine);
        }
        if (job.failure != null) {
            sneaky(job.failure);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneaky(Throwable t) throws T {
        throw (T) t;
    }

    private static Helper[] helpers(int needed) {
        Helper[] hs = helpers;
        if (hs.length < needed) {
            Helper[] more = java.util.Arrays.copyOf(hs, needed);
            for (int i = hs.length; i < needed; i++) {
                more[i] = new Helper(i);
                more[i].start();
            }
            helpers = more;
            hs = more;
        }
        return hs;
    }

    /** One split job: static equal ranges, or tasks claimed one at a time, each thread's own range first. */
    private static final class Job {
        public final int parts;
        public final int n;
        public final RangeBody body;
        public final boolean dynamic;
        /** With dynamic claiming, the next unclaimed task of each part's range. */
        private final AtomicInteger[] next;
        public final AtomicInteger pending;
        volatile Throwable failure;

        Job(int parts, int n, RangeBody body, boolean dynamic) {
            this.parts = parts;
            this.n = n;
            this.body = body;
            this.dynamic = dynamic;
            this.pending = new AtomicInteger(parts - 1);
            this.next = new AtomicInteger[dynamic ? parts : 0];
            for (int p = 0; p < next.length; p++) {
                next[p] = new AtomicInteger(start(p));
            }
        }

        /** The first index of part p's range. */
        private int start(int p) {
            return (int) ((long) n * p / parts);
        }

        void work(int part) {
            if (!dynamic) {
                body.run(start(part), start(part + 1));
                return;
            }
            for (int q = 0; q < parts; q++) {
                int owner = (part + q) % parts;
                int end = start(owner + 1);
                AtomicInteger claim = next[owner];
                for (int t = claim.getAndIncrement(); t < end; t = claim.getAndIncrement()) {
                    body.run(t, t + 1);
                }
            }
        }

        void awaitHelpers() {
            long spins = 0;
            while (pending.get() > 0) {
                if (++spins < 1_000_000) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            }
        }
    }

    /**
     * A daemon thread that runs its share of jobs, spinning between them before it parks. A job is handed over in
     * {@link #offered}, which either the helper takes (starting its part) or the calling thread takes back
     * ({@link #revoke}) to run the part itself: one compare-and-set decides which, so a part runs exactly once.
     */
    private static final class Helper extends Thread {
        private final AtomicReference<Job> offered = new AtomicReference<>();
        private volatile int part;
        /** Set while the helper is (about to be) parked, so that a busy-spinning helper is not unparked: that costs a system call. */
        private volatile boolean parked;

        Helper(int index) {
            super("jgrad-kernel-" + (index + 1));
            setDaemon(true);
        }

        void assign(Job j, int p) {
            part = p;
            offered.set(j);
            if (parked) {
                LockSupport.unpark(this);
            }
        }

        /** Takes back a job this helper has not started: true if it now never will. */
        boolean revoke(Job j) {
            return offered.compareAndSet(j, null);
        }

        @Override
        public void run() {
            while (true) {
                Job j = take();
                try {
                    j.work(part);
                } catch (Throwable t) {
                    j.failure = t;
                } finally {
                    j.pending.decrementAndGet();
                }
            }
        }

        /** The next job offered, once this helper holds it (the calling thread may take it back first). */
        private Job take() {
            long start = System.nanoTime();
            while (true) {
                Job j = offered.get();
                if (j != null) {
                    if (offered.compareAndSet(j, null)) {
                        return j;
                    }
                    continue;
                }
                if (System.nanoTime() - start < Tuning.SPIN_NANOS) {
                    Thread.onSpinWait();
                    continue;
                }
                parked = true;
                if (offered.get() == null) {
                    LockSupport.park(this);
                }
                parked = false;
            }
        }
    }
}
