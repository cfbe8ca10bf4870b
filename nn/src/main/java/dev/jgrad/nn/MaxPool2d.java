package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** {@code nn.MaxPool2d}: input {@code (N, C, H, W)} or {@code (C, H, W)}; the stride defaults to the kernel size. */
public class MaxPool2d extends Layer {
    private final int[] kernel;
    private final int[] stride;
    private final int[] padding;
    private final int[] dilation;
    private final boolean ceilMode;

    /** Max pooling over {@code kernelSize x kernelSize} windows at a stride of the kernel's size. */
    public MaxPool2d(int kernelSize) {
        this(kernelSize, kernelSize);
    }

    /** Max pooling over {@code kernelSize x kernelSize} windows at {@code stride}. */
    public MaxPool2d(int kernelSize, int stride) {
        this(ConvLayer.twice(kernelSize), ConvLayer.twice(stride), ConvLayer.twice(0), ConvLayer.twice(1), false);
    }

    /** {@code nn.MaxPool2d} with (height, width) pairs and ceil mode. */
    public MaxPool2d(int[] kernelSize, int[] stride, int[] padding, int[] dilation, boolean ceilMode) {
        this.kernel = kernelSize.clone();
        this.stride = stride.clone();
        this.padding = padding.clone();
        this.dilation = dilation.clone();
        this.ceilMode = ceilMode;
    }

    @Override
    public Variable forward(Variable x) {
        return Pooling.maxPool2d(x, kernel, stride, padding, dilation, ceilMode);
    }

    @Override
    protected String extraRepr() {
        return "kernel_size=" + ConvLayer.tuple(kernel) + ", stride=" + ConvLayer.tuple(stride) + ", padding="
                + ConvLayer.tuple(padding) + ", dilation=" + ConvLayer.tuple(dilation) + ", ceil_mode=" + (ceilMode ? "True" : "False");
    }
}
