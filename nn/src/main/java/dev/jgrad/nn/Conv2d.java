package dev.jgrad.nn;

import dev.jgrad.tensor.Generator;

/** {@code nn.Conv2d}: input {@code (N, C, H, W)} or {@code (C, H, W)}; sizes are (height, width) pairs or one int for both. */
public class Conv2d extends ConvLayer {
    /** A 2-d convolution with a square kernel, stride 1, no padding, biases. */
    public Conv2d(int inChannels, int outChannels, int kernelSize) {
        this(inChannels, outChannels, kernelSize, 1, 0);
    }

    /** A 2-d convolution with a square kernel, the given stride and zero padding, biases. */
    public Conv2d(int inChannels, int outChannels, int kernelSize, int stride, int padding) {
        this(inChannels, outChannels, twice(kernelSize), twice(stride), twice(padding), twice(1), 1, true, Init.defaultGenerator());
    }

    /** {@code nn.Conv2d} with (height, width) pairs; its weights drawn from {@code gen}. */
    public Conv2d(int inChannels, int outChannels, int[] kernelSize, int[] stride, int[] padding, int[] dilation, int groups,
                  boolean bias, Generator gen) {
        super(inChannels, outChannels, kernelSize, stride, padding, dilation, groups, bias, gen);
    }
}
