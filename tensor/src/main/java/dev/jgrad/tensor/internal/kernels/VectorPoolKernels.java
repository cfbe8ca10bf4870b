package dev.jgrad.tensor.internal.kernels;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Max pooling's 2x2 windows at stride 2 in float32, many windows at a time, and their gradient. The scalar
 * loop's comparisons go either way at random on real data, and mispredicted branches made it the slowest
 * part of a small CNN's step; here each lane picks with masks, by the same rule (a value replaces the maximum
 * when it is larger or NaN, in window order). Rows of at least {@code L / 2} windows are read with plain
 * loads and split into the windows' elements by shuffles within a vector (gathers are slow on some
 * machines: Zen 1); narrower planes through gathers. Loaded only where jdk.incubator.vector is present.
 */
final class VectorPoolKernels {
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length();

    private VectorPoolKernels() {
    }

    /** Lane l takes lane 2l (the windows' left elements of a vector of row elements), or 2l + 1 (their right ones). */
    private static final VectorShuffle<Float> EVENS = shuffle(l -> (2 * l) % L);
    private static final VectorShuffle<Float> ODDS = shuffle(l -> (2 * l + 1) % L);
    /** Lane l takes lane l / 2: each window's value spread over its two columns. */
    private static final VectorShuffle<Float> PAIRS = shuffle(l -> l / 2);
    /** Lane l's column in its window: 0, 1, 0, 1, ... */
    private static final FloatVector COLUMN = FloatVector.fromArray(S, columnInWindow(), 0);

    private static VectorShuffle<Float> shuffle(java.util.function.IntUnaryOperator lane) {
        int[] idx = new int[L];
        for (int l = 0; l < L; l++) {
            idx[l] = lane.applyAsInt(l);
        }
        return VectorShuffle.fromArray(S, idx, 0);
    }

    private static float[] columnInWindow() {
        float[] c = new float[L];
        for (int l = 0; l < L; l++) {
            c[l] = l % 2;
        }
        return c;
    }

    /**
     * One plane at {@code x[base]}, {@code w} wide, with {@code L / 2 <= outW} windows per row (W8's (26, 26) planes:
     * 13): as {@link #halves}, L / 2 windows at a time from one plain load of each of their two rows, split into the
     * windows' left and right elements by shuffles within a vector. The last L / 2 windows of a row overlap the ones
     * before (rewriting the same results). Each store writes a whole vector, its upper half onto windows written
     * after it; where that would reach past the plane (perhaps another thread's), through {@code lanes} ({@code L}
     * floats of scratch).
     */
    static void halvesByPairs(float[] x, int base, int w, int outH, int outW, float[] out, float[] off, int o, float[] lanes) {
        FloatVector one = FloatVector.broadcast(S, 1f);
        FloatVector below = FloatVector.broadcast(S, w);
        FloatVector belowRight = FloatVector.broadcast(S, w + 1);
        int half = L / 2;
        int planeEnd = o + outH * outW;
        for (int oh = 0; oh < outH; oh++) {
            int r0 = base + 2 * oh * w;
            int row = o + oh * outW;
            for (int j = 0; j < outW; j += half) {
                int jj = Math.min(j, outW - half);
                FloatVector top = FloatVector.fromArray(S, x, r0 + 2 * jj);
                FloatVector bottom = FloatVector.fromArray(S, x, r0 + w + 2 * jj);
                FloatVector max = top.rearrange(EVENS);
                FloatVector v = top.rearrange(ODDS);
                VectorMask<Float> m = v.compare(VectorOperators.GT, max).or(v.compare(VectorOperators.NE, v));
                max = max.blend(v, m);
                FloatVector at = FloatVector.zero(S).blend(one, m);
                v = bottom.rearrange(EVENS);
                m = v.compare(VectorOperators.GT, max).or(v.compare(VectorOperators.NE, v));
                max = max.blend(v, m);
                at = at.blend(below, m);
                v = bottom.rearrange(ODDS);
                m = v.compare(VectorOperators.GT, max).or(v.compare(VectorOperators.NE, v));
                max = max.blend(v, m);
                at = at.blend(belowRight, m);
                if (row + jj + L <= planeEnd) {
                    max.intoArray(out, row + jj);
                    at.intoArray(off, row + jj);
                } else {
                    max.intoArray(lanes, 0);
                    System.arraycopy(lanes, 0, out, row + jj, half);
                    at.intoArray(lanes, 0);
                    System.arraycopy(lanes, 0, off, row + jj, half);
                }
            }
        }
    }

