package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** {@code nn.Softplus()}: {@code log(1 + e^x)}, x itself above 20 (PyTorch's default beta 1 and threshold 20). */
public class Softplus extends Layer {
    @Override
    public Variable forward(Variable x) {
        return x.softplus();
    }
}
