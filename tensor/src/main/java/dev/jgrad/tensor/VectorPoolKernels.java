package dev.jgrad.tensor;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Max pooling's 2x2 windows at stride 2 in float32, many windows at a time. The scalar loop's
 * comparisons go either way at random on real data, and mispredicted branches made it the slowest part
 * of a small CNN's step; here each lane picks with masks, by the same rule (a value replaces the maximum
 * when it is larger or NaN, in window order). Rows of at least {@link #L} windows are read with plain
 * loads (gathers are slow on some machines: Zen 1); narrower planes through gathers. Loaded only where
 * jdk.incubator.vector is present.
 */
final class VectorPoolKernels {
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length();

    private VectorPoolKernels() {
    }

    /**
     * One plane at {@code x[base]}, {@code w} wide, with {@code outW >= L} windows per row: as {@link #halves}.
     * Each vector of L windows is two pairs of loads per row of the window, one of them a float to the right,
     * so that every even lane holds one window's four elements; the results (the maximum and its offset from the
     * window's top-left element, see {@link PoolKernels.Pooled}) are read back from the even lanes
     * (a two-vector shuffle costs more than the scalar reads on JDK 17). The last vector of a row overlaps the one
     * before it (rewriting the same results). {@code lanes} is scratch of {@code 4 L} floats.
     */
    static void halvesByRows(float[] x, int base, int w, int outH, int outW, float[] out, float[] off, int o, float[] lanes) {
        FloatVector one = FloatVector.broadcast(S, 1f);
        FloatVector below = FloatVector.broadcast(S, w);
        FloatVector belowRight = FloatVector.broadcast(S, w + 1);
        for (int oh = 0; oh < outH; oh++) {
            int r0 = base + 2 * oh * w;
            int row = o + oh * outW;
            // The last vector reads one float past the row pair's windows: within x unless this is its end.
            boolean inside = r0 + w + 2 * outW < x.length;
            for (int j = 0; j < outW; j += L) {
                int jj = inside ? Math.min(j, outW - L) : j;
                if (!inside && jj + L >= outW) {
                    tail(x, r0, w, jj, outW, out, off, row);
                    break;
                }
                int c = r0 + 2 * jj;
                pick(x, c, c + 1, c + w, c + w + 1, one, below, belowRight, lanes, 0);
                pick(x, c + L, c + L + 1, c + L + w, c + L + w + 1, one, below, belowRight, lanes, 2 * L);
                // Window l's results sit in even lane 2l of the first pick's vectors, or 2l - L of the second's.
                for (int l = 0; l < L; l++) {
                    int lane = 2 * l < L ? 2 * l : 2 * L + 2 * l - L;
                    out[row + jj + l] = lanes[lane];
                    off[row + jj + l] = lanes[lane + L];
                }
            }
        }
    }

    /**
     * Four vectors read at the four element offsets of windows whose top-left elements sit in even lanes: into
     * {@code lanes[at, at + L)} the maximum by the window-order rule, into {@code lanes[at + L, at + 2L)} each
     * lane's offset from its top-left element.
     */
    private static void pick(float[] x, int tl, int tr, int bl, int br, FloatVector one, FloatVector below, FloatVector belowRight,
                             float[] lanes, int at) {
        FloatVector max = FloatVector.fromArray(S, x, tl);
        FloatVector v = FloatVector.fromArray(S, x, tr);
        VectorMask<Float> m = v.compare(VectorOperators.GT, max).or(v.compare(VectorOperators.NE, v));
        max = max.blend(v, m);
        FloatVector offset = FloatVector.zero(S).blend(one, m);
        v = FloatVector.fromArray(S, x, bl);
        m = v.compare(VectorOperators.GT, max).or(v.compare(VectorOperators.NE, v));
        max = max.blend(v, m);
        offset = offset.blend(below, m);
        v = FloatVector.fromArray(S, x, br);
        m = v.compare(VectorOperators.GT, max).or(v.compare(VectorOperators.NE, v));
        max.blend(v, m).intoArray(lanes, at);
        offset.blend(belowRight, m).intoArray(lanes, at + L);
    }

    /** Windows {@code [from, outW)} of the row pair at {@code x[r0]} one by one (the end of x, where whole vectors would read past it). */
    private static void tail(float[] x, int r0, int w, int from, int outW, float[] out, float[] off, int row) {
        for (int j = from; j < outW; j++) {
            int i0 = r0 + 2 * j;
            int best = 0;
            float max = x[i0];
            int[] offsets = {1, w, w + 1};
            for (int d : offsets) {
                float v = x[i0 + d];
                if (v > max || v != v) {
                    max = v;
                    best = d;
                }
            }
            out[row + j] = max;
            off[row + j] = best;
        }
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
