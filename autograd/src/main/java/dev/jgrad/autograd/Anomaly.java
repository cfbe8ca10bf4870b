package dev.jgrad.autograd;

import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;

/**
 * Anomaly mode, a scope per thread, as {@code torch.autograd.detect_anomaly()} but clearer: the first
 * op that <em>produces</em> a NaN or an infinity, in forward or in backward, fails with an
 * {@link AnomalyException} naming the op, the shapes, the direction and the line of user code that
 * called the op.
 * <pre>{@code
 * try (var a = Anomaly.enable()) {
 *     Variable y = Variable.where(x.gt(0), x.log(), 0.0);
 *     y.sum().backward();   // AnomalyException: log produced -inf in forward ... at Train.java:42
 * }
 * }</pre>
 * "Produces" means the op's inputs were finite: values that are already NaN flow on without a second
 * report, and an explicit fill with -inf (an attention mask) is not an anomaly. Recording the call
 * site costs a stack walk per op, so the mode is for debugging, not for training runs.
 */
public final class Anomaly implements AutoCloseable {
    private static final ThreadLocal<boolean[]> ENABLED = ThreadLocal.withInitial(() -> new boolean[] {false, false});
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final java.security.CodeSource AUTOGRAD = Anomaly.class.getProtectionDomain().getCodeSource();
    private static final java.security.CodeSource TENSOR = Tensor.class.getProtectionDomain().getCodeSource();

    private final boolean previous;
    private boolean closed;

    private Anomaly() {
        boolean[] cell = ENABLED.get();
        previous = cell[0];
        cell[0] = true;
    }

    /** Turns anomaly detection on until the returned scope is closed: the first op that makes a NaN or an infinity from finite inputs throws, naming itself. */
    public static Anomaly enable() {
        return new Anomaly();
    }

    /** Whether anomaly detection is on in this thread. */
    public static boolean isEnabled() {
        return ENABLED.get()[0];
    }

    /**
     * Whether a backward rule is running on this thread: the ops a rule computes with are checked as its
     * result (the engine names the op whose rule it is), not as forward ops of their own.
     */
    static boolean inBackward() {
        return ENABLED.get()[1];
    }

    /** Marks a backward rule as running; returns the previous mark for {@link #exitBackward}. */
    static boolean enterBackward() {
        boolean[] cell = ENABLED.get();
        boolean previous = cell[1];
        cell[1] = true;
        return previous;
    }

    static void exitBackward(boolean previous) {
        ENABLED.get()[1] = previous;
    }

    @Override
    public void close() {
        if (!closed) {
            ENABLED.get()[0] = previous;
            closed = true;
        }
    }

    /** The first frame of the caller's code: outside the tensor and autograd libraries and the JDK. */
    static String callSite() {
        return WALKER.walk(frames -> frames
                .filter(f -> {
                    // Library frames: jgrad's tensor and autograd packages as loaded from their own jars (or class
                    // folders), so tests living in the same packages still count as the caller's code.
                    String c = f.getClassName();
                    java.security.CodeSource cs = f.getDeclaringClass().getProtectionDomain().getCodeSource();
                    boolean library = (c.startsWith("dev.jgrad.tensor.") || c.startsWith("dev.jgrad.autograd."))
                            && cs != null && (sameLocation(cs, AUTOGRAD) || sameLocation(cs, TENSOR));
                    return !library && !f.getClassName().startsWith("java.");
                })
                .findFirst()
                .map(f -> f.getClassName() + "." + f.getMethodName() + "(" + f.getFileName() + ":" + f.getLineNumber() + ")")
                .orElse("<unknown>"));
    }

    private static boolean sameLocation(java.security.CodeSource a, java.security.CodeSource b) {
        return b != null && a.getLocation() != null && a.getLocation().equals(b.getLocation());
    }

    /** Describes the non-finite values of a tensor: "NaN (1 of 3) and -inf (1 of 3), first at index [1]". */
    static String describe(Tensor t) {
        double[] v = t.toDoubleArray();
        int nan = 0;
        int pos = 0;
        int neg = 0;
        int first = -1;
        for (int i = 0; i < v.length; i++) {
            if (Double.isNaN(v[i])) {
                nan++;
            } else if (v[i] == Double.POSITIVE_INFINITY) {
                pos++;
            } else if (v[i] == Double.NEGATIVE_INFINITY) {
                neg++;
            } else {
                continue;
            }
            if (first < 0) {
                first = i;
            }
        }
        StringBuilder sb = new StringBuilder();
        String of = " (" + "%d of " + v.length + ")";
        if (nan > 0) {
            sb.append("NaN").append(String.format(of, nan));
        }
        if (pos > 0) {
            sb.append(sb.length() > 0 ? " and " : "").append("inf").append(String.format(of, pos));
        }
        if (neg > 0) {
            sb.append(sb.length() > 0 ? " and " : "").append("-inf").append(String.format(of, neg));
        }
        sb.append(", first at index ").append(Shape.str(Shape.unravel(first, t.shape())));
        return sb.toString();
    }
}
