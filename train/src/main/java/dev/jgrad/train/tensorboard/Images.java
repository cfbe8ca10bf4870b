package dev.jgrad.train.tensorboard;

import dev.jgrad.tensor.Tensor;
import java.awt.image.BufferedImage;

/** Tensors as images, as PyTorch's {@code add_image} reads them: {@code (C, H, W)}, values in [0, 1]. */
final class Images {
    private Images() {
    }

    /** A (C, H, W) tensor of 1, 3 or 4 channels as a grey, RGB or RGBA image; values clipped to [0, 1]. */
    static BufferedImage fromChw(Tensor chw) {
        int c = chw.shape()[0];
        int h = chw.shape()[1];
        int w = chw.shape()[2];
        float[] v = chw.toFloatArray();
        int type = c == 1 ? BufferedImage.TYPE_BYTE_GRAY : c == 3 ? BufferedImage.TYPE_INT_RGB : BufferedImage.TYPE_INT_ARGB;
        BufferedImage img = new BufferedImage(w, h, type);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int at = y * w + x;
                if (c == 1) {
                    int g = byteOf(v[at]);
                    img.getRaster().setSample(x, y, 0, g);
                } else {
                    int r = byteOf(v[at]);
                    int g = byteOf(v[h * w + at]);
                    int b = byteOf(v[2 * h * w + at]);
                    int a = c == 4 ? byteOf(v[3 * h * w + at]) : 255;
                    img.setRGB(x, y, a << 24 | r << 16 | g << 8 | b);
                }
            }
        }
        return img;
    }

    /** [0, 1] to [0, 255] as PyTorch converts a float image: scaled, clipped and truncated (NaN as 0). */
    private static int byteOf(float f) {
        float scaled = f * 255f;
        return scaled > 0 ? (int) Math.min(255f, scaled) : 0;
    }
}
