package dev.jgrad.autograd;

import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One recorded op: its name, an edge per input, the shapes of the inputs, the tensors it saved and its
 * backward rule. Backward frees the saved tensors once the rule has run, unless asked to keep them.
 */
public final class Node {
    private static final AtomicLong LIVE_SAVED_BYTES = new AtomicLong();
    private static final AtomicLong LIVE_NODES = new AtomicLong();

    private final String name;
    final Edge[] edges;
    final int[][] inputShapes;
    final dev.jgrad.tensor.DType[] inputTypes;
    BackwardFn fn;
    private List<Saved> saved;
    private boolean holding;
    private boolean released;
    /** Where the op was called in user code; recorded in anomaly mode only. */
    final String site;
    /** A non-leaf variable that asked to keep its gradient. */
    Variable retainer;
    /**
     * For ops whose output is a region of their one input (slice, select, diagonal): that region of an
     * input-shaped tensor. The engine adds the output's gradient into it, in a gradient buffer of its
     * own, instead of each op making a zero gradient of the input's whole shape.
     */
    Region region;

    /**
     * The part of an input-shaped value that a view op's output covers: the view op itself, so that
     * under {@code createGraph} it is recorded like any other op.
     */
    @FunctionalInterface
    interface Region {
        Variable of(Variable input);
    }

    Node(String name, Variable[] inputs) {
        this.name = name;
        this.edges = new Edge[inputs.length];
        this.inputShapes = new int[inputs.length][];
        this.inputTypes = new dev.jgrad.tensor.DType[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            edges[i] = Edge.to(inputs[i]);
            inputShapes[i] = inputs[i].data.shape();
            inputTypes[i] = inputs[i].data.dtype();
        }
        this.site = Anomaly.isEnabled() ? Anomaly.callSite() : null;
    }

    /** The op's name, as errors and anomaly reports show it. */
    public String name() {
        return name;
    }

    /** Whether input {@code i} needs a gradient. */
    boolean needs(int i) {
        return edges[i] != null;
    }

    /**
     * Saves a value for backward; {@link #saved(int)} returns it in the order saved (null keeps the
     * slot empty, for a value only some inputs need).
     */
    void save(Variable v, boolean isOutput) {
        if (saved == null) {
            saved = new ArrayList<>(2);
            holding = true;
            LIVE_NODES.incrementAndGet();
        }
        Saved s = v == null ? null : new Saved(v, this, isOutput);
        saved.add(s);
        if (s != null) {
            LIVE_SAVED_BYTES.addAndGet(s.bytes());
        }
    }

    /** Reserves a slot for the op's output, which exists only once the op is recorded ({@link #fillOutput}). */
    int reserve() {
        save(null, false);
        return saved.size() - 1;
    }

    void fillOutput(int slot, Variable out) {
        Saved s = new Saved(out, this, true);
        saved.set(slot, s);
        LIVE_SAVED_BYTES.addAndGet(s.bytes());
    }

    /** The i-th saved value, checked against in-place writes since it was saved. */
    Variable saved(int i) {
        if (released) {
            throw new AutogradException(Engine.FREED_MESSAGE + " (op '" + name + "')");
        }
        Saved s = saved.get(i);
        return s == null ? null : s.get();
    }

    /** The i-th saved value as a tensor (a mask or an index, which has no gradient). */
    Tensor savedTensor(int i) {
        Variable v = saved(i);
        return v == null ? null : v.data;
    }

    /** Frees the saved tensors: after this, backward through this node fails with a message that says why. */
    void release() {
        released = true;
        if (holding) {
            holding = false;
            LIVE_NODES.decrementAndGet();
            for (Saved s : saved) {
                if (s != null) {
                    LIVE_SAVED_BYTES.addAndGet(-s.bytes());
                    s.release();
                }
            }
        }
    }

    String siteSuffix() {
        return site == null ? "" : " at " + site;
    }

    /** Nodes that saved tensors which no backward has freed yet (all threads). */
    public static long liveNodes() {
        return LIVE_NODES.get();
    }

    /** Bytes held by saved tensors which no backward has freed yet (all threads). */
    public static long liveSavedBytes() {
        return LIVE_SAVED_BYTES.get();
    }

    @Override
    public String toString() {
        return name + "Backward";
    }
}
