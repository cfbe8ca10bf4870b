package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Generator;

/**
 * {@code nn.GRU}: gates r, z, n in PyTorch's order and parameter names. {@code forward} returns the output
 * and {@code h_n} as a {@link Recurrent.State} (whose cell is null).
 */
public class GRU extends RecurrentLayer {
    /** A one-layer GRU, sequence first, with biases. */
    public GRU(int inputSize, int hiddenSize) {
        this(inputSize, hiddenSize, 1, true, false, 0.0, Init.defaultGenerator());
    }

    /** A GRU of {@code numLayers} layers, batch first or not, with biases. */
    public GRU(int inputSize, int hiddenSize, int numLayers, boolean batchFirst) {
        this(inputSize, hiddenSize, numLayers, true, batchFirst, 0.0, Init.defaultGenerator());
    }

    /** {@code nn.GRU} with every option; its weights drawn from {@code gen}. */
    public GRU(int inputSize, int hiddenSize, int numLayers, boolean bias, boolean batchFirst, double dropout, Generator gen) {
        super(3, inputSize, hiddenSize, numLayers, bias, batchFirst, dropout, gen);
    }

    /** From a zero state. */
    public Recurrent.State forward(Variable x) {
        return run(x, null, null);
    }

    /** From {@code h0} of size {@code (num_layers, B, H)}. */
    public Recurrent.State forward(Variable x, Variable h0) {
        return run(x, h0, null);
    }

    @Override
    Recurrent.State layer(Variable x, Variable h0, Variable c0, Parameter[] p) {
        return Recurrent.gru(x, h0, p[0], p[1], p[2], p[3]);
    }

    @Override
    boolean hasCell() {
        return false;
    }
}
