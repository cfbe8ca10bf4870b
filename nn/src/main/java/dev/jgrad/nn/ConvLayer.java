package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Generator;

import java.util.Arrays;

/**
 * What {@link Conv1d} and {@link Conv2d} share, as PyTorch's {@code _ConvNd}: weight
 * {@code (out, in / groups, *kernel)} and bias {@code (out)}, both uniform with bound
 * {@code 1 / sqrt(in / groups * prod(kernel))}, PyTorch's default initialisation.
 */
public abstract class ConvLayer extends Layer {
    /** The weight {@code (out_channels, in_channels / groups, *kernel)}. */
    public final Parameter weight;
    /** The bias {@code (out_channels)}; null without one. */
    public final Parameter bias;
    private final int inChannels;
    private final int outChannels;
    private final int[] kernel;
    private final int[] stride;
    private final int[] padding;
    private final int[] dilation;
    private final int groups;

    ConvLayer(int inChannels, int outChannels, int[] kernel, int[] stride, int[] padding, int[] dilation, int groups,
              boolean bias, Generator gen) {
        String name = getClass().getSimpleName();
        if (inChannels <= 0 || outChannels <= 0) {
            throw new IllegalArgumentException(name + ": in_channels and out_channels must be positive, got " + inChannels
                    + " and " + outChannels);
        }
        if (groups <= 0 || inChannels % groups != 0 || outChannels % groups != 0) {
            throw new IllegalArgumentException(name + ": in_channels (" + inChannels + ") and out_channels (" + outChannels
                    + ") must both be divisible by groups (" + groups + ")");
        }
        for (int k : kernel) {
            if (k <= 0) {
                throw new IllegalArgumentException(name + ": kernel_size must be positive, got " + Arrays.toString(kernel));
            }
        }
        Convolution.checkParams(name, kernel.length, stride, padding, dilation);
        this.inChannels = inChannels;
        this.outChannels = outChannels;
        this.kernel = kernel.clone();
        this.stride = stride.clone();
        this.padding = padding.clone();
        this.dilation = dilation.clone();
        this.groups = groups;
        int fanIn = inChannels / groups;
        for (int k : kernel) {
            fanIn *= k;
        }
        int[] shape = new int[kernel.length + 2];
        shape[0] = outChannels;
        shape[1] = inChannels / groups;
        System.arraycopy(kernel, 0, shape, 2, kernel.length);
        this.weight = registerParameter("weight", new Parameter(Init.kaimingUniform(gen, fanIn, shape)));
        this.bias = registerParameter("bias", bias ? new Parameter(Init.uniform(gen, Init.fanInBound(fanIn), outChannels)) : null);
    }

    @Override
    public Variable forward(Variable x) {
        return Convolution.conv(x, weight, bias, stride, padding, dilation, groups, kernel.length);
    }

    /** The input's channels. */
    public int inChannels() {
        return inChannels;
    }

    /** The output's channels. */
    public int outChannels() {
        return outChannels;
    }

    @Override
    protected String extraRepr() {
        return inChannels + ", " + outChannels + ", kernel_size=" + tuple(kernel) + ", stride=" + tuple(stride)
                + (Arrays.stream(padding).allMatch(p -> p == 0) ? "" : ", padding=" + tuple(padding))
                + (Arrays.stream(dilation).allMatch(d -> d == 1) ? "" : ", dilation=" + tuple(dilation))
                + (groups == 1 ? "" : ", groups=" + groups) + (bias == null ? ", bias=False" : "");
    }

    static String tuple(int[] v) {
        StringBuilder b = new StringBuilder("(");
        for (int i = 0; i < v.length; i++) {
            b.append(i == 0 ? "" : ", ").append(v[i]);
        }
        return b.append(v.length == 1 ? ",)" : ")").toString();
    }

    static int[] twice(int v) {
        return new int[] {v, v};
    }
}
