package dev.jgrad.tensor.internal.kernels;

/**
 * A 2-d convolution's geometry as (height, width) pairs: kernel, stride, padding, dilation; and the output's size. What
 * the fused convolution and its pieces ({@link ConvolutionKernels}) are planned and run from.
 */
public record ConvGeometry(int kh, int kw, int sh, int sw, int ph, int pw, int dh, int dw, int oh, int ow) {
    /** The geometry from the layer's pairs: {@code kernel}, {@code stride}, {@code padding}, {@code dilation}, {@code out}. */
    public static ConvGeometry of(int[] kernel, int[] stride, int[] padding, int[] dilation, int[] out) {
        return new ConvGeometry(kernel[0], kernel[1], stride[0], stride[1], padding[0], padding[1], dilation[0], dilation[1], out[0], out[1]);
    }

    /** Output positions per plane. */
    public int positions() {
        return oh * ow;
    }

    /** The same windows over an input whose padding is written out: no padding. */
    public ConvGeometry unpadded() {
        return new ConvGeometry(kh, kw, sh, sw, 0, 0, dh, dw, oh, ow);
    }

    /** The first output column j whose input column {@code x0 + j * stride} is not left of the input. */
    public static int firstInside(int x0, int stride) {
        return x0 >= 0 ? 0 : (-x0 + stride - 1) / stride;
    }

    /** One past the last output column j (at most {@code ow}) whose input column {@code x0 + j * stride} is inside {@code [0, w)}. */
    public static int endInside(int x0, int stride, int w, int ow) {
        return x0 >= w ? 0 : Math.min(ow, (w - 1 - x0) / stride + 1);
    }
}
