package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

/** {@code nn.MaxPool1d}: input {@code (N, C, L)} or {@code (C, L)}; the stride defaults to the kernel size. */
public class MaxPool1d extends Layer {
    private final int kernel;
    private final int stride;
    private final int padding;
    private final int dilation;
    private final boolean ceilMode;

    /** Max pooling over windows of {@code kernelSize} at a stride of the kernel's size. */
    public MaxPool1d(int kernelSize) {
        this(kernelSize, kernelSize, 0, 1, false);
    }

    /** {@code nn.MaxPool1d} with every option. */
    public MaxPool1d(int kernelSize, int stride, int padding, int dilation, boolean ceilMode) {
        this.kernel = kernelSize;
        this.stride = stride;
        this.padding = padding;
        this.dilation = dilation;
        this.ceilMode = ceilMode;
    }

    @Override
    public Variable forward(Variable x) {
        return Pooling.maxPool1d(x, kernel, stride, padding, dilation, ceilMode);
    }

    @Override
    protected String extraRepr() {
        return "kernel_size=" + kernel + ", stride=" + stride + ", padding=" + padding + ", dilation=" + dilation
                + ", ceil_mode=" + (ceilMode ? "True" : "False");
    }
}
