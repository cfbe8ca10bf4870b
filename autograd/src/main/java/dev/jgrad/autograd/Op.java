package dev.jgrad.autograd;

import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;

/**
 * Records one op as it runs: {@code Op.of(name, out, inputs)}, then {@link #save} what backward needs,
 * then {@link #backward} with the rule, which returns the output variable. Nothing is recorded (and the
 * save calls cost nothing) unless grad mode is on and some input requires a gradient.
 * <pre>{@code
 * Tensor y = x.data.exp();
 * return Op.of("exp", y, x).saveOutput().backward((g, n) -> new Variable[] {g.mul(n.saved(0))});
 * }</pre>
 * Save the input variables themselves (not their tensors): a backward with {@code createGraph}
 * differentiates through what was saved. Masks and indices are saved as tensors, constants.
 */
final class Op {
    private final String name;
    private final Tensor out;
    private final Variable[] inputs;
    private final Node node;
    private boolean allowNonFinite;
    private int outputSlot = -1;

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

    /**
     * Records {@code out}, a linear function of {@code g} alone (the backward of a read: zeros with g
     * added at the positions read), with the function's adjoint as its rule (the read itself). Such
     * backward ops run at full speed in a first-order pass and are differentiable to any order.
     */
    static Variable linear(String name, Tensor out, Variable g, java.util.function.UnaryOperator<Variable> adjoint) {
        return of(name, out, g).backward((gg, n) -> new Variable[] {adjoint.apply(gg)});
    }

    boolean recording() {
        return node != null;
    }

    /** Whether input i needs a gradient (so a value saved only for it can be skipped). */
    boolean needs(int i) {
        return node != null && node.needs(i);
    }

    /** Saves a value backward reads (null keeps the slot empty). */
    Op save(Variable v) {
        if (node != null) {
            node.save(v, false);
        }
        return this;
    }

    /** Saves a constant backward reads: a mask or an index. */
    Op save(Tensor t) {
        if (node != null) {
            node.save(t == null ? null : new Variable(t), false);
        }
        return this;
    }

    Op saveOutput() {
        if (node != null) {
            outputSlot = node.reserve();
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
        Variable v = new Variable(out, node);
        if (outputSlot >= 0) {
            node.fillOutput(outputSlot, v);
        }
        return v;
    }

    /**
     * Ends the recording of a view op whose output is {@code region} of its input: backward passes
     * the output's gradient on unchanged and the engine adds it into that region (see {@link Node#region}).
     */
    Variable backwardInto(Node.Region region) {
        Variable v = backward((g, n) -> new Variable[] {g});
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
            if (outputSlot >= 0) {
                node.fillOutput(outputSlot, self);
            }
        }
        return self;
    }

    private void checkForward() {
        if (allowNonFinite || Anomaly.inBackward() || !out.isFloatingPoint() || out.allFinite()) {
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
