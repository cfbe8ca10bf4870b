package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Generator;

/**
 * {@code y = x W^T + b}, as {@code nn.Linear}: weight (out, in) Kaiming-uniform, bias (out) uniform, both
 * with bound 1/sqrt(in), PyTorch's default initialisation.
 */
public class Linear extends Layer {
    public final Parameter weight;
    public final Parameter bias;
    private final int inFeatures;
    private final int outFeatures;

    public Linear(int inFeatures, int outFeatures) {
        this(inFeatures, outFeatures, true, Init.defaultGenerator());
    }

    public Linear(int inFeatures, int outFeatures, boolean bias) {
        this(inFeatures, outFeatures, bias, Init.defaultGenerator());
    }

    public Linear(int inFeatures, int outFeatures, boolean bias, Generator gen) {
        if (inFeatures < 0 || outFeatures < 0) {
            throw new IllegalArgumentException("Linear: feature counts must be >= 0, got in=" + inFeatures + ", out=" + outFeatures);
        }
        this.inFeatures = inFeatures;
        this.outFeatures = outFeatures;
        this.weight = registerParameter("weight", new Parameter(Init.kaimingUniform(gen, inFeatures, outFeatures, inFeatures)));
        this.bias = registerParameter("bias", bias
                ? new Parameter(Init.uniform(gen, Init.fanInBound(inFeatures), outFeatures)) : null);
    }

    @Override
    public Variable forward(Variable x) {
        return Variable.linear(x, weight, bias);
    }

    public int inFeatures() {
        return inFeatures;
    }

    public int outFeatures() {
        return outFeatures;
    }

    @Override
    protected String extraRepr() {
        return "in_features=" + inFeatures + ", out_features=" + outFeatures + ", bias=" + (bias != null ? "True" : "False");
    }
}
