package dev.jgrad.tensor;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Max pooling's 2x2 windows at stride 2 in float32, many windows at a time. The scalar loop's
 * comparisons go either way at random on real data, and mispredicted branches made it the slowest part
 * of a small CNN's step; here each lane picks with masks, by the same rule (a value replaces the maximum
 * when it is larger or NaN, in window order). Loaded only where jdk.incubator.vector is present.
 */
final class VectorPoolKernels {
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length();

    private VectorPoolKernels() {
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
     * One plane at {@code x[base]} of width {@code w}: the {@code per} maxima into {@code out} and their
     * flat indices into {@code idx}, from {@code o} on. {@code lanes} is scratch of {@link #L} floats.
     */
    static void halves(float[] x, int base, int w, int[] corners, int per, float[] out, long[] idx, int o, float[] lanes) {
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
            } else {
                max.intoArray(lanes, 0);
                System.arraycopy(lanes, 0, out, o + j, n);
            }
            at.intoArray(lanes, 0);
            for (int l = 0; l < n; l++) {
                idx[o + j + l] = corners[j + l] + (int) lanes[l];
            }
        }
    }
}
