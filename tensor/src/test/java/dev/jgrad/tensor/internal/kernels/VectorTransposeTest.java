package dev.jgrad.tensor.internal.kernels;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The packing transpose against the element-by-element definition: every line count, lengths around the 16-float
 * blocks, output strides narrower and wider than a vector, and nothing written outside the block of {@code len} strides.
 */
@Tag(VectorKernelsOnly.TAG)
class VectorTransposeTest {
    @Test
    void linesMatchTheDefinitionAndStayInTheirSlots() {
        VectorKernelsRequired.check();
        assumeTrue(VectorTranspose.AVAILABLE, "the transpose is written for 16-float vectors");
        Random random = new Random(7);
        for (int lines = 1; lines <= 16; lines++) {
            for (int len : new int[] {0, 1, 15, 16, 17, 31, 32, 33, 48, 77}) {
                for (int dStride : new int[] {Math.max(lines, 8), 12, 16, 32}) {
                    if (dStride < lines) {
                        continue;
                    }
                    int sStride = len + 3;
                    int so = 5;
                    float[] src = new float[so + 16 * sStride + 16];
                    for (int i = 0; i < src.length; i++) {
                        src[i] = random.nextFloat();
                    }
                    int d0 = 7;
                    float[] dst = new float[d0 + len * dStride + 40];
                    java.util.Arrays.fill(dst, Float.NaN);
                    VectorTranspose.lines(src, so, sStride, lines, len, dst, d0, dStride);
                    String where = "lines " + lines + ", len " + len + ", dStride " + dStride;
                    for (int k = 0; k < len; k++) {
                        for (int i = 0; i < lines; i++) {
                            assertEquals(src[so + i * sStride + k], dst[d0 + k * dStride + i], where + ": k " + k + ", line " + i);
                        }
                    }
                    for (int at = 0; at < dst.length; at++) {
                        if (at < d0 || at >= d0 + len * dStride) {
                            assertEquals(Float.NaN, dst[at], where + ": wrote outside its block at " + at);
                        }
                    }
                }
            }
        }
    }
}
