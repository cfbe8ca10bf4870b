package dev.jgrad.examples.train;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ctrl-C (SIGINT) and SIGTERM during a run: the first asks the trainer to stop at the end of the current step, after
 * which it writes what it trained (metrics, charts, checkpoint) as at a normal end and the command exits 130 with a
 * line saying how to resume; a second one stops the process at once. Outside a run the signals keep the JVM's meaning.
 */
public final class Interrupt {
    private static final AtomicInteger SIGNALS = new AtomicInteger();
    private static volatile boolean installed;
    private static volatile String where = "";
    private static volatile java.nio.file.Path runDir;

    private Interrupt() {
    }

    /** Takes over SIGINT and SIGTERM for a run (a no-op where the JVM does not let it). */
    static synchronized void install() {
        if (installed) {
            return;
        }
        try {
            sun.misc.SignalHandler handler = signal -> {
                if (SIGNALS.incrementAndGet() > 1) {
                    System.err.println("\njgrad: stopped at once (a second " + signal.getName() + "); files being written keep their old content");
                    Runtime.getRuntime().halt(130);
                }
            };
            sun.misc.Signal.handle(new sun.misc.Signal("INT"), handler);
            sun.misc.Signal.handle(new sun.misc.Signal("TERM"), handler);
            installed = true;
        } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
            // No signal handling here (another JVM, or a signal the OS reserves): Ctrl-C stops the process as usual.
        }
    }

    /** Whether a stop was asked for; the training loops check this after every step. */
    static boolean requested() {
        return SIGNALS.get() > 0;
    }

    /** Records where the run is (for the line printed at the stop): "epoch 11, step 5160". */
    static void at(String position) {
        where = position;
    }

    static String where() {
        return where;
    }

    /** The folder the run writes into, for the resume line. */
    static void runDir(java.nio.file.Path dir) {
        runDir = dir;
    }

    static java.nio.file.Path runDir() {
        return runDir;
    }

    private static volatile long stopAtStep = -1;
    /** Steps made since the last reset, over all of a run's series (the regression trains two, one after the other). */
    private static long stepsMade;

    /** Asks for a stop once this process has made {@code step} steps since the last reset, as a signal then would (tests). */
    static void stopAtStep(long step) {
        stopAtStep = step;
        stepsMade = 0;
    }

    /** Called by the training loops after every step (with the run's own count). */
    static void stepped(long step) {
        if (++stepsMade == stopAtStep) {
            request();
        }
    }

    /** Asks for a stop as a signal would (tests). */
    static void request() {
        SIGNALS.compareAndSet(0, 1);
    }

    /** Forgets a stop that was handled (tests run several trainers in one JVM). */
    static void reset() {
        SIGNALS.set(0);
        where = "";
        stopAtStep = -1;
        stepsMade = 0;
    }
}
