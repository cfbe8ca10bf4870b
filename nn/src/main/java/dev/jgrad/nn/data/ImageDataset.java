package dev.jgrad.nn.data;

import dev.jgrad.tensor.Tensor;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Grey-scale images with class labels, kept as the file's bytes: each batch is built from its own images
 * only, as float32 {@code (B, 1, H, W)} scaled to [0, 1] then standardised by {@code (x - mean) / std}, with
 * int64 labels {@code (B)}. Nothing is copied per epoch.
 */
public final class ImageDataset implements Dataset {
    private final byte[] pixels;
    private final long[] labels;
    private final int count;
    private final int height;
    private final int width;
    private final float mean;
    private final float std;

    /** {@code labels.length} images of {@code height x width} bytes in {@code pixels}, standardised as {@code (x / 255 - mean) / std}. */
    public ImageDataset(byte[] pixels, long[] labels, int height, int width, double mean, double std) {
        if (height <= 0 || width <= 0 || pixels.length != (long) labels.length * height * width) {
            throw new IllegalArgumentException("ImageDataset: " + labels.length + " labels of " + height + "x" + width + " images need "
                    + (long) labels.length * height * width + " pixels, got " + pixels.length);
        }
        if (!(std > 0) || !Double.isFinite(mean)) {
            throw new IllegalArgumentException("ImageDataset: std must be positive and mean finite, got mean=" + mean + ", std=" + std);
        }
        this.pixels = pixels;
        this.labels = labels;
        this.count = labels.length;
        this.height = height;
        this.width = width;
        this.mean = (float) mean;
        this.std = (float) std;
    }

    /**
     * The images of an IDX ubyte file {@code (N, H, W)} with the labels of an IDX ubyte file {@code (N)}:
     * the layout of MNIST and Fashion-MNIST. Files that do not fit that layout, or each other, are refused by name.
     */
    public static ImageDataset fromIdx(Path images, Path labels, double mean, double std) throws IOException {
        Idx.Array im = Idx.read(images);
        Idx.Array lb = Idx.read(labels);
        if (im.type() != Idx.Type.UBYTE || im.shape().length != 3) {
            throw new IdxFormatException(images + ": expected ubyte images (N, H, W), got " + im.type() + " "
                    + Arrays.toString(im.shape()));
        }
        if (lb.type() != Idx.Type.UBYTE || lb.shape().length != 1) {
            throw new IdxFormatException(labels + ": expected ubyte labels (N), got " + lb.type() + " " + Arrays.toString(lb.shape()));
        }
        if (im.shape()[1] == 0 || im.shape()[2] == 0) {
            throw new IdxFormatException(images + ": images of " + im.shape()[1] + "x" + im.shape()[2] + " pixels hold nothing to learn from");
        }
        if (im.shape()[0] != lb.shape()[0]) {
            throw new IdxFormatException(images + " holds " + im.shape()[0] + " images but " + labels + " holds "
                    + lb.shape()[0] + " labels");
        }
        long[] l = new long[lb.shape()[0]];
        for (int i = 0; i < l.length; i++) {
            l[i] = lb.body()[i] & 0xFF;
        }
        return new ImageDataset(im.body(), l, im.shape()[1], im.shape()[2], mean, std);
    }

    @Override
    public int size() {
        return count;
    }

    /** Each image's height. */
    public int height() {
        return height;
    }

    /** Each image's width. */
    public int width() {
        return width;
    }

    /** The largest label plus one. */
    public int classes() {
        long max = -1;
        for (long l : labels) {
            max = Math.max(max, l);
        }
        return (int) (max + 1);
    }

    /** The label of image {@code i}. */
    public long label(int i) {
        return labels[i];
    }

    @Override
    public List<Tensor> get(long[] indices) {
        int hw = height * width;
        float[] x = new float[indices.length * hw];
        long[] y = new long[indices.length];
        float scale = 1f / (255f * std);
        float shift = mean / std;
        for (int b = 0; b < indices.length; b++) {
            long i = indices[b];
            if (i < 0 || i >= count) {
                throw new IndexOutOfBoundsException("index " + i + " is out of range for a dataset of " + count + " images");
            }
            int src = (int) i * hw;
            int dst = b * hw;
            for (int p = 0; p < hw; p++) {
                x[dst + p] = (pixels[src + p] & 0xFF) * scale - shift;
            }
            y[b] = labels[(int) i];
        }
        return List.of(Tensor.of(x, indices.length, 1, height, width), Tensor.of(y, indices.length));
    }
}
