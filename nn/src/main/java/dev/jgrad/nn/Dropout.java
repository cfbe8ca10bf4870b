package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Generator;

/** {@code nn.Dropout(p)}: random zeros and 1/(1-p) scaling in training, the identity in eval. */
public class Dropout extends Layer {
    private final double p;
    private final Generator gen;

    /** Dropout with probability {@code p}, drawing from the default generator. */
    public Dropout(double p) {
        this(p, Init.defaultGenerator());
    }

    /** Dropout with probability {@code p}, drawing from {@code gen}. */
    public Dropout(double p, Generator gen) {
        Functional.checkDropoutProbability(p);
        this.p = p;
        this.gen = gen;
    }

    @Override
    public Variable forward(Variable x) {
        return Functional.dropout(x, p, isTraining(), gen);
    }

    /** The generator the masks are drawn from (its state goes into a run's checkpoint, so a resumed run draws on). */
    public Generator generator() {
        return gen;
    }

    @Override
    protected String extraRepr() {
        return "p=" + p;
    }
}
