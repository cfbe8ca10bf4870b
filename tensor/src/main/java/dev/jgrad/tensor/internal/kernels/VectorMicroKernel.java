package dev.jgrad.tensor.internal.kernels;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API micro-kernel: a tile of C held in vector registers, one broadcast of A and two loads
 * of B per step of k, two fused multiply-adds per row. With AVX-512 (32 vector registers) the tile is
 * 12 x 32 floats in 24 accumulators; with AVX2 (16 registers) 5 x 16 in 10 ({@link #MR} says why not 6).
 * Loaded only where jdk.incubator.vector is present.
 *
 * <p>A is always a packed sliver, and B either a packed sliver or rows read in place: one method for
 * each, so that every address is {@code base + k * stride + constant} with as many strides as possible
 * known to the JIT: with A's strides as arguments, the bounds checks of twelve strided reads would stay
 * in the loop. Those methods are {@link VectorTiles}, written by {@code MicroKernelGenerator} (the
 * accumulators must be separate locals, so each tile is spelled out).
 *
 * <p>The accumulators start at zero and C's tile is added to them after the loop ({@link VectorTiles} says why: C's
 * row addresses kept live through the loop made C2 spill the loop's own integers in some JVMs), or, where the product
 * overwrites C, stored over it. Tiles that C's edge cuts short are computed into a per-thread scratch tile and added
 * to C element by element.
 */
final class VectorMicroKernel implements MicroKernel {
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length();
    /**
     * The usual tile height: 12 rows with AVX-512's 32 registers, 5 with AVX2's 16. A 6-row AVX2 tile (12 accumulators,
     * two vectors of B and a broadcast: 15 of the 16 registers) is the classic choice, but C2's register allocator spills
     * one of its vectors inside the loop in some JVMs and not in others (more often under the parallel and serial
     * collectors), which halves the tile's speed; the 5-row tile (10 accumulators) leaves it room in every JVM.
     */
    static final int MR = L >= 16 ? 12 : 5;
    static final int NR = 2 * L;
    /** A tile cut by C's edge, computed whole; and the dots kernel's nine accumulators' lanes (9 L floats, within MR NR). */
    private static final ThreadLocal<float[]> SCRATCH = ThreadLocal.withInitial(() -> new float[MR * NR]);

    /** This kernel's tile height: {@link #MR}, or 8 (AVX-512 only) for products of a multiple of 8 rows. */
    private final int rows;

    VectorMicroKernel() {
        this(MR);
    }

    /**
     * A kernel of {@code rows} rows: MR, or 8 where the CPU has AVX-512. An 8-row tile suits a product of 64 rows
     * (an attention head's, a convolution's 64 channels), which 12-row tiles cover with a sixth tile of 4 rows that
     * costs as much as a whole one.
     */
    VectorMicroKernel(int rows) {
        if (rows != MR && !(rows == 8 && L >= 16)) {
            throw new IllegalArgumentException("a vector micro-kernel has " + MR + (L >= 16 ? " or 8" : "") + " rows, not " + rows);
        }
        this.rows = rows;
    }

    @Override
    public int mr() {
        return rows;
    }

    @Override
    public int nr() {
        return NR;
    }

    @Override
    public void run(int kc, float[] ap, int ao, float[] bp, int bo, int bk, float[] c, int co, int crs, int rows, int cols, boolean overwrite) {
        if (rows == this.rows && cols == NR) {
            full(kc, ap, ao, bp, bo, bk, c, co, crs, overwrite);
            return;
        }
        // A tile cut by an edge: compute it whole into a scratch buffer (A's rows past the edge were
        // packed as zeros), then add the part inside C. The kernels themselves have no branch on the
        // tile's size: one the JIT had never seen taken would send them back to the interpreter.
        float[] t = SCRATCH.get();
        full(kc, ap, ao, bp, bo, bk, t, 0, NR, true);
        for (int r = 0; r < rows; r++) {
            int row = co + r * crs;
            for (int j = 0; j < cols; j++) {
                c[row + j] = overwrite ? t[r * NR + j] : c[row + j] + t[r * NR + j];
            }
        }
    }

    /**
     * Nine accumulators, three rows of A and three columns of B in registers (15 of AVX2's 16): six loads for
     * nine fused multiply-adds. Rows or columns past {@code rows}, {@code cols} repeat the first one and are
     * not written.
     */
    @Override
    public void dots(int kc, float[] a, int ao, int ars, int rows, float[] b, int bo, int bcs, int cols, float[] c, int co, int crs) {
        int a1 = ao + (rows > 1 ? ars : 0);
        int a2 = ao + (rows > 2 ? 2 * ars : 0);
        int b1 = bo + (cols > 1 ? bcs : 0);
        int b2 = bo + (cols > 2 ? 2 * bcs : 0);
        FloatVector s00 = FloatVector.zero(S), s01 = FloatVector.zero(S), s02 = FloatVector.zero(S);
        FloatVector s10 = FloatVector.zero(S), s11 = FloatVector.zero(S), s12 = FloatVector.zero(S);
        FloatVector s20 = FloatVector.zero(S), s21 = FloatVector.zero(S), s22 = FloatVector.zero(S);
        int bound = S.loopBound(kc);
        for (int k = 0; k < bound; k += L) {
            FloatVector y0 = FloatVector.fromArray(S, b, bo + k);
            FloatVector y1 = FloatVector.fromArray(S, b, b1 + k);
            FloatVector y2 = FloatVector.fromArray(S, b, b2 + k);
            FloatVector x = FloatVector.fromArray(S, a, ao + k);
            s00 = x.fma(y0, s00); s01 = x.fma(y1, s01); s02 = x.fma(y2, s02);
            x = FloatVector.fromArray(S, a, a1 + k);
            s10 = x.fma(y0, s10); s11 = x.fma(y1, s11); s12 = x.fma(y2, s12);
            x = FloatVector.fromArray(S, a, a2 + k);
            s20 = x.fma(y0, s20); s21 = x.fma(y1, s21); s22 = x.fma(y2, s22);
        }
        // Each accumulator's lanes in a fixed order (reduceLanes adds them in another order once C2 compiles this, so a
        // run's first products and its later ones would differ in their last bits), from a scratch row of lanes.
        float[] t = SCRATCH.get();
        s00.intoArray(t, 0); s01.intoArray(t, L); s02.intoArray(t, 2 * L);
        s10.intoArray(t, 3 * L); s11.intoArray(t, 4 * L); s12.intoArray(t, 5 * L);
        s20.intoArray(t, 6 * L); s21.intoArray(t, 7 * L); s22.intoArray(t, 8 * L);
        float d00 = laneTree(t, 0), d01 = laneTree(t, L), d02 = laneTree(t, 2 * L);
        float d10 = laneTree(t, 3 * L), d11 = laneTree(t, 4 * L), d12 = laneTree(t, 5 * L);
        float d20 = laneTree(t, 6 * L), d21 = laneTree(t, 7 * L), d22 = laneTree(t, 8 * L);
        for (int k = bound; k < kc; k++) {
            float y0 = b[bo + k], y1 = b[b1 + k], y2 = b[b2 + k];
            float x0 = a[ao + k], x1 = a[a1 + k], x2 = a[a2 + k];
            d00 += x0 * y0; d01 += x0 * y1; d02 += x0 * y2;
            d10 += x1 * y0; d11 += x1 * y1; d12 += x1 * y2;
            d20 += x2 * y0; d21 += x2 * y1; d22 += x2 * y2;
        }
        addRow(c, co, cols, d00, d01, d02);
        if (rows > 1) {
            addRow(c, co + crs, cols, d10, d11, d12);
        }
        if (rows > 2) {
            addRow(c, co + 2 * crs, cols, d20, d21, d22);
        }
    }

    /**
     * The sum of the L lanes stored at {@code t[at]}, in float, as a tree: for h = L/2, L/4, ..., 1 each of the first h
     * lanes takes the lane h past it, then the first lane is the sum. Scalar adds in a fixed order give the same bits
     * interpreted and compiled, unlike reduceLanes; lanewise vector forms of this (shuffles, or VectorMath.addLanes'
     * conversions to double) made C2 box the dots kernel's vectors once nine of them were inlined into it.
     */
    private static float laneTree(float[] t, int at) {
        // The two usual widths written out, so the adds run from registers: the same tree as the loop below.
        if (L == 16) {
            float u0 = t[at] + t[at + 8], u1 = t[at + 1] + t[at + 9], u2 = t[at + 2] + t[at + 10], u3 = t[at + 3] + t[at + 11];
            float u4 = t[at + 4] + t[at + 12], u5 = t[at + 5] + t[at + 13], u6 = t[at + 6] + t[at + 14], u7 = t[at + 7] + t[at + 15];
            return ((u0 + u4) + (u2 + u6)) + ((u1 + u5) + (u3 + u7));
        }
        if (L == 8) {
            float u0 = t[at] + t[at + 4], u1 = t[at + 1] + t[at + 5], u2 = t[at + 2] + t[at + 6], u3 = t[at + 3] + t[at + 7];
            return (u0 + u2) + (u1 + u3);
        }
        for (int h = L / 2; h >= 1; h >>= 1) {
            for (int i = 0; i < h; i++) {
                t[at + i] += t[at + i + h];
            }
        }
        return t[at];
    }

    private static void addRow(float[] c, int at, int cols, float v0, float v1, float v2) {
        c[at] += v0;
        if (cols > 1) {
            c[at + 1] += v1;
        }
        if (cols > 2) {
            c[at + 2] += v2;
        }
    }

    /** The tile method for this height and B's layout: C's tile added into, or overwritten (its old values never read). */
    private void full(int kc, float[] ap, int ao, float[] bp, int bo, int bk, float[] c, int co, int crs, boolean overwrite) {
        boolean packedB = bk == NR;
        if (rows == 8) {
            if (overwrite) {
                if (packedB) {
                    VectorTiles.k8PackedOverwrite(kc, ap, ao, bp, bo, c, co, crs);
                } else {
                    VectorTiles.k8InPlaceBOverwrite(kc, ap, ao, bp, bo, bk, c, co, crs);
                }
            } else if (packedB) {
                VectorTiles.k8Packed(kc, ap, ao, bp, bo, c, co, crs);
            } else {
                VectorTiles.k8InPlaceB(kc, ap, ao, bp, bo, bk, c, co, crs);
            }
        } else if (MR == 12) {
            if (overwrite) {
                if (packedB) {
                    VectorTiles.k12PackedOverwrite(kc, ap, ao, bp, bo, c, co, crs);
                } else {
                    VectorTiles.k12InPlaceBOverwrite(kc, ap, ao, bp, bo, bk, c, co, crs);
                }
            } else if (packedB) {
                VectorTiles.k12Packed(kc, ap, ao, bp, bo, c, co, crs);
            } else {
                VectorTiles.k12InPlaceB(kc, ap, ao, bp, bo, bk, c, co, crs);
            }
        } else if (overwrite) {
            if (packedB) {
                VectorTiles.k5PackedOverwrite(kc, ap, ao, bp, bo, c, co, crs);
            } else {
                VectorTiles.k5InPlaceBOverwrite(kc, ap, ao, bp, bo, bk, c, co, crs);
            }
        } else if (packedB) {
            VectorTiles.k5Packed(kc, ap, ao, bp, bo, c, co, crs);
        } else {
            VectorTiles.k5InPlaceB(kc, ap, ao, bp, bo, bk, c, co, crs);
        }
    }
}
