package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** {@code nn.ELU(alpha)}: x where x &gt; 0, {@code alpha (e^x - 1)} elsewhere. */
public class ELU extends Layer {
    private final double alpha;

    /** PyTorch's default alpha, 1. */
    public ELU() {
        this(1.0);
    }

    public ELU(double alpha) {
        if (!Double.isFinite(alpha)) {
            throw new IllegalArgumentException("ELU: alpha must be a finite number, got " + alpha);
        }
        this.alpha = alpha;
    }

    @Override
    public Variable forward(Variable x) {
        return x.elu(alpha);
    }

    @Override
    protected String extraRepr() {
        return "alpha=" + alpha;
    }
}
