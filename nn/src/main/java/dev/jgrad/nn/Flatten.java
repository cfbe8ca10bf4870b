package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** {@code nn.Flatten(start_dim=1, end_dim=-1)}: a batch of feature maps to a batch of vectors. */
public class Flatten extends Layer {
    private final int startDim;
    private final int endDim;

    /** {@code nn.Flatten()}: every dim from 1 on into one. */
    public Flatten() {
        this(1, -1);
    }

    /** Dims {@code startDim} to {@code endDim} (inclusive; negative from the end) into one. */
    public Flatten(int startDim, int endDim) {
        this.startDim = startDim;
        this.endDim = endDim;
    }

    @Override
    public Variable forward(Variable x) {
        return x.flatten(startDim, endDim);
    }

    @Override
    protected String extraRepr() {
        return "start_dim=" + startDim + ", end_dim=" + endDim;
    }
}
