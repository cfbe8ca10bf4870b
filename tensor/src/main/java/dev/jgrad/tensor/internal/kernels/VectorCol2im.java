package dev.jgrad.tensor.internal.kernels;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * col2im for planes whose rows fit one vector (a 3 x 3 convolution's 13-wide input gives 11-wide rows of columns):
 * each input row is written once, as the sum of the column rows that read it. For one kernel column, the column row
 * loaded from {@code kj * dw - pw} floats before its start has each value in the lane of the input column it was
 * read from, so the shift costs nothing; the lanes no output column reads through that kernel column are blended
 * to zero. Adding column rows one at a time into the plane instead leaves rows shorter than a vector to a loop of one
 * float at a time, and reads and writes every input row once per kernel position. Loaded only where
 * jdk.incubator.vector is present.
 */
final class VectorCol2im {
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length();

    private VectorCol2im() {
    }

    /**
     * Whether {@link #plane} serves this geometry on a {@code w}-wide input, with {@code front} floats of the columns'
     * buffer before their first row and {@code back} after their last: unit strides, rows no wider than a vector, and
     * every shifted load inside the buffer.
     */
    static boolean fits(ConvGeometry g, int w, int front, int back) {
        return g.sh() == 1 && g.sw() == 1 && w <= L && (g.kw() - 1) * g.dw() - g.pw() <= front && g.pw() + L <= back;
    }

    /**
     * The lanes each kernel column writes, {@code L} flags a kernel column: those of the input columns some output
     * column reads through it. Made once a call, since a mask built from compares in the loop costs more than the sums.
     */
    static boolean[] lanesWritten(ConvGeometry g, int w) {
        boolean[] written = new boolean[g.kw() * L];
        for (int kj = 0; kj < g.kw(); kj++) {
            int shift = kj * g.dw() - g.pw();
            for (int x = Math.max(0, shift); x < Math.min(w, shift + g.ow()); x++) {
                written[kj * L + x] = true;
            }
        }
        return written;
    }

    /**
     * Writes the {@code h x w} plane at {@code dst[plane]}: every input position the sum of the column gradients read from
     * it. The plane's kernel positions' column rows start {@code gp} apart at {@code cols[at]}, each laid out
     * {@code (OH, OW)}; {@code written} is {@link #lanesWritten}. Rows are written whole vectors in order, each one's lanes
     * past the row landing on later rows of the plane that are written after it; a row whose vector would reach past
     * the plane goes through {@code row} ({@code L} floats) so nothing outside the plane is written.
     */
    static void plane(float[] cols, int at, int gp, ConvGeometry g, float[] dst, int plane, int h, int w, boolean[] written, float[] row) {
        FloatVector zero = FloatVector.zero(S);
        int kw = g.kw();
        int ow = g.ow();
        int dh = g.dh();
        for (int y = 0; y < h; y++) {
            // Kernel rows ki whose output row y + ph - ki dh lies in [0, OH).
            int top = y + g.ph();
            int kiLo = Math.max(0, -Math.floorDiv(g.oh() - 1 - top, dh));
            int kiHi = Math.min(g.kh() - 1, top / dh);
            FloatVector sum = zero;
            for (int kj = 0; kj < kw; kj++) {
                int from = at + kj * gp - (kj * g.dw() - g.pw());
                FloatVector acc = zero;
                for (int ki = kiLo; ki <= kiHi; ki++) {
                    acc = acc.add(FloatVector.fromArray(S, cols, from + ki * kw * gp + (top - ki * dh) * ow));
                }
                sum = sum.add(zero.blend(acc, VectorMask.fromArray(S, written, kj * L)));
            }
            if (y * w + L <= h * w) {
                sum.intoArray(dst, plane + y * w);
            } else {
                sum.intoArray(row, 0);
                System.arraycopy(row, 0, dst, plane + y * w, w);
            }
        }
    }
}
