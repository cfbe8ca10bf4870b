package dev.jgrad.tensor.internal.kernels;

import java.util.function.LongSupplier;

/**
 * Whether the helper threads get their processors. Where another process keeps one of the processors busy, the helper
 * on it runs in time slices: it starts its share of a job late or stops in the middle of it, and the calling thread,
 * which cannot take over a share already begun, waits for it. Every job then takes as long as the slowest slice, and
 * two threads run slower than one. So {@link Parallel} measures how much of its jobs' time the calling thread spends
 * waiting; where that passes {@link #LAG_SHARE} over {@link #LAG_WINDOWS} windows in a row, jobs run on half the
 * threads for {@link #BACKOFF_NANOS}, then on all of them again. A helper that is only slower (a busier neighbour on
 * a shared machine) still does its part: dynamic tasks give it less, and its waits stay under the share.
 * Results do not depend on the number of threads, so this changes only the time.
 */
final class HelperLag {
    /** The jobs' time (wall, on the calling thread) over which the waiting is measured. */
    static final long WINDOW_NANOS = 100_000_000L;
    /**
     * Lagging: the calling thread waited for its helpers more than this share of a window, twice in a row. A job of
     * work W split in halves takes W/2 plus the wait on two threads against W on one, so past half of its time spent
     * waiting one thread does better; a single window past it is often a compile that took a processor for a moment.
     */
    static final double LAG_SHARE = 0.5;
    /** How many windows in a row past the share make the helpers lagging. */
    static final int LAG_WINDOWS = 2;
    /** How long jobs then run on fewer threads before all are tried again. */
    static final long BACKOFF_NANOS = 1_000_000_000L;

    private final LongSupplier clock;
    private final boolean enabled;
    /** Written by the calling thread of a job, under Parallel's lock (one job at a time). */
    private long jobNanos;
    private long waitNanos;
    private int windowsPast;
    /** Kept beside laggingUntil so that the usual answer, no, costs no clock read on every job. */
    private volatile boolean lagging;
    private volatile long laggingUntil;

    /** @param clock nanoseconds */
    HelperLag(LongSupplier clock) {
        this(clock, true);
    }

    private HelperLag(LongSupplier clock, boolean enabled) {
        this.clock = clock;
        this.enabled = enabled;
    }

    /** Never lagging, whatever is recorded (tests that must exercise the helpers). */
    static HelperLag never() {
        return new HelperLag(System::nanoTime, false);
    }

    /** One split job: {@code jobNanos} from its start to its last helper's end, {@code waitNanos} of it waited. */
    void record(long jobNanos, long waitNanos) {
        this.jobNanos += jobNanos;
        this.waitNanos += waitNanos;
        if (this.jobNanos < WINDOW_NANOS) {
            return;
        }
        windowsPast = this.waitNanos > LAG_SHARE * this.jobNanos ? windowsPast + 1 : 0;
        if (enabled && windowsPast >= LAG_WINDOWS) {
            laggingUntil = clock.getAsLong() + BACKOFF_NANOS;
            lagging = true;
            windowsPast = 0;
        }
        this.jobNanos = 0;
        this.waitNanos = 0;
    }

    /** True for {@link #BACKOFF_NANOS} after windows in which the waiting passed the share. */
    boolean lagging() {
        if (lagging && clock.getAsLong() - laggingUntil >= 0) {
            lagging = false;
        }
        return lagging;
    }
}
