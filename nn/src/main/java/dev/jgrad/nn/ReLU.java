package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** Rectified linear unit, max(x, 0). */
public class ReLU extends Layer {
    @Override
    public Variable forward(Variable x) {
        return x.relu();
    }
}
