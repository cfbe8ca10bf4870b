package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** A module with one input and one output, the kind a {@link Sequential} chains. */
public abstract class Layer extends Module {
    /** The output for input {@code x}; recorded for backward where x or the layer's parameters require gradients. */
    public abstract Variable forward(Variable x);
}
