package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** {@code nn.AvgPool2d}: input {@code (N, C, H, W)} or {@code (C, H, W)}; the stride defaults to the kernel size. */
public class AvgPool2d extends Layer {
    private final int[] kernel;
    private final int[] stride;
    private final int[] padding;
    private final boolean ceilMode;
    private final boolean countIncludePad;

    /** Average pooling over {@code kernelSize x kernelSize} windows at a stride of the kernel's size, no padding. */
    public AvgPool2d(int kernelSize) {
        this(ConvLayer.twice(kernelSize), ConvLayer.twice(kernelSize), ConvLayer.twice(0), false, true);
    }

    /** {@code nn.AvgPool2d} with its (height, width) pairs, ceil mode and whether padding counts in the average. */
    public AvgPool2d(int[] kernelSize, int[] stride, int[] padding, boolean ceilMode, boolean countIncludePad) {
        this.kernel = kernelSize.clone();
        this.stride = stride.clone();
        this.padding = padding.clone();
        this.ceilMode = ceilMode;
        this.countIncludePad = countIncludePad;
    }

    @Override
    public Variable forward(Variable x) {
        return Pooling.avgPool2d(x, kernel, stride, padding, ceilMode, countIncludePad);
    }

    @Override
    protected String extraRepr() {
        return "kernel_size=" + ConvLayer.tuple(kernel) + ", stride=" + ConvLayer.tuple(stride) + ", padding=" + ConvLayer.tuple(padding);
    }
}