    /**
     * The gradient of {@link #halvesByPairs}'s windows in one plane: for L / 2 windows at a time, their gradients and
     * offsets spread over their two columns by a shuffle, each element getting its window's gradient where it was the
     * maximum and zero elsewhere, a whole vector per row of the windows. Columns and a row that no window covers (odd
     * sizes) are zeroed. Reads L floats of {@code g} and {@code off} from each chunk's start: near the arrays' ends,
     * one window at a time.
     */
    static void tiledByPairs(float[] g, int gAt, float[] off, int offAt, float[] gx, int dst, int h, int w, int outH, int outW) {
        FloatVector zero = FloatVector.zero(S);
        FloatVector bottom = COLUMN.add(w);
        int half = L / 2;
        for (int oh = 0; oh < outH; oh++) {
            int r0 = dst + 2 * oh * w;
            int row = oh * outW;
            for (int j = 0; j < outW; j += half) {
                int jj = Math.min(j, outW - half);
                if (gAt + row + jj + L > g.length || offAt + row + jj + L > off.length) {
                    for (int q = jj; q < outW; q++) {
                        int i0 = r0 + 2 * q;
                        gx[i0] = 0f;
                        gx[i0 + 1] = 0f;
                        gx[i0 + w] = 0f;
                        gx[i0 + w + 1] = 0f;
                        gx[i0 + (int) off[offAt + row + q]] = g[gAt + row + q];
                    }
                    break;
                }
                FloatVector gv = FloatVector.fromArray(S, g, gAt + row + jj).rearrange(PAIRS);
                FloatVector ov = FloatVector.fromArray(S, off, offAt + row + jj).rearrange(PAIRS);
                zero.blend(gv, ov.compare(VectorOperators.EQ, COLUMN)).intoArray(gx, r0 + 2 * jj);
                zero.blend(gv, ov.compare(VectorOperators.EQ, bottom)).intoArray(gx, r0 + w + 2 * jj);
            }
            for (int c = 2 * outW; c < w; c++) {
                gx[r0 + c] = 0f;
                gx[r0 + w + c] = 0f;
            }
        }
        java.util.Arrays.fill(gx, dst + 2 * outH * w, dst + h * w, 0f);
    }

    /**
     * Each window's top-left element in its plane, in output order, padded with zeros to whole vectors:
     * the gathers of {@link #halves} read through it, and the same table serves every plane.
     */
    static int[] corners(int w, int outH, int outW) {
        int per = outH * outW;
        int[] t = new int[(per + L - 1) / L * L];
        for (int i = 0; i < per; i++) {
            t[i] = 2 * (i / outW) * w + 2 * (i % outW);
        }
        return t;
    }

    /**
     * One plane at {@code x[base]} of width {@code w}: the {@code per} maxima into {@code out} and their offsets
     * from their windows' top-left elements into {@code off}, from {@code o} on. {@code lanes} is scratch of
     * {@link #L} floats.
     */
    static void halves(float[] x, int base, int w, int[] corners, int per, float[] out, float[] off, int o, float[] lanes) {
        FloatVector zero = FloatVector.zero(S);
        FloatVector one = FloatVector.broadcast(S, 1f);
        FloatVector below = FloatVector.broadcast(S, w);
        FloatVector belowRight = FloatVector.broadcast(S, w + 1);
        for (int j = 0; j < per; j += L) {
            FloatVector max = FloatVector.fromArray(S, x, base, corners, j);
            FloatVector v = FloatVector.fromArray(S, x, base + 1, corners, j);
            VectorMask<Float> m = v.compare(VectorOperators.GT, max).or(v.compare(VectorOperators.NE, v));
            max = max.blend(v, m);
            FloatVector at = zero.blend(one, m);
            v = FloatVector.fromArray(S, x, base + w, corners, j);
            m = v.compare(VectorOperators.GT, max).or(v.compare(VectorOperators.NE, v));
            max = max.blend(v, m);
            at = at.blend(below, m);
            v = FloatVector.fromArray(S, x, base + w + 1, corners, j);
            m = v.compare(VectorOperators.GT, max).or(v.compare(VectorOperators.NE, v));
            max = max.blend(v, m);
            at = at.blend(belowRight, m);
            int n = Math.min(L, per - j);
            if (n == L) {
                max.intoArray(out, o + j);
                at.intoArray(off, o + j);
            } else {
                max.intoArray(lanes, 0);
                System.arraycopy(lanes, 0, out, o + j, n);
                at.intoArray(lanes, 0);
                System.arraycopy(lanes, 0, off, o + j, n);
            }
        }
    }
}
