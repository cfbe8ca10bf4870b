package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** A module with one input and one output, the kind a {@link Sequential} chains. */
public abstract class Layer extends Module {
    public abstract Variable forward(Variable x);
}
