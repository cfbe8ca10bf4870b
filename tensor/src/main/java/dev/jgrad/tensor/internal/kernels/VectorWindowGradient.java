package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.internal.kernels.ThreadBuffer;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The weight gradient of a 3 x 3 convolution with unit strides and dilations, read in place from an input with no
 * padding (or with its padding written out, {@link PaddedInput}):
 * {@code dW^T[c 9 + ki 3 + kj][o] += sum over positions of x[c][i + ki][j + kj] gy[o][i][j]}. The nine values one
 * channel's window contributes at an output position sit at the window's corner plus {@code 0, 1, 2, W, W + 1, ...}
 * in the input plane: three row pointers and constant offsets. So the nine rows of the product's A are broadcast
 * straight from the input, with no im2col and no packing; only the output gradient is packed, transposed. im2col
 * and packing the columns (a transpose, since their positions, the product's k, run along their rows) had cost
 * more than the product. Loaded only where jdk.incubator.vector is present.
 */
final class VectorWindowGradient {
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length();
    /** Output channels per tile: two vectors. */
    static final int NR = 2 * L;
    private static final ThreadBuffer PACKED = new ThreadBuffer();
    private static final ThreadBuffer TILE = new ThreadBuffer();

    private VectorWindowGradient() {
    }

    /**
     * Whether the geometry is one this class serves, over an input whose padding has been written out
     * ({@link PaddedInput}): a 3 x 3 window, unit strides and dilations; and whether the vectors are AVX-512's. Its tile
     * holds 18 accumulators (9 rows of two vectors), which AVX-512's 32 registers hold and AVX2's 16 do not: with AVX2
     * the columns' product is faster.
     */
    static boolean fits(ConvGeometry g) {
        return L >= 16 && g.kh() == 3 && g.kw() == 3 && g.sh() == 1 && g.sw() == 1 && g.dh() == 1 && g.dw() == 1;
    }

    /**
     * Adds the {@code g} samples' part of the weight gradient, transposed, into {@code dWT[at]} ({@code (C 9, OC)},
     * row-major), from the input {@code in} reads and the chunk's output gradient {@code gy (OC, G OH OW)}.
     */
    static void add(ConvInput in, int g, float[] gy, int oc, float[] dWT, int at) {
        float[] x = in.x();
        int c = in.c();
        int h = in.h();
        int w = in.w();
        int s0 = in.s0();
        ConvGeometry geo = in.geo();
        int p = geo.positions();
        float[] bp = PACKED.get(g * p * NR);
        // Each output position's window corner in its input plane.
        int[] corner = new int[p];
        for (int k = 0; k < p; k++) {
            corner[k] = k / geo.ow() * w + k % geo.ow();
        }
        for (int o0 = 0; o0 < oc; o0 += NR) {
            int cols = Math.min(NR, oc - o0);
            packGradient(gy, g, o0, cols, p, bp);
            // A last tile of fewer than NR output channels is summed in a scratch tile, then added.
            float[] tile = cols == NR ? dWT : TILE.get(9 * NR);
            int to = cols == NR ? at + o0 : 0;
            int trs = cols == NR ? oc : NR;
            for (int ch = 0; ch < c; ch++) {
                if (cols < NR) {
                    java.util.Arrays.fill(tile, 0, 9 * NR, 0f);
                }
                int row = cols == NR ? to + ch * 9 * oc : 0;
                for (int s = 0; s < g; s++) {
                    window3x3(p, corner, x, ((s0 + s) * c + ch) * h * w, w, bp, s * p * NR, tile, row, trs);
                }
                if (cols < NR) {
                    for (int r = 0; r < 9; r++) {
                        for (int q = 0; q < cols; q++) {
                            dWT[at + (ch * 9 + r) * oc + o0 + q] += tile[r * NR + q];
                        }
                    }
                }
            }
        }
    }

    /**
     * The chunk's output gradient's channels {@code [o0, o0 + cols)} as the product's B:
     * {@code bp[s P + k][q] = gy[o0 + q][s P + k]} over the chunk's positions, zero where {@code q >= cols}.
     */
    private static void packGradient(float[] gy, int g, int o0, int cols, int p, float[] bp) {
        int gp = g * p;
        // A sample at a time, so that the block of bp being written stays in the first-level cache.
        for (int s = 0; s < g; s++) {
            int d = s * p * NR;
            for (int q = 0; q < cols; q++) {
                for (int k = 0, from = (o0 + q) * gp + s * p; k < p; k++) {
                    bp[d + k * NR + q] = gy[from + k];
                }
            }
            for (int q = cols; q < NR; q++) {
                for (int k = 0; k < p; k++) {
                    bp[d + k * NR + q] = 0f;
                }
            }
        }
    }

    /**
     * {@code c[co + r crs + q] += sum over k < p of x[at + corner[k] + (r / 3) w + r % 3] bp[bo + k NR + q]} for the nine
     * rows r and NR columns q: one channel's window in one sample. One loop only: vectors carried through nested loops
     * were boxed by the JIT (the sum over samples is the caller's).
     */
    private static void window3x3(int p, int[] corner, float[] x, int at, int w, float[] bp, int bo, float[] c, int co, int crs) {
        FloatVector c00 = FloatVector.fromArray(S, c, co);
        FloatVector c01 = FloatVector.fromArray(S, c, co + L);
        FloatVector c10 = FloatVector.fromArray(S, c, co + crs);
        FloatVector c11 = FloatVector.fromArray(S, c, co + crs + L);
        FloatVector c20 = FloatVector.fromArray(S, c, co + 2 * crs);
        FloatVector c21 = FloatVector.fromArray(S, c, co + 2 * crs + L);
        FloatVector c30 = FloatVector.fromArray(S, c, co + 3 * crs);
        FloatVector c31 = FloatVector.fromArray(S, c, co + 3 * crs + L);
        FloatVector c40 = FloatVector.fromArray(S, c, co + 4 * crs);
        FloatVector c41 = FloatVector.fromArray(S, c, co + 4 * crs + L);
        FloatVector c50 = FloatVector.fromArray(S, c, co + 5 * crs);
        FloatVector c51 = FloatVector.fromArray(S, c, co + 5 * crs + L);
        FloatVector c60 = FloatVector.fromArray(S, c, co + 6 * crs);
        FloatVector c61 = FloatVector.fromArray(S, c, co + 6 * crs + L);
        FloatVector c70 = FloatVector.fromArray(S, c, co + 7 * crs);
        FloatVector c71 = FloatVector.fromArray(S, c, co + 7 * crs + L);
        FloatVector c80 = FloatVector.fromArray(S, c, co + 8 * crs);
        FloatVector c81 = FloatVector.fromArray(S, c, co + 8 * crs + L);
        for (int k = 0, b = bo; k < p; k++, b += NR) {
            int r0 = at + corner[k];
            int r1 = r0 + w;
            int r2 = r1 + w;
            FloatVector b0 = FloatVector.fromArray(S, bp, b);
            FloatVector b1 = FloatVector.fromArray(S, bp, b + L);
            FloatVector a = FloatVector.broadcast(S, x[r0]);
            c00 = a.fma(b0, c00);
            c01 = a.fma(b1, c01);
            a = FloatVector.broadcast(S, x[r0 + 1]);
            c10 = a.fma(b0, c10);
            c11 = a.fma(b1, c11);
            a = FloatVector.broadcast(S, x[r0 + 2]);
            c20 = a.fma(b0, c20);
            c21 = a.fma(b1, c21);
            a = FloatVector.broadcast(S, x[r1]);
            c30 = a.fma(b0, c30);
            c31 = a.fma(b1, c31);
            a = FloatVector.broadcast(S, x[r1 + 1]);
            c40 = a.fma(b0, c40);
            c41 = a.fma(b1, c41);
            a = FloatVector.broadcast(S, x[r1 + 2]);
            c50 = a.fma(b0, c50);
            c51 = a.fma(b1, c51);
            a = FloatVector.broadcast(S, x[r2]);
            c60 = a.fma(b0, c60);
            c61 = a.fma(b1, c61);
            a = FloatVector.broadcast(S, x[r2 + 1]);
            c70 = a.fma(b0, c70);
            c71 = a.fma(b1, c71);
            a = FloatVector.broadcast(S, x[r2 + 2]);
            c80 = a.fma(b0, c80);
            c81 = a.fma(b1, c81);
        }
        c00.intoArray(c, co);
        c01.intoArray(c, co + L);
        c10.intoArray(c, co + crs);
        c11.intoArray(c, co + crs + L);
        c20.intoArray(c, co + 2 * crs);
        c21.intoArray(c, co + 2 * crs + L);
        c30.intoArray(c, co + 3 * crs);
        c31.intoArray(c, co + 3 * crs + L);
        c40.intoArray(c, co + 4 * crs);
        c41.intoArray(c, co + 4 * crs + L);
        c50.intoArray(c, co + 5 * crs);
        c51.intoArray(c, co + 5 * crs + L);
        c60.intoArray(c, co + 6 * crs);
        c61.intoArray(c, co + 6 * crs + L);
        c70.intoArray(c, co + 7 * crs);
        c71.intoArray(c, co + 7 * crs + L);
        c80.intoArray(c, co + 8 * crs);
        c81.intoArray(c, co + 8 * crs + L);
    }
}
