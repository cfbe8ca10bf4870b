package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** {@code nn.LogSoftmax(dim)}: log-probabilities along {@code dim}, as {@code nll_loss} takes them. */
public class LogSoftmax extends Layer {
    private final int dim;

    public LogSoftmax(int dim) {
        this.dim = dim;
    }

    @Override
    public Variable forward(Variable x) {
        return x.logSoftmax(dim);
    }

    @Override
    protected String extraRepr() {
        return "dim=" + dim;
    }
}
