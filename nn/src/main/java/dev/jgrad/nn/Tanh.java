package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** Hyperbolic tangent. */
public class Tanh extends Layer {
    @Override
    public Variable forward(Variable x) {
        return x.tanh();
    }
}
