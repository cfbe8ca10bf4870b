package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@link LSTM} and {@link GRU} share, as PyTorch's {@code RNNBase}: per layer {@code l} the parameters
 * {@code weight_ih_l<l>} {@code (G H, in)}, {@code weight_hh_l<l>} {@code (G H, H)}, {@code bias_ih_l<l>} and
 * {@code bias_hh_l<l>} {@code (G H)}, all uniform in {@code [-1/sqrt(H), 1/sqrt(H)]}; the input is
 * {@code (T, B, in)}, or {@code (B, T, in)} with batch_first, or unbatched {@code (T, in)}; the states are
 * {@code (num_layers, B, H)} (unbatched: {@code (num_layers, H)}) and zeros when not given. Dropout, when
 * non-zero, applies to each layer's output but the last in training, as in PyTorch.
 */
public abstract class RecurrentLayer extends Module {
    private final int inputSize;
    private final int hiddenSize;
    private final int numLayers;
    private final boolean batchFirst;
    private final double dropout;
    private final Generator gen;
    private final List<Parameter[]> layers = new ArrayList<>();

    RecurrentLayer(int gates, int inputSize, int hiddenSize, int numLayers, boolean bias, boolean batchFirst, double dropout,
                   Generator gen) {
        String name = getClass().getSimpleName();
        if (inputSize <= 0 || hiddenSize <= 0 || numLayers <= 0) {
            throw new IllegalArgumentException(name + ": input_size, hidden_size and num_layers must be positive, got "
                    + inputSize + ", " + hiddenSize + ", " + numLayers);
        }
        Functional.checkDropoutProbability(dropout);
        this.inputSize = inputSize;
        this.hiddenSize = hiddenSize;
        this.numLayers = numLayers;
        this.batchFirst = batchFirst;
        this.dropout = dropout;
        this.gen = gen;
        double bound = 1.0 / Math.sqrt(hiddenSize);
        for (int l = 0; l < numLayers; l++) {
            int in = l == 0 ? inputSize : hiddenSize;
            Parameter[] p = new Parameter[4];
            p[0] = registerParameter("weight_ih_l" + l, new Parameter(Init.uniform(gen, bound, gates * hiddenSize, in)));
            p[1] = registerParameter("weight_hh_l" + l, new Parameter(Init.uniform(gen, bound, gates * hiddenSize, hiddenSize)));
            if (bias) {
                p[2] = registerParameter("bias_ih_l" + l, new Parameter(Init.uniform(gen, bound, gates * hiddenSize)));
                p[3] = registerParameter("bias_hh_l" + l, new Parameter(Init.uniform(gen, bound, gates * hiddenSize)));
            }
            layers.add(p);
        }
    }

    /** One layer over a batch-first {@code (B, T, in)} input from states {@code (B, H)}; {@code c0} is null for a GRU. */
    abstract Recurrent.State layer(Variable x, Variable h0, Variable c0, Parameter[] p);

    abstract boolean hasCell();

    /**
     * Runs every layer: {@code output} is the last layer's hidden state at every step (in the input's layout),
     * {@code hidden} (and for an LSTM {@code cell}) the last step's state of every layer.
     */
    Recurrent.State run(Variable x, Variable h0, Variable c0) {
        String name = getClass().getSimpleName();
        if (x.dim() != 2 && x.dim() != 3) {
            throw new ShapeException(name + ": Expected input to be 2D (unbatched) or 3D (batched), got " + x.dim()
                    + "D input of size " + Shape.str(x.shape()));
        }
        boolean unbatched = x.dim() == 2;
        Variable in = unbatched ? x.unsqueeze(0) : (batchFirst ? x : x.transpose(0, 1));
        if (in.size(2) != inputSize) {
            throw new ShapeException(name + ": input.size(-1) must be equal to input_size. Expected " + inputSize + ", got "
                    + in.size(2));
        }
        int batch = in.size(0);
        Variable h = state("h0", h0, unbatched, batch, in);
        Variable c = hasCell() ? state("c0", c0, unbatched, batch, in) : null;
        List<Variable> hs = new ArrayList<>();
        List<Variable> cs = new ArrayList<>();
        for (int l = 0; l < numLayers; l++) {
            Recurrent.State r = layer(in, h.select(0, l), c == null ? null : c.select(0, l), layers.get(l));
            hs.add(r.hidden());
            cs.add(r.cell());
            in = r.output();
            if (dropout > 0 && l < numLayers - 1) {
                in = Functional.dropout(in, dropout, isTraining(), gen);
            }
        }
        Variable hn = Variable.stack(hs, 0);
        Variable cn = c == null ? null : Variable.stack(cs, 0);
        if (unbatched) {
            return new Recurrent.State(in.squeeze(0), hn.squeeze(1), cn == null ? null : cn.squeeze(1));
        }
        return new Recurrent.State(batchFirst ? in : in.transpose(0, 1), hn, cn);
    }

    private Variable state(String what, Variable s, boolean unbatched, int batch, Variable like) {
        if (s == null) {
            return Variable.of(Tensor.zeros(like.dtype(), numLayers, batch, hiddenSize));
        }
        int[] want = unbatched ? new int[] {numLayers, hiddenSize} : new int[] {numLayers, batch, hiddenSize};
        if (!java.util.Arrays.equals(s.shape(), want)) {
            throw new ShapeException(getClass().getSimpleName() + ": expected " + what + " of size " + Shape.str(want)
                    + " (num_layers, batch, hidden_size), got " + Shape.str(s.shape()));
        }
        return unbatched ? s.unsqueeze(1) : s;
    }

    /** The size of the hidden state. */
    public int hiddenSize() {
        return hiddenSize;
    }

    /** The number of stacked layers. */
    public int numLayers() {
        return numLayers;
    }

    @Override
    protected String extraRepr() {
        return inputSize + ", " + hiddenSize + (numLayers == 1 ? "" : ", num_layers=" + numLayers)
                + (layers.get(0)[2] == null ? ", bias=False" : "") + (batchFirst ? ", batch_first=True" : "")
                + (dropout == 0 ? "" : ", dropout=" + dropout);
    }
}
