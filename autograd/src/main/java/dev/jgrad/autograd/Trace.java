package dev.jgrad.autograd;

import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A recording of the ops a forward pass runs on variables, for exporters (as {@code torch.jit.trace} is to
 * {@code torch.onnx.export}). While a trace is open on a thread, every primitive op of {@link Variable} on that
 * thread is recorded as a {@link Call}: its name, its arguments as given (variables, constant tensors, numbers,
 * dims, enums) and its output tensor, whether or not anything requires a gradient.
 * <pre>{@code
 * try (Trace trace = Trace.start(Set.of())) {
 *     Variable y = model.forward(x);
 *     List<Trace.Call> calls = trace.calls();
 * }
 * }</pre>
 * Composite ops are recorded as the primitives they run. A layer may add an {@link #annotate annotation} after
 * its composite: a call naming the whole (an average pool, with its window) whose output is the composite's, which
 * an exporter may use in place of the primitives before it, or skip. A {@link CustomFunction} (a fused kernel) is
 * recorded with its attributes; where the trace was not told the exporter maps it ({@code mapped}), its
 * definition in differentiable ops is run and recorded as well, so any fused op with a definition can be
 * exported.
 */
public final class Trace implements AutoCloseable {
    /**
     * One recorded op: {@code op} is the primitive's name ({@code "binary"}, {@code "view"}, ...), a custom
     * function's ({@code "custom"}, with its name and attributes in {@code args}), an annotation's, or
     * {@code "alias"} (the output is the value of {@code args[0]}). {@code outputs} are the tensors it produced. An
     * annotation stands for the calls from index {@code from} (its {@link #mark()}) to it; other calls have -1.
     */
    public record Call(String op, Object[] args, Tensor[] outputs, boolean annotation, int from, StackTraceElement[] site) {
        /** The first output. */
        public Tensor output() {
            return outputs[0];
        }
    }

    private static final ThreadLocal<Trace> CURRENT = new ThreadLocal<>();
    /**
     * How many traces are open in the process: zero keeps {@link #on()} to one read of a plain field on every op. Not
     * volatile: the thread that opens a trace sees its own write, and another thread that reads a stale count only
     * looks up (or skips) a thread-local that is not set for it.
     */
    private static int open;

    private final List<Call> calls = new ArrayList<>();
    private final Set<String> mapped;
    private boolean closed;

    private Trace(Set<String> mapped) {
        this.mapped = mapped;
    }

    /**
     * Opens a trace on this thread. {@code mapped} names the custom functions the caller maps as one op; the
     * others are recorded with their definitions too.
     */
    public static Trace start(Set<String> mapped) {
        if (CURRENT.get() != null) {
            throw new IllegalStateException("a trace is already open on this thread");
        }
        Trace t = new Trace(Set.copyOf(mapped));
        CURRENT.set(t);
        synchronized (Trace.class) {
            open++;
        }
        return t;
    }

    /** The calls recorded so far, in the order they ran. */
    public List<Call> calls() {
        return Collections.unmodifiableList(calls);
    }

    /** Stops recording on this thread. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            CURRENT.remove();
            synchronized (Trace.class) {
                open--;
            }
        }
    }

    /** Whether a trace is open on this thread. */
    public static boolean on() {
        return open > 0 && CURRENT.get() != null;
    }

    /** Records a primitive whose output is {@code out}; returns {@code out}. */
    static Variable record(Variable out, String op, Object... args) {
        Trace t = CURRENT.get();
        if (t != null) {
            t.calls.add(new Call(op, args, new Tensor[] {out.data}, false, -1, site()));
        }
        return out;
    }

    /** Records a primitive with several outputs. */
    static void recordAll(Tensor[] outs, String op, Object... args) {
        Trace t = CURRENT.get();
        if (t != null) {
            t.calls.add(new Call(op, args, outs, false, -1, site()));
        }
    }

    /** Where a composite starts in the open trace (the number of calls so far), for {@link #annotate}; -1 without a trace. */
    public static int mark() {
        Trace t = on() ? CURRENT.get() : null;
        return t == null ? -1 : t.calls.size();
    }

    /**
     * Names the composite that produced {@code out}, the calls recorded since {@code mark}, as one op: {@code op} with
     * {@code args} (its inputs as variables, then its settings). An exporter that maps {@code op} uses it in place of
     * those calls; one that does not uses the calls. Does nothing unless a trace is open. Returns {@code out}.
     */
    public static Variable annotate(int mark, Variable out, String op, Object... args) {
        Trace t = on() ? CURRENT.get() : null;
        if (t != null) {
            t.calls.add(new Call(op, args, new Tensor[] {out.data}, true, mark, site()));
        }
        return out;
    }

    /** As {@link #annotate(int, Variable, String, Object...)} for a composite with several outputs (an LSTM's sequence and states). */
    public static void annotate(int mark, Variable[] outs, String op, Object... args) {
        Trace t = on() ? CURRENT.get() : null;
        if (t != null) {
            Tensor[] data = new Tensor[outs.length];
            for (int i = 0; i < outs.length; i++) {
                data[i] = outs[i].data;
            }
            t.calls.add(new Call(op, args, data, true, mark, site()));
        }
    }

    /** Whether the open trace's exporter maps the custom function {@code name} as one op. */
    static boolean mapped(String name) {
        Trace t = CURRENT.get();
        return t != null && t.mapped.contains(name);
    }

    /** Records a custom function: its name, its inputs and its attributes. */
    static void custom(String name, Tensor out, Variable[] inputs, Map<String, Object> attributes) {
        Trace t = CURRENT.get();
        if (t != null) {
            t.calls.add(new Call("custom", new Object[] {name, inputs, attributes}, new Tensor[] {out}, true, -1, site()));
        }
    }

    /** The frames that led to the op, outside this module and the tensor module: where the model called it. */
    private static StackTraceElement[] site() {
        StackTraceElement[] all = new Throwable().getStackTrace();
        int from = 0;
        while (from < all.length && (all[from].getClassName().startsWith("dev.jgrad.autograd.")
                || all[from].getClassName().startsWith("dev.jgrad.tensor."))) {
            from++;
        }
        int to = Math.min(all.length, from + 12);
        return java.util.Arrays.copyOfRange(all, from, to);
    }
}
