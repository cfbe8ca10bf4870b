package dev.jgrad.nn.data;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ImageDatasetTest {
    @TempDir
    Path dir;

    /** {@code n} images of 3x4 whose pixel p of image i is (7 i + p) mod 256, labelled i mod 5. */
    private Path[] write(int n, boolean gzip) throws IOException {
        byte[] px = new byte[n * 12];
        for (int i = 0; i < px.length; i++) {
            px[i] = (byte) ((7 * (i / 12) + i % 12) % 256);
        }
        byte[] lb = new byte[n];
        for (int i = 0; i < n; i++) {
            lb[i] = (byte) (i % 5);
        }
        byte[] images = Idx.encode(Idx.Type.UBYTE, new int[] {n, 3, 4}, px);
        byte[] labels = Idx.encode(Idx.Type.UBYTE, new int[] {n}, lb);
        Path a = Files.write(dir.resolve("images" + (gzip ? ".gz" : "")), gzip ? IdxTest.gzip(images) : images);
        Path b = Files.write(dir.resolve("labels" + (gzip ? ".gz" : "")), gzip ? IdxTest.gzip(labels) : labels);
        return new Path[] {a, b};
    }

    @Test
    void batchesAreStandardisedFloatImagesWithInt64Labels() throws IOException {
        Path[] f = write(11, true);
        ImageDataset d = ImageDataset.fromIdx(f[0], f[1], 0.25, 0.5);
        assertEquals(11, d.size());
        assertEquals(3, d.height());
        assertEquals(4, d.width());
        assertEquals(5, d.classes());
        List<Tensor> b = d.get(new long[] {9, 2});
        assertArrayEquals(new int[] {2, 1, 3, 4}, b.get(0).shape());
        assertEquals(DType.FLOAT32, b.get(0).dtype());
        assertEquals(DType.INT64, b.get(1).dtype());
        assertArrayEquals(new long[] {4, 2}, b.get(1).toLongArray());
        float[] x = b.get(0).toFloatArray();
        for (int p = 0; p < 12; p++) {
            assertEquals(((63 + p) / 255.0 - 0.25) / 0.5, x[p], 1e-6, "image 9, pixel " + p);
            assertEquals(((14 + p) / 255.0 - 0.25) / 0.5, x[12 + p], 1e-6, "image 2, pixel " + p);
        }
    }

    @Test
    void aLoaderVisitsEveryImageOncePerEpoch() throws IOException {
        Path[] f = write(13, false);
        ImageDataset d = ImageDataset.fromIdx(f[0], f[1], 0, 1);
        DataLoader loader = new DataLoader(d, 4, true, 3, false);
        assertEquals(4, loader.batches());
        Set<Long> firstPixels = new HashSet<>();
        for (List<Tensor> b : loader) {
            float[] x = b.get(0).toFloatArray();
            long[] y = b.get(1).toLongArray();
            for (int i = 0; i < y.length; i++) {
                long image = Math.round(x[12 * i] * 255) / 7;
                assertEquals(image % 5, y[i], "label travels with its image");
                firstPixels.add(image);
            }
        }
        assertEquals(13, firstPixels.size());
    }

    @Test
    void filesThatDoNotFitTheLayoutOrEachOtherAreRefused() throws IOException {
        Path[] f = write(6, false);
        Path fewer = Files.write(dir.resolve("fewer"), Idx.encode(Idx.Type.UBYTE, new int[] {5}, new byte[5]));
        String m = assertThrows(IdxFormatException.class, () -> ImageDataset.fromIdx(f[0], fewer, 0, 1)).getMessage();
        assertTrue(m.contains("6 images") && m.contains("5 labels"), m);
        m = assertThrows(IdxFormatException.class, () -> ImageDataset.fromIdx(f[1], f[1], 0, 1)).getMessage();
        assertTrue(m.contains("expected ubyte images (N, H, W)"), m);
        Path ints = Files.write(dir.resolve("ints"), Idx.encode(Idx.Type.INT, new int[] {6}, new byte[24]));
        m = assertThrows(IdxFormatException.class, () -> ImageDataset.fromIdx(f[0], ints, 0, 1)).getMessage();
        assertTrue(m.contains("expected ubyte labels"), m);
        assertThrows(IllegalArgumentException.class, () -> ImageDataset.fromIdx(f[0], f[1], 0, 0));
        ImageDataset d = ImageDataset.fromIdx(f[0], f[1], 0, 1);
        assertThrows(IndexOutOfBoundsException.class, () -> d.get(new long[] {6}));
        assertThrows(IndexOutOfBoundsException.class, () -> d.get(new long[] {-1}));
    }
}
