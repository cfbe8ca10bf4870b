package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.Parallel;
import dev.jgrad.tensor.internal.kernels.Processor;
import dev.jgrad.tensor.internal.kernels.Tuner;
import dev.jgrad.tensor.internal.kernels.Tuning;
import dev.jgrad.tensor.internal.kernels.TuningFile;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;

/**
 * Which kernels run and on how many threads. The kernels are chosen once, when jgrad is first used: the Vector API
 * ones where the {@code jdk.incubator.vector} module is present (start the JVM with
 * {@code --add-modules jdk.incubator.vector}) and not switched off with {@code -Djgrad.vector=false}, else the
 * plain-Java ones, several times slower. The two agree to float32 rounding, not bit for bit (their sums run in
 * another order), so a training run's later digits differ between them; each is deterministic on its own.
 */
public final class Backend {
    private Backend() {
    }

    /** The kernels in use, for reports: "Vector API, 512-bit", "Vector API, 256-bit" or "plain Java". */
    public static String kernels() {
        return Kernels.PROVIDER.name();
    }

    /** Whether the Vector API kernels are in use. */
    public static boolean vectorized() {
        return Kernels.PROVIDER.vectorLanes() > 0;
    }

    /** How many threads the kernels use (default: the available processors, or {@code -Djgrad.threads=N}). */
    public static int threads() {
        return Parallel.threads();
    }

    /**
     * Sets how many threads the kernels use; 1 runs everything on the calling thread. Results do not depend on it.
     *
     * @throws IllegalArgumentException when {@code n} is below 1 or above {@link #maxThreads()}
     */
    public static void setThreads(int n) {
        Parallel.setThreads(n);
    }

    /** The most threads {@link #setThreads} accepts: four per available processor, at least 8. */
    public static int maxThreads() {
        return Parallel.maxThreads();
    }

    /** This processor as the kernels see it: its model, vector width, processors and caches. */
    public static String processor() {
        return Processor.CURRENT.toString();
    }

    /**
     * The measured choices in use and where they came from: "rows per block 96, split from 32768 elements: measured, from
     * FILE", or the defaults and why.
     */
    public static String tuning() {
        Tuning.Choices c = Tuning.choices();
        return "rows per block " + c.gemmRowBlock() + ", ops split from " + c.parallelMin() + " elements: " + TuningFile.status();
    }

    /**
     * Measures this processor's best block of rows for the matrix product and the size from which ops are split across
     * threads (a few seconds), keeps them in its tuning file in the user's cache folder, and uses them from now on. What
     * it measures changes no result's bits, only how fast they come.
     *
     * @throws IOException where the tuning file cannot be written (the choices are still used in this JVM)
     */
    public static void tune(PrintStream log) throws IOException {
        Tuner.run(log);
    }

    /** Whether this processor has a tuning file (a readable one or not). */
    public static boolean tuned() {
        return Files.exists(TuningFile.path(Processor.CURRENT));
    }
}
