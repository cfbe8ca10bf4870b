package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** x * sigmoid(x), also called swish. */
public class SiLU extends Layer {
    @Override
    public Variable forward(Variable x) {
        return x.silu();
    }
}
