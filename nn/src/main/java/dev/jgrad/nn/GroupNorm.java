package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Tensor;

/** {@code nn.GroupNorm(num_groups, num_channels)}: weight (ones) and bias (zeros) per channel when affine. */
public class GroupNorm extends Layer {
    /** The per-channel scale; null without {@code affine}. */
    public final Parameter weight;
    /** The per-channel shift; null without {@code affine}. */
    public final Parameter bias;
    private final int numGroups;
    private final int numChannels;
    private final double eps;

    /** Group norm of {@code numChannels} channels in {@code numGroups} groups, eps 1e-5, affine. */
    public GroupNorm(int numGroups, int numChannels) {
        this(numGroups, numChannels, 1e-5, true);
    }

    /** {@code nn.GroupNorm}: statistics over each group of channels and the positions. */
    public GroupNorm(int numGroups, int numChannels, double eps, boolean affine) {
        if (numGroups <= 0 || numChannels % numGroups != 0) {
            throw new IllegalArgumentException("GroupNorm: num_channels must be divisible by num_groups, got num_channels="
                    + numChannels + ", num_groups=" + numGroups);
        }
        this.numGroups = numGroups;
        this.numChannels = numChannels;
        this.eps = eps;
        this.weight = registerParameter("weight", affine ? new Parameter(Tensor.ones(numChannels)) : null);
        this.bias = registerParameter("bias", affine ? new Parameter(Tensor.zeros(numChannels)) : null);
    }

    @Override
    public Variable forward(Variable x) {
        return Normalization.groupNorm(x, numGroups, weight, bias, eps);
    }

    @Override
    protected String extraRepr() {
        return numGroups + ", " + numChannels + ", eps=" + eps + ", affine=" + (weight != null ? "True" : "False");
    }
}
