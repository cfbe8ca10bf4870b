package dev.jgrad.autograd;

/** Where an input's gradient goes: the node that produced the input, or the leaf that accumulates it. */
final class Edge {
    final Node node;
    final Variable leaf;

    private Edge(Node node, Variable leaf) {
        this.node = node;
        this.leaf = leaf;
    }

    /** The edge to an input, or null where the input needs no gradient. */
    static Edge to(Variable v) {
        if (!v.requiresGrad()) {
            return null;
        }
        return v.gradFn != null ? new Edge(v.gradFn, null) : new Edge(null, v);
    }
}
