package dev.jgrad.tensor.internal.kernels;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * Whether the JIT compilers are busy. Where the kernels use every processor, a run's first seconds are a race between
 * them and the compilers for the same processors, and the kernels lose twice: the Vector API is fast only once C2 has
 * compiled it (interpreted or C1-compiled vector code is a hundred times slower), and a kernel thread spinning for its
 * share takes the processor the compiler needs. So while the compilers are busy, {@link Parallel} leaves them one.
 * The compilers' time is counted when a compile ends, so one interval over the share is mostly a compile that is over
 * already (a long run recompiles a method now and then, long after its warm-up), and leaving a processor idle after it
 * only slows the jobs down: busy means two intervals over the share in a row, compiles that go on (a run's start, a burst
 * of new shapes at its first evaluation).
 * Results do not depend on the number of threads, so this changes only the time.
 */
final class CompilerLoad {
    /** How often the compilers' time is sampled. */
    static final long INTERVAL_NANOS = 50_000_000L;
    /** Busy: the compilers ran for more than this share of each of the last two intervals (summed over their threads). */
    static final double BUSY_SHARE = 0.25;
    /** The JVM's compilers; never busy where the JVM does not report their time. */
    static final CompilerLoad JIT = of(ManagementFactoryHolder.bean());

    private final LongSupplier compileMillis;
    private final LongSupplier clock;
    private volatile long nextCheck;
    private volatile boolean busy;
    private long lastWall;
    private long lastCompileMillis;
    /** Whether the interval before the last was over the share (a run starts compiling). */
    private boolean overBefore = true;

    /** @param compileMillis the compilers' total time so far, in ms (null: never busy) @param clock nanoseconds */
    CompilerLoad(LongSupplier compileMillis, LongSupplier clock) {
        this.compileMillis = compileMillis;
        this.clock = clock;
        this.lastWall = clock.getAsLong();
        this.nextCheck = lastWall + INTERVAL_NANOS;
        // A run starts compiling: until the first sample, the compilers are taken to be busy.
        this.busy = compileMillis != null;
        this.lastCompileMillis = compileMillis == null ? 0 : compileMillis.getAsLong();
    }

    private static CompilerLoad of(CompilationMXBean bean) {
        return new CompilerLoad(bean == null ? null : bean::getTotalCompilationTime, System::nanoTime);
    }

    /** True while the compilers took more than a quarter of each of the last two intervals. */
    boolean busy() {
        if (compileMillis != null && clock.getAsLong() - nextCheck >= 0) {
            sample();
        }
        return busy;
    }

    private synchronized void sample() {
        long now = clock.getAsLong();
        if (now - nextCheck < 0) {
            return;
        }
        long millis = compileMillis.getAsLong();
        long wall = Math.max(1, now - lastWall);
        boolean over = (millis - lastCompileMillis) * 1e6 > BUSY_SHARE * wall;
        busy = over && overBefore;
        overBefore = over;
        lastWall = now;
        lastCompileMillis = millis;
        nextCheck = now + INTERVAL_NANOS;
    }

    /** Loads the management classes only when the kernels first ask. */
    private static final class ManagementFactoryHolder {
        static CompilationMXBean bean() {
            try {
                CompilationMXBean b = ManagementFactory.getCompilationMXBean();
                return b != null && b.isCompilationTimeMonitoringSupported() ? b : null;
            } catch (RuntimeException | Error e) {
                // No management support (a minimal runtime image): the kernels use every thread as before.
                return null;
            }
        }
    }
}
