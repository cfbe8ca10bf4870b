package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** {@code nn.Softmax(dim)}: probabilities along {@code dim}. */
public class Softmax extends Layer {
    private final int dim;

    public Softmax(int dim) {
        this.dim = dim;
    }

    @Override
    public Variable forward(Variable x) {
        return x.softmax(dim);
    }

    @Override
    protected String extraRepr() {
        return "dim=" + dim;
    }
}
