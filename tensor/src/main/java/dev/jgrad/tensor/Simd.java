package dev.jgrad.tensor;

/**
 * Which kernels run: the Vector API ones where the {@code jdk.incubator.vector} module is present (the
 * launcher and the build add it) and not switched off with {@code -Djgrad.vector=false}; the plain-Java
 * ones otherwise. The vector classes are only loaded in the first case, so the library works without
 * the module.
 */
public final class Simd {
    static final boolean ENABLED = detect();
    static final MicroKernel GEMM = ENABLED ? vectorKernel() : new ScalarMicroKernel();

    private Simd() {
    }

    private static boolean detect() {
        if ("false".equalsIgnoreCase(System.getProperty("jgrad.vector"))) {
            return false;
        }
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            return false;
        }
        try {
            Class.forName("jdk.incubator.vector.FloatVector");
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static MicroKernel vectorKernel() {
        try {
            return (MicroKernel) Class.forName("dev.jgrad.tensor.VectorMicroKernel").getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
            return new ScalarMicroKernel();
        }
    }

    /** Whether the Vector API kernels are in use. */
    public static boolean enabled() {
        return ENABLED;
    }

    /** A one-line description for benchmark reports: "Vector API, 512-bit" or "plain Java". */
    public static String describe() {
        return ENABLED ? "Vector API, " + (GEMM.nr() / 2 * 32) + "-bit" : "plain Java";
    }
}
