package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** {@code nn.LeakyReLU(negative_slope)}: x where x &gt; 0, {@code negativeSlope * x} elsewhere. */
public class LeakyReLU extends Layer {
    private final double negativeSlope;

    /** PyTorch's default slope, 0.01. */
    public LeakyReLU() {
        this(0.01);
    }

    public LeakyReLU(double negativeSlope) {
        if (!Double.isFinite(negativeSlope)) {
            throw new IllegalArgumentException("LeakyReLU: negativeSlope must be a finite number, got " + negativeSlope);
        }
        this.negativeSlope = negativeSlope;
    }

    @Override
    public Variable forward(Variable x) {
        return x.leakyRelu(negativeSlope);
    }

    @Override
    protected String extraRepr() {
        return "negative_slope=" + negativeSlope;
    }
}
