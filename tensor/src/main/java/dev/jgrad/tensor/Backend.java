package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.Parallel;

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
}
