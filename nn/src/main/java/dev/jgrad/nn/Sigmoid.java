package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** Logistic sigmoid, 1 / (1 + exp(-x)). */
public class Sigmoid extends Layer {
    @Override
    public Variable forward(Variable x) {
        return x.sigmoid();
    }
}
