package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** {@code nn.AdaptiveAvgPool2d(output_size)}: averages over windows that tile the input into the given output size. */
public class AdaptiveAvgPool2d extends Layer {
    private final int outH;
    private final int outW;

    /** Average pooling to an {@code outputSize x outputSize} output, whatever the input's size. */
    public AdaptiveAvgPool2d(int outputSize) {
        this(outputSize, outputSize);
    }

    /** Average pooling to an {@code outH x outW} output, whatever the input's size. */
    public AdaptiveAvgPool2d(int outH, int outW) {
        if (outH <= 0 || outW <= 0) {
            throw new IllegalArgumentException("AdaptiveAvgPool2d: output_size must be positive, got (" + outH + ", " + outW + ")");
        }
        this.outH = outH;
        this.outW = outW;
    }

    @Override
    public Variable forward(Variable x) {
        return Pooling.adaptiveAvgPool2d(x, outH, outW);
    }

    @Override
    protected String extraRepr() {
        return "output_size=(" + outH + ", " + outW + ")";
    }
}
