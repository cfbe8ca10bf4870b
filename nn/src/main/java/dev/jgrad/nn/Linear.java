package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Generator;

/**
 * {@code y = x W^T + b}, as {@code nn.Linear}: weight (out, in) Kaiming-uniform, bias (out) uniform, both
 * with bound 1/sqrt(in), PyTorch's default initialisation.
 */
public class Linear extends Layer {
    /** The weight {@code (out_features, in_features)}. */
    public final Parameter weight;
    /** The bias {@code (out_features)}; null without one. */
    public final Parameter bias;
    private final int inFeatures;
    private final int outFeatures;

    /** {@code y = x W^T + b}, drawing the weights from the default generator. */
    public Linear(int inFeatures, int outFeatures) {
        this(inFeatures, outFeatures, true, Init.defaultGenerator());
    }

    /** {@code y = x W^T (+ b)}, drawing the weights from the default generator. */
    public Linear(int inFeatures, int outFeatures, boolean bias) {
        this(inFeatures, outFeatures, bias, Init.defaultGenerator());
    }

    /** {@code y = x W^T (+ b)}, the weights drawn from {@code gen} as PyTorch initialises them (kaiming uniform). */
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

    /**
     * A linear layer around a weight {@code (out, in)} that another module owns (weight tying: GPT's {@code lm_head}
     * and its token embedding). The parameter is registered here too; a state dict stores it once, under the name it
     * was first reached by, as PyTorch's {@code state_dict} and Hugging Face's files do.
     */
    public Linear(Parameter tiedWeight, Parameter bias) {
        if (tiedWeight.dim() != 2) {
            throw new IllegalArgumentException("Linear: a tied weight must be (out, in), got " + java.util.Arrays.toString(tiedWeight.shape()));
        }
        this.outFeatures = tiedWeight.size(0);
        this.inFeatures = tiedWeight.size(1);
        this.weight = registerParameter("weight", tiedWeight);
        this.bias = registerParameter("bias", bias);
    }

    @Override
    public Variable forward(Variable x) {
        return Variable.linear(x, weight, bias);
    }

    /** The size of each input's last dim. */
    public int inFeatures() {
        return inFeatures;
    }

    /** The size of each output's last dim. */
    public int outFeatures() {
        return outFeatures;
    }

    @Override
    protected String extraRepr() {
        return "in_features=" + inFeatures + ", out_features=" + outFeatures + ", bias=" + (bias != null ? "True" : "False");
    }
}
