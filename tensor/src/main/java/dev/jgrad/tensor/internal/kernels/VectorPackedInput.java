package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.internal.kernels.PackedGemm;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * A convolution's columns {@code (C KH KW, G OH OW)} copied from the input straight into the packed layout of the
 * forward product's B ({@link GemmPacking#packB}: slivers of nr positions, {@code [sliver][k][nr]}), for unit column
 * strides, over an input with no padding (or with its padding written out): a sliver's positions are runs along
 * output rows, and each run of one column row is a run of the input row it reads, copied in whole vectors. Laying
 * the columns out first (im2col) and then packing them wrote and read the chunk's columns twice more. Loaded only
 * where jdk.incubator.vector is present.
 */
final class VectorPackedInput {
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length();

    private VectorPackedInput() {
    }

    /**
     * Whether the geometry is one {@link #pack} serves, over an input whose padding has been written out
     * ({@link PaddedInput}): unit column stride and the columns one panel deep.
     */
    static boolean fits(ConvGeometry g, int per) {
        return g.sw() == 1 && per <= PackedGemm.MAX_PANEL;
    }

    /** The floats {@link #pack} writes for {@code per} column rows of {@code gp} positions in slivers of {@code nr}. */
    static int size(int per, int gp, int nr) {
        return (gp + nr - 1) / nr * nr * per + L;
    }

    /**
     * Packs the columns of the {@code g} samples {@code in} reads into {@code bp} (at least {@link #size} floats). Lanes
     * past the last position hold whatever the copies left there: the product computes their columns of C but does
     * not store them.
     */
    static void pack(ConvInput in, int g, int nr, float[] bp) {
        float[] src = in.x();
        int c = in.c();
        int h = in.h();
        int w = in.w();
        int s0 = in.s0();
        ConvGeometry geo = in.geo();
        int kk = geo.kh() * geo.kw();
        int per = c * kk;
        int ow = geo.ow();
        int p = geo.positions();
        int gp = g * p;
        // Column row r reads the input at rowAt[r] past its window corner.
        int[] rowAt = new int[per];
        for (int r = 0; r < per; r++) {
            rowAt[r] = r / kk * h * w + (r % kk) / geo.kw() * geo.dh() * w + r % geo.kw() * geo.dw();
        }
        // A sliver's runs, none longer than a vector: the corner of each run's first position, its first lane and its length.
        int most = nr + 2 * (nr / Math.max(1, Math.min(ow, L)) + 2);
        int[] runAt = new int[most];
        int[] runLane = new int[most];
        int[] runLen = new int[most];
        int slivers = (gp + nr - 1) / nr;
        int lastRow = rowAt[per - 1];
        for (int sl = 0; sl < slivers; sl++) {
            int runs = 0;
            for (int q = sl * nr; q < Math.min(gp, (sl + 1) * nr); ) {
                int s = q / p;
                int i = q % p / ow;
                int j = q % p % ow;
                int len = Math.min(L, Math.min(ow - j, (sl + 1) * nr - q));
                runAt[runs] = (s0 + s) * c * h * w + i * geo.sh() * w + j;
                runLane[runs] = q - sl * nr;
                runLen[runs] = len;
                runs++;
                q += len;
            }
            int base = sl * per * nr;
            if (runAt[runs - 1] + lastRow + L <= src.length) {
                sliver(src, rowAt, per, runAt, runLane, runs, bp, base, nr);
            } else {
                for (int r = 0; r < per; r++) {
                    for (int u = 0; u < runs; u++) {
                        System.arraycopy(src, runAt[u] + rowAt[r], bp, base + r * nr + runLane[u], runLen[u]);
                    }
                }
            }
        }
    }

    /**
     * One sliver's rows, each run one whole vector: up to {@code L - 1} floats past a run land on lanes written after it
     * (later runs of the row, the next row, the next sliver) or on the buffer's slack.
     */
    private static void sliver(float[] src, int[] rowAt, int per, int[] runAt, int[] runLane, int runs, float[] bp, int base, int nr) {
        for (int r = 0; r < per; r++) {
            int from = rowAt[r];
            int to = base + r * nr;
            for (int u = 0; u < runs; u++) {
                FloatVector.fromArray(S, src, runAt[u] + from).intoArray(bp, to + runLane[u]);
            }
        }
    }
}
