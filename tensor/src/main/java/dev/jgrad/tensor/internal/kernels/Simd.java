package dev.jgrad.tensor.internal.kernels;

/**
 * Whether the Vector API is there: the {@code jdk.incubator.vector} module is present (the launcher and the build
 * add it) and not switched off with {@code -Djgrad.vector=false}. Where the module is missing and nobody chose the
 * plain kernels, one line on stderr says so when the kernels are first used. The vector classes are only loaded
 * where the API is there, so the library works without the module. Also the matrix product's micro-kernels.
 */
public final class Simd {
    static final boolean ENABLED = detect();
    static final MicroKernel GEMM = ENABLED ? vectorKernel(0) : new ScalarMicroKernel();
    /** The 8-row vector kernel where the CPU has AVX-512 (else {@link #GEMM}). */
    static final MicroKernel GEMM_8 = ENABLED && GEMM.mr() == 12 ? vectorKernel(8) : GEMM;

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

    /**
     * The vector kernel of {@code rows} rows (0: its usual height), loaded by name so that this class loads without the
     * Vector API. Called only where the API is present, so a failure is a packaging bug, said at once rather than
     * hidden behind the plain kernel's slower products.
     */
    private static MicroKernel vectorKernel(int rows) {
        try {
            Class<?> k = Class.forName(Simd.class.getPackageName() + ".VectorMicroKernel");
            return (MicroKernel) (rows == 0 ? k.getDeclaredConstructor().newInstance() : k.getDeclaredConstructor(int.class).newInstance(rows));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("jgrad's Vector API micro-kernel did not load: " + e, e);
        }
    }

    /**
     * The kernel for a product of n rows: the usual one, or the 8-row one where n is a multiple of 8 that the usual
     * 12-row tiles would cover with more than 5% of padding (n = 64: a sixth tile of 4 rows, which costs as much as a
     * whole one; a 64-row product took as long as a 72-row one).
     */
    public static MicroKernel gemmFor(int n) {
        int mr = GEMM.mr();
        int padding = (n + mr - 1) / mr * mr - n;
        return GEMM_8 != GEMM && n % 8 == 0 && padding * 20 > n ? GEMM_8 : GEMM;
    }

    /** Whether the Vector API kernels are in use. */
    static boolean enabled() {
        return ENABLED;
    }
}
