package dev.jgrad.nn;

import dev.jgrad.tensor.Generator;

/** {@code nn.Conv1d}: input {@code (N, C, L)} or {@code (C, L)}. */
public class Conv1d extends ConvLayer {
    /** A 1-d convolution with stride 1, no padding, biases. */
    public Conv1d(int inChannels, int outChannels, int kernelSize) {
        this(inChannels, outChannels, kernelSize, 1, 0, 1, 1, true, Init.defaultGenerator());
    }

    /** A 1-d convolution with the given stride and zero padding, biases. */
    public Conv1d(int inChannels, int outChannels, int kernelSize, int stride, int padding) {
        this(inChannels, outChannels, kernelSize, stride, padding, 1, 1, true, Init.defaultGenerator());
    }

    /** {@code nn.Conv1d} with every option; its weights drawn from {@code gen}. */
    public Conv1d(int inChannels, int outChannels, int kernelSize, int stride, int padding, int dilation, int groups,
                  boolean bias, Generator gen) {
        super(inChannels, outChannels, new int[] {kernelSize}, new int[] {stride}, new int[] {padding}, new int[] {dilation},
                groups, bias, gen);
    }
}
