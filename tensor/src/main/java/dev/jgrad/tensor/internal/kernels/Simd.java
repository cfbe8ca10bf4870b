package dev.jgrad.tensor.internal.kernels;

/**
 * Whether the Vector API is there: the {@code jdk.incubator.vector} module is present (the launcher and the build
 * add it) and not switched off with {@code -Djgrad.vector=false}. Where the module is missing and nobody chose the
 * plain kernels, one line on stderr says so when the kernels are first used. The vector classes are only loaded
 * where the API is there, so the library works without the module.
 */
public final class Simd {
    static final boolean ENABLED = detect();

    private Simd() {
    }

    private static boolean detect() {
        if ("false".equalsIgnoreCase(System.getProperty("jgrad.vector"))) {
            return false;
        }
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            // The slow path said once, not silent: a program started without the flag (an IDE's Run button, plain
            // java -cp) would otherwise run several times slower with no word why.
            System.err.println("jgrad: the JVM has no Vector API module, so jgrad runs its plain-Java kernels, several times slower;"
                    + " start it with --add-modules jdk.incubator.vector (or -Djgrad.vector=false to choose them and hide this line)");
            return false;
        }
        try {
            Class.forName("jdk.incubator.vector.FloatVector");
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Whether the Vector API kernels are in use. */
    static boolean enabled() {
        return ENABLED;
    }
}
