package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** GELU, exact ({@code x * Phi(x)}) or with the tanh approximation, as {@code nn.GELU(approximate=...)}. */
public class GELU extends Layer {
    private final boolean tanh;

    /** GELU with the exact erf form. */
    public GELU() {
        this(false);
    }

    /** GELU, with {@code tanhApproximation} the tanh form ({@code approximate='tanh'}). */
    public GELU(boolean tanhApproximation) {
        this.tanh = tanhApproximation;
    }

    @Override
    public Variable forward(Variable x) {
        return x.gelu(tanh);
    }

    @Override
    protected String extraRepr() {
        return tanh ? "approximate='tanh'" : "";
    }
}
