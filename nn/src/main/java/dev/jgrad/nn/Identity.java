package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** {@code nn.Identity()}: its input, unchanged: a placeholder where a model's variant has no layer. */
public class Identity extends Layer {
    @Override
    public Variable forward(Variable x) {
        return x;
    }
}
