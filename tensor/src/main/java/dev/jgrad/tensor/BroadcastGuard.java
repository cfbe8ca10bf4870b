package dev.jgrad.tensor;

/**
 * Opt-in checks on broadcasting, beyond what PyTorch does, as try-with-resources scopes per thread.
 *
 * <ul>
 *   <li>{@link #strict()}: a binary op whose operands are <em>both</em> stretched to a larger shape
 *       fails. That is how {@code (B,1) - (B,)} silently becomes {@code (B,B)}: each operand grows along
 *       the dimension the other one has. A one-sided broadcast such as {@code (B,D) + (D,)} passes.</li>
 *   <li>{@link #limitBytes(long)}: an op whose broadcast result would need more than the limit fails
 *       before it allocates, with the number of bytes it would take. {@code (N,1,D) - (1,M,D)} is
 *       {@code (N,M,D)}: a small pair of inputs can ask for gigabytes.</li>
 * </ul>
 * Scopes nest; closing one restores the settings that were in force before it.
 * <pre>{@code
 * try (var strict = BroadcastGuard.strict()) {
 *     Tensor loss = pred.sub(target).square().mean();   // fails if pred is (B,1) and target (B,)
 * }
 * }</pre>
 * The system property {@code jgrad.maxBroadcastBytes} sets a limit for every thread.
 */
public final class BroadcastGuard implements AutoCloseable {
    private static final long GLOBAL_LIMIT = Long.getLong("jgrad.maxBroadcastBytes", Long.MAX_VALUE);

    private static final class Settings {
        final boolean strict;
        final long maxBytes;

        Settings(boolean strict, long maxBytes) {
            this.strict = strict;
            this.maxBytes = maxBytes;
        }
    }

    private static final ThreadLocal<Settings> CURRENT =
            ThreadLocal.withInitial(() -> new Settings(false, GLOBAL_LIMIT));

    private final Settings previous;
    private boolean closed;

    private BroadcastGuard(Settings next) {
        this.previous = CURRENT.get();
        CURRENT.set(next);
    }

    /** Enters a scope where a binary op may stretch at most one of its operands. */
    public static BroadcastGuard strict() {
        Settings s = CURRENT.get();
        return new BroadcastGuard(new Settings(true, s.maxBytes));
    }

    /** Enters a scope where no broadcasting op may allocate a result larger than {@code maxBytes}. */
    public static BroadcastGuard limitBytes(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("limitBytes: the limit must be at least 0, got " + maxBytes);
        }
        Settings s = CURRENT.get();
        return new BroadcastGuard(new Settings(s.strict, maxBytes));
    }

    /** Whether a strict scope is open in this thread. */
    public static boolean isStrict() {
        return CURRENT.get().strict;
    }

    @Override
    public void close() {
        if (!closed) {
            CURRENT.set(previous);
            closed = true;
        }
    }

    /**
     * Called by every broadcasting op before it allocates its result.
     *
     * @param op the op's name, for the message
     * @param shapes the operands' shapes (null entries are scalars and never count)
     * @param out the broadcast result shape
     */
    static void check(String op, int[][] shapes, int[] out, DType outType) {
        Settings s = CURRENT.get();
        if (!s.strict && s.maxBytes == Long.MAX_VALUE) {
            return;
        }
        String[] names = new String[shapes.length];
        for (int k = 0; k < shapes.length; k++) {
            names[k] = String.valueOf((char) ('a' + k));
        }
        if (s.strict) {
            int stretched = 0;
            for (int[] shape : shapes) {
                if (shape != null && shape.length > 0 && Shape.isStretched(shape, out)) {
                    stretched++;
                }
            }
            if (stretched >= 2) {
                throw new ShapeException("strict broadcasting: " + op + " stretches both operands to " + Shape.str(out) + "\n"
                        + Shape.aligned(withOut(names), withOut(shapes, out), -1)
                        + "\nEach operand grows along a dimension the other one has, which is how (B,1) - (B,) becomes (B,B)."
                        + "\nIf you meant an elementwise op, make the shapes equal (for example target.unsqueeze(1));"
                        + " if you meant the outer result, expand one operand explicitly.");
            }
        }
        long bytes = (long) outType.itemSize();
        for (int d : out) {
            bytes *= d;
        }
        boolean grows = false;
        for (int[] shape : shapes) {
            if (shape != null && !java.util.Arrays.equals(shape, out)) {
                grows = true;
            }
        }
        if (grows && bytes > s.maxBytes) {
            throw new ShapeException(op + ": the broadcast result " + Shape.str(out) + " (" + outType + ") would need "
                    + bytes + " bytes, over the limit of " + s.maxBytes + " bytes\n"
                    + Shape.aligned(withOut(names), withOut(shapes, out), -1));
        }
    }

    private static String[] withOut(String[] names) {
        String[] r = java.util.Arrays.copyOf(names, names.length + 1);
        r[names.length] = "result";
        return r;
    }

    private static int[][] withOut(int[][] shapes, int[] out) {
        int[][] r = new int[shapes.length + 1][];
        for (int k = 0; k < shapes.length; k++) {
            r[k] = shapes[k] == null ? new int[0] : shapes[k];
        }
        r[shapes.length] = out;
        return r;
    }
}
