package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.VectorKernelsOnly;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The convolution family's vector pieces against the plain reference, piece by piece, over random geometries each
 * piece serves (a size of its own on every axis); at 512 bits, at 256 bits, and (skipped) without the Vector API.
 */
class ConvolutionKernelsTest {
    private static final Random RANDOM = new Random(24);

    private static float[] randoms(int n) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = (float) RANDOM.nextGaussian();
        }
        return a;
    }

    /** An unpadded input of g samples (as PaddedInput gives the window-reading pieces) and a geometry over it. */
    private static ConvInput source(int g, int c, int h, int w, int kh, int kw, int sh, int sw, int dh, int dw) {
        int oh = (h - dh * (kh - 1) - 1) / sh + 1;
        int ow = (w - dw * (kw - 1) - 1) / sw + 1;
        ConvGeometry geo = new ConvGeometry(kh, kw, sh, sw, 0, 0, dh, dw, oh, ow);
        return new ConvInput(randoms((g + 1) * c * h * w), c, h, w, geo, 1);
    }

    private static void close(float[] want, float[] got, int n, String what) {
        for (int i = 0; i < n; i++) {
            assertEquals(want[i], got[i], 1e-4f * (1 + Math.abs(want[i])), what + " at " + i);
        }
    }

    @Test
    void theFamilyIsChosenByTheProvidersVectors() {
        assertEquals(Kernels.PROVIDER.vectorLanes() > 0 ? "Vector API" : "plain Java", Kernels.CONVOLUTION.name());
        assertEquals(false, ConvolutionKernels.PLAIN.packsColumns(new ConvGeometry(3, 3, 1, 1, 0, 0, 1, 1, 5, 5), 27),
                "the reference serves no window-reading path: the plans keep their plain ones");
    }

    @Test
    @Tag(VectorKernelsOnly.TAG)
    void packedColumnsMatchIm2colThenPacking() {
        assumeTrue(Kernels.PROVIDER.vectorLanes() > 0, "no Vector API in this run");
        int checked = 0;
        for (int t = 0; t < 12; t++) {
            int g = 1 + RANDOM.nextInt(3);
            int c = 1 + RANDOM.nextInt(4);
            int kh = 1 + RANDOM.nextInt(3);
            int kw = 1 + RANDOM.nextInt(3);
            ConvInput in = source(g, c, kh + 4 + RANDOM.nextInt(9), kw + 5 + RANDOM.nextInt(13), kh, kw, 1 + RANDOM.nextInt(2), 1,
                    1, 1);
            int per = c * kh * kw;
            if (!Kernels.CONVOLUTION.packsColumns(in.geo(), per)) {
                continue;
            }
            checked++;
            int nr = t % 2 == 0 ? 32 : 16;
            int gp = g * in.geo().positions();
            float[] want = new float[ConvolutionKernels.PLAIN.packedColumnsSize(per, gp, nr)];
            float[] got = new float[Kernels.CONVOLUTION.packedColumnsSize(per, gp, nr)];
            ConvolutionKernels.PLAIN.packColumns(in, g, nr, want);
            Kernels.CONVOLUTION.packColumns(in, g, nr, got);
            for (int q = 0; q < gp; q++) {
                for (int r = 0; r < per; r++) {
                    int at = (q / nr) * per * nr + r * nr + q % nr;
                    assertEquals(want[at], got[at], 0f, "trial " + t + ", position " + q + ", row " + r);
                }
            }
        }
        assertTrue(checked >= 6, "only " + checked + " geometries were the vector piece's");
    }

    @Test
    @Tag(VectorKernelsOnly.TAG)
    void theWindowGradientMatchesColumnsTimesTheOutputGradient() {
        assumeTrue(Kernels.PROVIDER.vectorLanes() > 0, "no Vector API in this run");
        for (int t = 0; t < 10; t++) {
            int g = 1 + RANDOM.nextInt(3);
            int c = 1 + RANDOM.nextInt(5);
            int oc = 2 + RANDOM.nextInt(7);
            ConvInput in = source(g, c, 5 + RANDOM.nextInt(11), 6 + RANDOM.nextInt(13), 3, 3, 1, 1, 1, 1);
            // Chosen with AVX-512's registers only (its tile needs 18), but correct on any vectors, so tested on all.
            assertEquals(Kernels.PROVIDER.vectorLanes() >= 16, Kernels.CONVOLUTION.windowGradient(in.geo()),
                    "a 3 x 3 window at unit strides is the vector piece's where vectors have 16 lanes");
            int per = c * 9;
            float[] gy = randoms(oc * g * in.geo().positions());
            float[] start = randoms(3 + per * oc);
            float[] want = start.clone();
            float[] got = start.clone();
            ConvolutionKernels.PLAIN.addWindowGradient(in, g, gy, oc, want, 3);
            Kernels.CONVOLUTION.addWindowGradient(in, g, gy, oc, got, 3);
            close(want, got, want.length, "trial " + t);
        }
    }

    @Test
    @Tag(VectorKernelsOnly.TAG)
    void rowCol2imMatchesAddingEachKernelPositionsRows() {
        assumeTrue(Kernels.PROVIDER.vectorLanes() > 0, "no Vector API in this run");
        int slack = dev.jgrad.tensor.internal.fused.ConvPlan.SLACK;
        int checked = 0;
        for (int t = 0; t < 40; t++) {
            int kh = 1 + RANDOM.nextInt(3);
            int kw = 1 + RANDOM.nextInt(3);
            int ph = RANDOM.nextInt(kh);
            int pw = RANDOM.nextInt(kw);
            int h = kh + 2 + RANDOM.nextInt(9);
            int w = kw + 1 + RANDOM.nextInt(Math.max(1, 12 - kw));
            int oh = h + 2 * ph - kh + 1;
            int ow = w + 2 * pw - kw + 1;
            ConvGeometry geo = new ConvGeometry(kh, kw, 1, 1, ph, pw, 1, 1, oh, ow);
            if (!Kernels.CONVOLUTION.rowCol2im(geo, w, slack, slack)) {
                continue;
            }
            checked++;
            int gp = 2 * oh * ow;
            float[] cols = randoms(slack + kh * kw * gp + slack);
            // Both samples' planes (the second one's columns start oh * ow into each row), after an untouched plane.
            float[] want = randoms(3 * h * w);
            float[] got = want.clone();
            ConvolutionKernels.PLAIN.col2im(cols, slack, gp, geo, want, 1, 2, 1, h, w);
            Kernels.CONVOLUTION.col2im(cols, slack, gp, geo, got, 1, 2, 1, h, w);
            close(want, got, want.length, "trial " + t + " " + geo);
        }
        assertTrue(checked >= 5, "only " + checked + " geometries were the vector piece's");
    }
}
