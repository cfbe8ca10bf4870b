package dev.jgrad.autograd;

import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;

/**
 * Records one op as it runs: {@code Op.of(name, out, inputs)}, then {@link #save} what backward needs,
 * then {@link #backward} with the rule, which returns the output variable. Nothing is recorded (and the
 * save calls cost nothing) unless grad mode is on and some input requires a gradient.
 * <pre>{@code
 * Tensor y = x.data.exp();
 * return Op.of("exp", y, x).saveOutput().backward((g, n) -> new Tensor[] {g.mul(n.saved(0))});
 * }</pre>
 */
final class Op {
    private final String name;
    private final Tensor out;
    private final Variable[] inputs;
    private final Node node;
    private boolean allowNonFinite;

    private Op(String name, Tensor out, Variable[] inputs, Node node) {
        this.name = name;
        this.out = out;
        this.inputs = inputs;
        this.node = node;
    }

    static Op of(String name, Tensor out, Variable... inputs) {
        boolean record = false;
        if (GradMode.isEnabled()) {
            for (Variable v : inputs) {
                record |= v.requiresGrad();
            }
        }
        return new Op(name, out, inputs, record ? new Node(name, inputs) : null);
    }

    boolean recording() {
        return node != null;
    }

    /** Whether input i needs a gradient (so a tensor saved only for it can be skipped). */
    boolean needs(int i) {
        return node != null && node.needs(i);
    }

    Op save(Tensor t) {
        if (node != null) {
            node.save(t, false);
        }
        return this;
    }

    Op saveOutput() {
        if (node != null) {
            node.save(out, true);
        }
        return this;
    }

    /** The op fills with a value the caller chose (a -inf mask); a non-finite result is then not an anomaly. */
    Op allowNonFinite() {
        allowNonFinite = true;
        return this;
    }

    Variable backward(BackwardFn fn) {
        if (Anomaly.isEnabled()) {
            checkForward();
        }
        if (node == null) {
            return new Variable(out);
        }
        node.fn = fn;
        return new Variable(out, node);
    }

    /**
     * Ends the recording of a view op whose output is {@code region} of its input: backward passes
     * the output's gradient on unchanged and the engine adds it into that region (see {@link Node#region}).
     */
    Variable backwardInto(Node.Region region) {
        Variable v = backward((g, n) -> new Tensor[] {g});
        if (node != null) {
            node.region = region;
        }
        return v;
    }

    /**
     * Ends the recording of an in-place op on {@code self}: its history now ends in this op (whose inputs
     * are self as it was and the other operands). Returns self.
     */
    Variable rebase(Variable self, BackwardFn fn) {
        if (Anomaly.isEnabled()) {
            checkForward();
        }
        if (node != null) {
            node.fn = fn;
            self.gradFn = node;
            self.requiresGrad(true);
        }
        return self;
    }

    private void checkForward() {
        if (allowNonFinite || !out.isFloatingPoint() || out.allFinite()) {
            return;
        }
        StringBuilder shapes = new StringBuilder();
        for (Variable v : inputs) {
            if (v.data.isFloatingPoint() && !v.data.allFinite()) {
                return;
            }
            shapes.append(shapes.length() == 0 ? "" : ", ").append(Shape.str(v.data.shape()));
        }
        String site = node != null && node.site != null ? node.site : Anomaly.callSite();
        throw new AnomalyException(name, true, "anomaly in forward: '" + name + "' produced " + Anomaly.describe(out)
                + " in its output of shape " + Shape.str(out.shape()) + " from finite inputs of shapes [" + shapes + "]\n"
                + "  recorded at " + site);
    }
}
