package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** {@code nn.Mish()}: {@code x tanh(softplus(x))}. */
public class Mish extends Layer {
    @Override
    public Variable forward(Variable x) {
        return x.mish();
    }
}
