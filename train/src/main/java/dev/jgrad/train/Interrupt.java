package dev.jgrad.train;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ctrl-C (SIGINT) and SIGTERM while jgrad trains. During a run's training loop the first signal asks {@link Fit} to stop at
 * the end of the current step, after which it writes what was trained (metrics, charts, checkpoint) as at a normal end; a
 * second one stops the process at once. Before the loop starts (reading data, building the model) and after it, nothing
 * waits for a step to end, so the first signal stops the process at once. Outside a run the signals keep the JVM's meaning.
 */
public final class Interrupt {
    private static final AtomicInteger SIGNALS = new AtomicInteger();
    private static volatile boolean installed;
    private static volatile boolean inLoop;
    private static volatile String where = "";
    private static volatile Path runDir;

    private Interrupt() {
    }

    /**
     * Takes over SIGINT and SIGTERM for this process (a no-op where the JVM does not allow it). {@link Fit#run} calls it; a
     * program calls it early to have Ctrl-C during its own set-up stop with one line instead of a trace.
     */
    public static synchronized void install() {
        if (installed) {
            return;
        }
        try {
            sun.misc.SignalHandler handler = signal -> {
                if (!inLoop) {
                    System.err.println("\njgrad: stopped (" + signal.getName() + ") before the training loop began; nothing of this run"
                            + " was written");
                    System.exit(130);
                }
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

    /** Whether a stop was asked for; the training loop checks this after every step. */
    public static boolean requested() {
        return SIGNALS.get() > 0;
    }

    /** Asks the run in progress to stop at the end of its current step, as Ctrl-C would. */
    public static void request() {
        SIGNALS.compareAndSet(0, 1);
    }

    /** Where the last run stopped or stands: "epoch 11, step 5160". */
    public static String where() {
        return where;
    }

    /** The folder of the last run this process started, for the line that says how to resume it (null before any run). */
    public static Path runDir() {
        return runDir;
    }

    /** Forgets a stop that was handled, so the next run in this process trains (tests run several runs in one JVM). */
    public static void reset() {
        SIGNALS.set(0);
        where = "";
        stopAtStep = -1;
        stepsMade = 0;
    }

    private static volatile long stopAtStep = -1;
    /** Steps made since the last reset, over every run in this process. */
    private static long stepsMade;

    /**
     * Asks for a stop once this process has made {@code steps} training steps from now, as a signal at that moment would:
     * for tests of resume, and for tools that train in slices.
     */
    public static void stopAfterSteps(long steps) {
        stopAtStep = steps;
        stepsMade = 0;
    }

    /**
     * A loop runs (the training loop, a sweep's loop over its runs): a signal now asks it to stop at the end of its step
     * (true), or stops the process at once (false).
     */
    public static void inLoop(boolean running) {
        inLoop = running;
    }

    static void at(String position) {
        where = position;
    }

    static void runDir(Path dir) {
        runDir = dir;
    }

    /** Called by the training loop after every step. */
    static void stepped() {
        if (++stepsMade == stopAtStep) {
            request();
        }
    }
}
