package dev.jgrad.tensor;

import java.util.Arrays;

/**
 * Constant padding, as {@code F.pad(x, pad, value=v)}: {@code pad} lists (before, after) pairs from the
 * last dim backwards; negative amounts crop. The result is new; the input's region in it is one copy.
 */
final class Padding {
    private Padding() {
    }

    /** The shape {@code pad} gives, checked with PyTorch's messages. */
    static int[] paddedShape(int[] shape, int[] pad) {
        if (pad.length % 2 != 0) {
            throw new ShapeException("Padding length must be divisible by 2, got " + pad.length + " values " + Arrays.toString(pad));
        }
        if (pad.length / 2 > shape.length) {
            throw new ShapeException("Padding length too large: " + pad.length + " values pad " + pad.length / 2
                    + " dims, but the input of shape " + Shape.str(shape) + " has " + shape.length);
        }
        int[] out = shape.clone();
        for (int i = 0; i < pad.length / 2; i++) {
            int d = shape.length - 1 - i;
            long size = (long) shape[d] + pad[2 * i] + pad[2 * i + 1];
            if (size < 0 || size > Integer.MAX_VALUE) {
                throw new ShapeException("The input size " + shape[d] + ", plus negative padding " + pad[2 * i] + " and "
                        + pad[2 * i + 1] + " resulted in a negative output size, which is invalid. Check dimension " + d
                        + " of your input of shape " + Shape.str(shape) + ".");
            }
            out[d] = (int) size;
        }
        return out;
    }

    static Tensor constant(Tensor x, int[] pad, double value) {
        int[] shape = paddedShape(x.shape, pad);
        Tensor out = Tensor.full(value, x.dtype(), shape);
        Tensor region = out;
        Tensor src = x;
        for (int i = 0; i < pad.length / 2; i++) {
            int d = x.shape.length - 1 - i;
            int before = pad[2 * i];
            int after = pad[2 * i + 1];
            int kept = x.shape[d] + Math.min(before, 0) + Math.min(after, 0);
            if (kept <= 0) {
                return out;
            }
            region = Views.slice(region, d, Math.max(before, 0), Math.max(before, 0) + kept, 1);
            src = Views.slice(src, d, Math.max(-before, 0), Math.max(-before, 0) + kept, 1);
        }
        Elementwise.copy(src, region);
        return out;
    }
}
