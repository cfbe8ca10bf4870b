package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Generator;

/**
 * {@code nn.LSTM}: gates i, f, g, o in PyTorch's order and parameter names, so a state dict moves between
 * the two. {@code forward} returns the output and {@code (h_n, c_n)} as a {@link Recurrent.State}.
 */
public class LSTM extends RecurrentLayer {
    /** A one-layer LSTM, sequence first, with biases. */
    public LSTM(int inputSize, int hiddenSize) {
        this(inputSize, hiddenSize, 1, true, false, 0.0, Init.defaultGenerator());
    }

    /** An LSTM of {@code numLayers} layers, batch first or not, with biases. */
    public LSTM(int inputSize, int hiddenSize, int numLayers, boolean batchFirst) {
        this(inputSize, hiddenSize, numLayers, true, batchFirst, 0.0, Init.defaultGenerator());
    }

    /** {@code nn.LSTM} with every option; its weights drawn from {@code gen}. */
    public LSTM(int inputSize, int hiddenSize, int numLayers, boolean bias, boolean batchFirst, double dropout, Generator gen) {
        super(4, inputSize, hiddenSize, numLayers, bias, batchFirst, dropout, gen);
    }

    /** From zero states. */
    public Recurrent.State forward(Variable x) {
        return run(x, null, null);
    }

    /** From {@code h0} and {@code c0} of size {@code (num_layers, B, H)}. */
    public Recurrent.State forward(Variable x, Variable h0, Variable c0) {
        return run(x, h0, c0);
    }

    @Override
    Recurrent.State layer(Variable x, Variable h0, Variable c0, Parameter[] p) {
        return Recurrent.lstm(x, h0, c0, p[0], p[1], p[2], p[3]);
    }

    @Override
    boolean hasCell() {
        return true;
    }
}
