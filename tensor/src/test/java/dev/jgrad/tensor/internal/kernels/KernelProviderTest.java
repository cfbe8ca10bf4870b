package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.BinaryOp;
import dev.jgrad.tensor.UnaryOp;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The kernels in use ({@link Kernels}) against the plain reference ({@link PlainKernels}), family by family, over every
 * op and over lengths around the vector width and the plain cut-off (0 to 70), at odd offsets. In the plain-kernel
 * execution this compares the reference with itself; in the vector executions (512 and 256 bits) it is the vector
 * kernels' test.
 */
class KernelProviderTest {
    private static final int[] LENGTHS = {0, 1, 3, 7, 8, 15, 16, 17, 31, 33, 64, 70};
    private final Random random = new Random(42);
    private final KernelProvider plain = PlainKernels.PROVIDER;

    private float[] values(int n, float lo, float hi) {
        float[] a = new float[n + 5];
        for (int i = 0; i < a.length; i++) {
            a[i] = lo + (hi - lo) * random.nextFloat();
        }
        return a;
    }

    /** Equal within a float's rounding of the transcendental functions (the vector exp and tanh are not Math's). */
    private static void assertClose(float[] expected, float[] actual, String what) {
        assertEquals(expected.length, actual.length);
        for (int i = 0; i < expected.length; i++) {
            float e = expected[i];
            float a = actual[i];
            if (Float.isNaN(e) || Float.isNaN(a)) {
                assertEquals(Float.isNaN(e), Float.isNaN(a), what + " at " + i);
                continue;
            }
            assertEquals(e, a, 2e-6f * Math.max(1f, Math.abs(e)), what + " at " + i);
        }
    }

    @Test
    void elementwiseOpsMatchThePlainLoops() {
        for (int n : LENGTHS) {
            float[] a = values(n, -3, 3);
            float[] b = values(n, 0.5f, 2);
            for (BinaryOp op : BinaryOp.values()) {
                if (!op.differentiable()) {
                    continue;
                }
                float[] want = new float[n + 4];
                float[] got = new float[n + 4];
                plain.elementwise().binary(op, a, 1, b, 2, want, 3, n);
                Kernels.ELEMENTWISE.binary(op, a, 1, b, 2, got, 3, n);
                assertClose(want, got, op + " n=" + n);
                plain.elementwise().binaryScalar(op, a, 1, b, 4, want, 0, n);
                Kernels.ELEMENTWISE.binaryScalar(op, a, 1, b, 4, got, 0, n);
                assertClose(want, got, op + " with a scalar, n=" + n);
                plain.elementwise().scalarBinary(op, b, 4, a, 1, want, 0, n);
                Kernels.ELEMENTWISE.scalarBinary(op, b, 4, a, 1, got, 0, n);
                assertClose(want, got, "scalar " + op + ", n=" + n);
            }
            for (UnaryOp op : UnaryOp.values()) {
                if (!op.differentiable()) {
                    continue;
                }
                float[] x = op == UnaryOp.LOG || op == UnaryOp.LOG1P || op == UnaryOp.SQRT || op == UnaryOp.RSQRT ? b : a;
                float[] want = new float[n + 2];
                float[] got = new float[n + 2];
                plain.elementwise().unary(op, x, 2, want, 1, n);
                Kernels.ELEMENTWISE.unary(op, x, 2, got, 1, n);
                assertClose(want, got, op + " n=" + n);
            }
            for (BinaryOp op : new BinaryOp[] {BinaryOp.EQ, BinaryOp.NE, BinaryOp.LT, BinaryOp.LE, BinaryOp.GT, BinaryOp.GE}) {
                boolean[] want = new boolean[n];
                boolean[] got = new boolean[n];
                plain.elementwise().compare(op, a, 0, a, n / 2, 0, want, 0, n);
                Kernels.ELEMENTWISE.compare(op, a, 0, a, n / 2, 0, got, 0, n);
                assertArrayEquals(want, got, op + " with a scalar, n=" + n);
                // Two runs: a against itself (every element equal) and against b.
                plain.elementwise().compare(op, a, 0, a, 0, 1, want, 0, n);
                Kernels.ELEMENTWISE.compare(op, a, 0, a, 0, 1, got, 0, n);
                assertArrayEquals(want, got, op + " of a run with itself, n=" + n);
                plain.elementwise().compare(op, a, 0, b, 0, 1, want, 0, n);
                Kernels.ELEMENTWISE.compare(op, a, 0, b, 0, 1, got, 0, n);
                assertArrayEquals(want, got, op + " of two runs, n=" + n);
            }
            float[] want = new float[n];
            float[] got = new float[n];
            float[] edges = a.clone();
            for (int i = 0; i < n; i += 5) {
                edges[i] = i % 2 == 0 ? Float.NaN : -0f;
            }
            // Java's max and min on both sides: NaN kept, -0 below the +0 bound, the same bits.
            plain.elementwise().clamp(edges, 0, 0f, 1.5f, want, 0, n);
            Kernels.ELEMENTWISE.clamp(edges, 0, 0f, 1.5f, got, 0, n);
            assertArrayEquals(want, got, "clamp n=" + n);
            plain.elementwise().reluBackward(b, 0, a, 1, want, 0, n);
            Kernels.ELEMENTWISE.reluBackward(b, 0, a, 1, got, 0, n);
            assertArrayEquals(want, got, "relu backward n=" + n);
            float[] wide = values(n + 1, -7, 7);
            plain.elementwise().geluBackward(b, 0, wide, 1, want, 0, n);
            Kernels.ELEMENTWISE.geluBackward(b, 0, wide, 1, got, 0, n);
            assertClose(want, got, "gelu backward n=" + n);
        }
    }

    @Test
    void rowsOfBinaryOpsMatchThePlainLoops() {
        int rows = 5;
        for (int n : LENGTHS) {
            float[] a = values(rows * (n + 3), -2, 2);
            float[] b = values(rows * (n + 1), -2, 2);
            float[] want = new float[rows * (n + 2) + 1];
            float[] got = new float[rows * (n + 2) + 1];
            plain.elementwise().binaryRows(BinaryOp.SUB, a, 1, n + 3, b, 0, n + 1, want, 1, n + 2, rows, n);
            Kernels.ELEMENTWISE.binaryRows(BinaryOp.SUB, a, 1, n + 3, b, 0, n + 1, got, 1, n + 2, rows, n);
            assertArrayEquals(want, got, "rows of sub, n=" + n);
        }
    }

    @Test
    void binaryOpsOverRowsLaidEndToEndMatchThePlainLoops() {
        // Whole-vector rows short enough to run as one stream (an operand repeated or end to end), and some that are not.
        for (int n : new int[] {16, 32, 48, 64, 128, 256, 512, 40}) {
            for (int rows : new int[] {2, 3, 7}) {
                for (int[] strides : new int[][] {{n, 0}, {0, n}, {n, n}, {0, 0}}) {
                    float[] a = values(2 + rows * n, -2, 2);
                    float[] b = values(1 + rows * n, 0.5f, 2);
                    for (BinaryOp op : new BinaryOp[] {BinaryOp.ADD, BinaryOp.SUB, BinaryOp.MUL, BinaryOp.DIV}) {
                        float[] want = new float[3 + rows * n + 1];
                        float[] got = new float[3 + rows * n + 1];
                        plain.elementwise().binaryRows(op, a, 2, strides[0], b, 1, strides[1], want, 3, n, rows, n);
                        Kernels.ELEMENTWISE.binaryRows(op, a, 2, strides[0], b, 1, strides[1], got, 3, n, rows, n);
                        assertArrayEquals(want, got, op + " over " + rows + " rows of " + n + ", row strides " + strides[0] + ", " + strides[1]);
                    }
                }
            }
        }
    }

    @Test
    void rowSumsOfRowsLaidEndToEndHaveEachRowsSumBits() {
        // Lengths that are whole four-vector steps at 256 and 512 bits (one stream over all rows) and some that are not.
        for (int n : new int[] {32, 64, 96, 128, 192, 1024, 40, 1000}) {
            for (int rows : new int[] {1, 2, 7}) {
                float[] m = values(3 + rows * n + 4, -4, 4);
                for (boolean mean : new boolean[] {false, true}) {
                    float[] got = new float[1 + 2 * rows];
                    Kernels.REDUCTIONS.rowSums(m, 3, n, rows, n, mean, got, 1, 2);
                    for (int r = 0; r < rows; r++) {
                        double s = Kernels.REDUCTIONS.sum(m, 3 + r * n, 1, n);
                        assertEquals((float) (mean ? s / n : s), got[1 + 2 * r], 0f, "row " + r + " of " + rows + ", n=" + n + ", mean " + mean);
                    }
                    assertEquals(0f, got[0], "before the first row's result");
                }
            }
        }
    }

    @Test
    void reductionsAndSoftmaxMatchThePlainLoops() {
        for (int n : LENGTHS) {
            float[] a = values(n, -4, 4);
            assertEquals(plain.reductions().sum(a, 2, 1, n), Kernels.REDUCTIONS.sum(a, 2, 1, n), 1e-5, "sum n=" + n);
            int rows = 3;
            float[] m = values(rows * (n + 5) + 2, -4, 4);
            float[] sums = new float[2 * rows + 1];
            float[] means = new float[2 * rows + 1];
            Kernels.REDUCTIONS.rowSums(m, 2, n + 5, rows, n, false, sums, 1, 2);
            Kernels.REDUCTIONS.rowSums(m, 2, n + 5, rows, n, true, means, 1, 2);
            float[] plainMeans = new float[2 * rows + 1];
            plain.reductions().rowSums(m, 2, n + 5, rows, n, true, plainMeans, 1, 2);
            for (int r = 0; r < rows && n > 0; r++) {
                double s = Kernels.REDUCTIONS.sum(m, 2 + r * (n + 5), 1, n);
                assertEquals((float) s, sums[1 + 2 * r], 0f, "row sum n=" + n);
                assertEquals((float) (s / n), means[1 + 2 * r], 0f, "row mean n=" + n);
                double p = plain.reductions().sum(m, 2 + r * (n + 5), 1, n);
                assertEquals((float) (p / n), plainMeans[1 + 2 * r], 0f, "plain row mean n=" + n);
                assertEquals(p, sums[1 + 2 * r], 1e-4 * (1 + n), "plain and vector row sums n=" + n);
            }
            float[] want = values(n, 0, 1);
            float[] got = want.clone();
            plain.reductions().addRow(a, 1, want, 2, n);
            Kernels.REDUCTIONS.addRow(a, 1, got, 2, n);
            assertArrayEquals(want, got, "add row n=" + n);
            float[] copyWant = new float[n];
            float[] copyGot = new float[n];
            assertEquals(plain.reductions().copySum(a, 3, copyWant, 0, n), Kernels.REDUCTIONS.copySum(a, 3, copyGot, 0, n), 1e-5);
            assertArrayEquals(copyWant, copyGot, "copy n=" + n);
            // Seven rows n + 2 apart summed down their columns, -0 and NaN planted: the vector strips add the rows in
            // the plain loop's order from +0, so the same bits (a column of -0 sums to +0, as the contract says).
            float[] grid = values(3 + 7 * (n + 2), -4, 4);
            if (n > 2) {
                grid[3 + n - 1] = Float.NaN;
                for (int r = 0; r < 7; r++) {
                    grid[3 + r * (n + 2) + 1] = -0f;
                }
            }
            for (int down : new int[] {1, 7}) {
                float[] colWant = new float[n];
                float[] colGot = new float[n];
                plain.reductions().columnSums(grid, 3, n + 2, down, colWant, n);
                Kernels.REDUCTIONS.columnSums(grid, 3, n + 2, down, colGot, n);
                assertArrayEquals(colWant, colGot, "column sums of " + down + " rows, n=" + n);
                if (n > 2) {
                    assertEquals(0, Float.floatToRawIntBits(colGot[1]), "a column of -0 sums to +0");
                }
            }
            if (n == 0) {
                continue;
            }
            for (boolean log : new boolean[] {false, true}) {
                float[] w = new float[n];
                float[] g = new float[n];
                plain.softmax().row(a, 1, 1, w, 0, 1, n, log);
                Kernels.SOFTMAX.row(a, 1, 1, g, 0, 1, n, log);
                assertClose(w, g, (log ? "log-softmax" : "softmax") + " n=" + n);
            }
            assertEquals(plain.softmax().max(a, 0, n), Kernels.SOFTMAX.max(a, 0, n), "max n=" + n);
            // A row of softmax across columns: each column's power, its sum added onto what the rows before left.
            float[] colMax = values(n, 4, 8);
            float[] powersWant = new float[n + 2];
            float[] powersGot = new float[n + 2];
            double[] sumsWant = new double[n];
            double[] sumsGot = new double[n];
            java.util.Arrays.fill(sumsWant, 0.5);
            java.util.Arrays.fill(sumsGot, 0.5);
            plain.softmax().expShiftedColumns(a, 1, colMax, powersWant, 2, sumsWant, n);
            Kernels.SOFTMAX.expShiftedColumns(a, 1, colMax, powersGot, 2, sumsGot, n);
            assertClose(powersWant, powersGot, "powers across columns n=" + n);
            for (int c = 0; c < n; c++) {
                assertEquals(0.5 + powersGot[2 + c], sumsGot[c], 0.0, "column " + c + "'s sum, n=" + n);
                assertEquals(sumsWant[c], sumsGot[c], 1e-6 * sumsWant[c], "plain and vector sums, column " + c + ", n=" + n);
            }
            boolean[] mask = new boolean[n + 1];
            for (int j = 0; j < mask.length; j++) {
                mask[j] = random.nextInt(3) == 0;
            }
            float[] w = new float[n];
            float[] g = new float[n];
            assertEquals(plain.softmax().maskedScale(a, 0, mask, 1, 1, n - 1, 0.5f, w, 0, n),
                    Kernels.SOFTMAX.maskedScale(a, 0, mask, 1, 1, n - 1, 0.5f, g, 0, n));
            assertArrayEquals(w, g, "masked scale n=" + n);
            float[] y = values(n, 0, 1);
            plain.softmax().gradient(a, 0, y, 1, 0.25f, w, 0, n);
            Kernels.SOFTMAX.gradient(a, 0, y, 1, 0.25f, g, 0, n);
            assertClose(w, g, "softmax gradient n=" + n);
        }
    }

    /**
     * Every 4099th float from the smallest subnormal up to infinity; where {@code lowest} is below 0, their negatives
     * too, none below {@code lowest}; then {@code special}.
     */
    private static float[] sampledFloats(float lowest, float... special) {
        int half = 0x7f800000 / 4099;
        int signs = lowest < 0 ? 2 : 1;
        float[] x = new float[signs * half + special.length];
        for (int i = 0; i < half; i++) {
            x[i] = Float.intBitsToFloat(1 + i * 4099);
            if (signs == 2) {
                x[half + i] = Math.max(lowest, -x[i]);
            }
        }
        System.arraycopy(special, 0, x, signs * half, special.length);
        return x;
    }

    @Test
    void logIsWithinTwoUlpOfMathLogOverTheWholeRange() {
        // Every 4099th float from the smallest subnormal to infinity, then the special values.
        float[] x = sampledFloats(0f, 0f, -0f, Float.POSITIVE_INFINITY, Float.NaN, -1f, Float.NEGATIVE_INFINITY, 1f, Float.MIN_VALUE);
        int count = x.length;
        float[] got = new float[count];
        Kernels.ELEMENTWISE.unary(UnaryOp.LOG, x, 0, got, 0, count);
        for (int i = 0; i < count; i++) {
            float want = (float) Math.log(x[i]);
            if (Float.isNaN(want) || Float.isInfinite(want)) {
                assertEquals(Float.floatToIntBits(want), Float.floatToIntBits(got[i]), "log(" + x[i] + ")");
            } else {
                assertEquals(want, got[i], 2 * Math.ulp(want), "log(" + x[i] + ")");
            }
        }
    }

    @Test
    void log1pIsWithinFourUlpOfMathLog1pOverTheWholeRange() {
        // Every 4099th float of either sign from the smallest subnormal up (the negatives stop at -1, past which the
        // answer is NaN), then the special values; more than one block of the kernel, and a tail.
        float[] x = sampledFloats(-1f, 0f, -0f, Float.POSITIVE_INFINITY, Float.NaN, -1f, Float.NEGATIVE_INFINITY, -1.5f,
                Float.MIN_VALUE, -0.99999994f, 5.9604645e-8f, -2.9802322e-8f, Float.MAX_VALUE);
        int count = x.length;
        float[] got = new float[count];
        Kernels.ELEMENTWISE.unary(UnaryOp.LOG1P, x, 0, got, 0, count);
        for (int i = 0; i < count; i++) {
            float want = (float) Math.log1p(x[i]);
            if (Float.isNaN(want) || Float.isInfinite(want) || want == 0f) {
                assertEquals(Float.floatToIntBits(want), Float.floatToIntBits(got[i]), "log1p(" + x[i] + ")");
            } else {
                assertEquals(want, got[i], 4 * Math.ulp(want), "log1p(" + x[i] + ")");
            }
        }
    }

    @Test
    void floorIsMathFloorBitForBitOverTheWholeRange() {
        // Every 4099th float of either sign, so fractions, integers, the floats past 2^23 and the special values.
        float[] x = sampledFloats(Float.NEGATIVE_INFINITY, 0f, -0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN,
                -0.5f, 0.5f, -2.5f, 2.5f, 8388607.5f, -8388607.5f, 8388608f, -4194304.5f, Float.MIN_VALUE, -Float.MIN_VALUE,
                -0.99999994f);
        float[] got = new float[x.length];
        Kernels.ELEMENTWISE.unary(UnaryOp.FLOOR, x, 0, got, 0, x.length);
        for (int i = 0; i < x.length; i++) {
            assertEquals(Float.floatToIntBits((float) Math.floor(x[i])), Float.floatToIntBits(got[i]), "floor(" + x[i] + ")");
        }
    }

    @Test
    void softplusIsWithinEightUlpOfTheDoubleFormula() {
        // -100 to 100 in steps of about 0.0061 (past e^x's normal range at -87, past the threshold at 20), and the
        // special values; several blocks and a tail.
        float[] special = {0f, -0f, 20f, Math.nextUp(20f), Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN, -87.5f, 88.8f};
        int steps = 32771;
        float[] x = new float[steps + special.length];
        for (int i = 0; i < steps; i++) {
            x[i] = -100f + 200f * i / steps;
        }
        System.arraycopy(special, 0, x, steps, special.length);
        float[] got = new float[x.length];
        Kernels.ELEMENTWISE.unary(UnaryOp.SOFTPLUS, x, 0, got, 0, x.length);
        for (int i = 0; i < x.length; i++) {
            float want = (float) (x[i] > 20 ? x[i] : Math.log1p(Math.exp(x[i])));
            if (!Float.isFinite(want)) {
                assertEquals(Float.floatToIntBits(want), Float.floatToIntBits(got[i]), "softplus(" + x[i] + ")");
            } else {
                assertEquals(want, got[i], 8 * Math.ulp(want) + 1.2e-38f, "softplus(" + x[i] + ")");
            }
        }
    }

    @Test
    void trueFlagsAreCountedAtEveryLengthAndOffset() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(41);
        for (int n = 0; n < 70; n++) {
            for (int density = 0; density <= 2; density++) {
                boolean[] m = new boolean[n + 5];
                int want = 0;
                for (int i = 0; i < m.length; i++) {
                    m[i] = density == 2 || density == 1 && r.nextBoolean();
                    want += i >= 3 && i < 3 + n && m[i] ? 1 : 0;
                }
                assertEquals(want, plain.reductions().countTrue(m, 3, n), "plain n=" + n);
                assertEquals(want, Kernels.REDUCTIONS.countTrue(m, 3, n), "n=" + n + " density " + density);
            }
        }
    }

    @Test
    void productsMatchThePlainChainsBitForBit() {
        // Lengths around the vector's eight and the tail; factors near 1 with a zero, an infinity or a NaN planted.
        for (int n : new int[] {0, 1, 7, 8, 15, 16, 17, 23, 24, 31, 64, 100, 1000, 4099}) {
            for (int plant = 0; plant < 4; plant++) {
                float[] a = values(n + 3, 0.5f, 2f);
                if (n > 20) {
                    a[3 + n / 2] = plant == 1 ? 0f : plant == 2 ? Float.POSITIVE_INFINITY : plant == 3 ? Float.NaN : a[3 + n / 2];
                }
                double want = ReductionKernels.productChains(a, 3, 1, n);
                assertEquals(Double.doubleToRawLongBits(want), Double.doubleToRawLongBits(plain.reductions().product(a, 3, n)), "plain n=" + n);
                assertEquals(Double.doubleToRawLongBits(want), Double.doubleToRawLongBits(Kernels.REDUCTIONS.product(a, 3, n)),
                        "n=" + n + " plant " + plant);
                double sequential = 1;
                for (int i = 0; i < n; i++) {
                    sequential *= a[3 + i];
                }
                if (Double.isFinite(sequential)) {
                    assertEquals(sequential, want, Math.abs(sequential) * 1e-13, "against one chain, n=" + n);
                } else {
                    assertEquals(Double.doubleToRawLongBits(sequential), Double.doubleToRawLongBits(want), "against one chain, n=" + n);
                }
            }
        }
    }

    @Test
    void extremesMatchThePlainLoopsBitForBit() {
        for (int n : new int[] {0, 1, 15, 16, 63, 64, 65, 100, 200, 1000}) {
            for (int plant = 0; plant < 5; plant++) {
                float[] a = values(n, -4, 4);
                // None; a NaN (a negative one with a payload where n is odd); all negative with -0 and +0 the largest; all
                // positive with -0 and +0 the smallest; both infinities.
                for (int i = 0; i < n; i++) {
                    a[i] = plant == 2 ? -Math.abs(a[i]) : plant == 3 ? Math.abs(a[i]) : a[i];
                    if (plant >= 2 && i % 7 == 0) {
                        a[i] = i % 14 == 0 ? -0f : 0f;
                    }
                }
                if (plant == 1 && n > 2) {
                    a[n / 2 + 1] = n % 2 == 0 ? Float.NaN : Float.intBitsToFloat(0xffc00123);
                }
                if (plant == 4 && n > 2) {
                    a[n / 3 + 2] = Float.NEGATIVE_INFINITY;
                    a[n / 2 + 2] = Float.POSITIVE_INFINITY;
                }
                for (boolean min : new boolean[] {false, true}) {
                    float want = plain.reductions().extreme(a, 2, Math.max(0, n - 2), min);
                    float got = Kernels.REDUCTIONS.extreme(a, 2, Math.max(0, n - 2), min);
                    assertEquals(Float.floatToRawIntBits(want), Float.floatToRawIntBits(got), (min ? "min" : "max") + " n=" + n + " plant " + plant);
                }
            }
        }
    }

    /**
     * where over every stride pattern (a run or a scalar condition and operands), with NaNs of other payloads and both
     * zeros among the values: the plain loop's bits, element for element.
     */
    @Test
    void whereMatchesThePlainLoopBitForBit() {
        for (int n : LENGTHS) {
            float[] p = values(n, -1, 1);
            float[] q = values(n, -1, 1);
            boolean[] m = new boolean[n + 5];
            for (int i = 0; i < m.length; i++) {
                m[i] = random.nextBoolean();
                if (i % 5 == 0) {
                    p[i] = Float.intBitsToFloat(0x7fc00000 | i);
                    q[i] = -0f;
                }
            }
            for (int pattern = 0; pattern < 8; pattern++) {
                int ms = pattern & 1;
                int ps = (pattern >> 1) & 1;
                int qs = (pattern >> 2) & 1;
                for (boolean first : new boolean[] {false, true}) {
                    m[2] = ms == 0 ? first : m[2];
                    float[] want = new float[n + 3];
                    float[] got = new float[n + 3];
                    plain.elementwise().where(m, 2, ms, p, 1, ps, q, 3, qs, want, 3, n);
                    Kernels.ELEMENTWISE.where(m, 2, ms, p, 1, ps, q, 3, qs, got, 3, n);
                    for (int i = 0; i < want.length; i++) {
                        assertEquals(Float.floatToRawIntBits(want[i]), Float.floatToRawIntBits(got[i]),
                                "where n=" + n + " strides " + ms + ps + qs + " at " + i);
                    }
                }
            }
        }
    }

    /** A row of softmax's and log-softmax's backward: the plain loop's two float operations, so its bits. */
    @Test
    void softmaxBackwardRowsMatchThePlainLoopBitForBit() {
        for (boolean log : new boolean[] {false, true}) {
            for (int n : LENGTHS) {
                float[] g = values(n, -2, 2);
                float[] v = values(n, 0, 1);
                float[] want = new float[n + 3];
                float[] got = new float[n + 3];
                plain.elementwise().softmaxBackwardRow(log, g, 1, v, 2, 0.37f, want, 3, n);
                Kernels.ELEMENTWISE.softmaxBackwardRow(log, g, 1, v, 2, 0.37f, got, 3, n);
                assertArrayEquals(want, got, (log ? "log_softmax" : "softmax") + " backward row n=" + n);
            }
        }
    }

    /** A sum of products has the bits of the sum of an array of the products, in both providers. */
    @Test
    void sumOfProductsIsTheSumOfTheProducts() {
        for (int n : new int[] {0, 1, 3, 7, 15, 16, 17, 33, 64, 65, 127, 512, 1000}) {
            float[] a = values(n, -3, 3);
            float[] b = values(n, -3, 3);
            float[] products = new float[n];
            for (int i = 0; i < n; i++) {
                products[i] = a[i + 1] * b[i + 2];
            }
            for (KernelProvider provider : new KernelProvider[] {plain, Kernels.PROVIDER}) {
                double want = provider.reductions().sum(products, 0, 1, n);
                double got = provider.reductions().sumOfProducts(a, 1, b, 2, n);
                assertEquals(Double.doubleToRawLongBits(want), Double.doubleToRawLongBits(got), "n=" + n + " " + provider.name());
            }
        }
    }

    /** sign over mixed signs with both zeros, NaNs of other payloads, infinities and subnormals: the plain loop's bits. */
    @Test
    void signMatchesThePlainLoopBitForBit() {
        float[] special = {0f, -0f, Float.NaN, Float.intBitsToFloat(0xffc00123), Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
            Float.MIN_VALUE, -Float.MIN_VALUE, 3.5f, -2e-30f};
        for (int n : LENGTHS) {
            float[] x = values(n, -1, 1);
            for (int i = 0; i < x.length; i += 2) {
                x[i] = special[(i / 2) % special.length];
            }
            float[] want = new float[n + 2];
            float[] got = new float[n + 2];
            plain.elementwise().unary(UnaryOp.SIGN, x, 1, want, 2, n);
            Kernels.ELEMENTWISE.unary(UnaryOp.SIGN, x, 1, got, 2, n);
            for (int i = 0; i < want.length; i++) {
                assertEquals(Float.floatToRawIntBits(want[i]), Float.floatToRawIntBits(got[i]), "sign n=" + n + " at " + i);
            }
        }
    }

    /** Sigmoid's, tanh's and SiLU's backward: the plain loop's float operations, so its bits. */
    @Test
    void activationBackwardsMatchThePlainLoopBitForBit() {
        for (UnaryOp op : new UnaryOp[] {UnaryOp.SIGMOID, UnaryOp.TANH, UnaryOp.SILU}) {
            for (int n : LENGTHS) {
                float[] g = values(n, -2, 2);
                float[] v = values(n, -3, 3);
                float[] s = values(n, 0, 1);
                float[] want = new float[n + 2];
                float[] got = new float[n + 2];
                plain.elementwise().activationBackward(op, g, 1, v, 2, s, 3, want, 2, n);
                Kernels.ELEMENTWISE.activationBackward(op, g, 1, v, 2, s, 3, got, 2, n);
                assertArrayEquals(want, got, op + " backward n=" + n);
            }
        }
    }

    @Test
    void adamMatchesThePlainLoopBitForBit() {
        for (int n : LENGTHS) {
            float[][] want = {values(n, -1, 1), values(n, -1, 1), values(n, -0.01f, 0.01f), values(n, 0, 0.01f)};
            float[][] got = new float[4][];
            for (int k = 0; k < 4; k++) {
                got[k] = want[k].clone();
            }
            plain.optimizer().adam(want[0], 1, want[1], 2, want[2], 0, want[3], 3, n, 0.9f, 0.99f, 0.01f, 0.003f, 0.14f, 1e-8f);
            Kernels.OPTIMIZER.adam(got[0], 1, got[1], 2, got[2], 0, got[3], 3, n, 0.9f, 0.99f, 0.01f, 0.003f, 0.14f, 1e-8f);
            for (int k = 0; k < 4; k++) {
                assertArrayEquals(want[k], got[k], "adam n=" + n + " array " + k);
            }
        }
    }

    /**
     * Layer norm's rows against the plain ones, with and without weight and bias, over lengths around the vector width:
     * the statistics within float rounding of their sums; given the plain statistics, every output element bit for bit
     * (both compute it with the same float operations); the parameter sums bit for bit, added to what was there.
     */
    @Test
    void layerNormRowsMatchThePlainOnes() {
        for (int c : new int[] {1, 7, 16, 17, 33, 64, 70, 128}) {
            for (boolean affine : new boolean[] {false, true}) {
                float[] x = values(c + 3, -2, 3);
                float[] w = affine ? values(c + 1, 0.5f, 1.5f) : null;
                float[] b = affine ? values(c + 2, -1, 1) : null;
                float[] g = values(c + 4, -1, 1);
                float[][] stats = {new float[2], new float[2], new float[2], new float[2]};
                float[] want = new float[c + 1];
                float[] got = new float[c + 1];
                plain.norm().forwardRow(x, 3, c, w, 1, b, 2, 1e-5, want, 1, stats[0], stats[1], 1);
                Kernels.NORM.forwardRow(x, 3, c, w, 1, b, 2, 1e-5, got, 1, stats[2], stats[3], 1);
                String what = "c=" + c + (affine ? " affine" : "");
                assertEquals(stats[0][1], stats[2][1], 1e-6f, "mean " + what);
                assertEquals(stats[1][1], stats[3][1], 1e-6f * stats[1][1], "rstd " + what);
                assertClose(want, got, "forward " + what);
                float m = stats[0][1];
                float rstd = stats[1][1];
                plain.norm().backwardRow(g, 4, x, 3, c, w, 1, m, rstd, want, 1);
                Kernels.NORM.backwardRow(g, 4, x, 3, c, w, 1, m, rstd, got, 1);
                for (int j = 1; j <= c; j++) {
                    assertEquals(want[j], got[j], 1e-5f * (1 + Math.abs(want[j])), "input gradient " + what + " at " + j);
                }
                float[][] sums = {new float[c], new float[c], new float[c], new float[c]};
                for (float[] s : sums) {
                    java.util.Arrays.fill(s, 0.25f);
                }
                plain.norm().paramRow(g, 4, x, 3, c, m, rstd, sums[0], sums[1]);
                Kernels.NORM.paramRow(g, 4, x, 3, c, m, rstd, sums[2], sums[3]);
                assertArrayEquals(sums[0], sums[2], "weight sums " + what);
                assertArrayEquals(sums[1], sums[3], "bias sums " + what);
                Kernels.NORM.paramRow(g, 4, x, 3, c, m, rstd, null, sums[3]);
                assertEquals(0.25f + g[4] + g[4], sums[3][0], "bias sums without weight sums " + what);
            }
        }
    }

    /**
     * Attention's products against the plain ones bit for bit (both sum each element by fused multiply-adds in the same
     * order): blocks of 1 to 9 rows of A or of A transposed, widths around two vectors, ranges of every length (empty ones
     * write zeros, or leave the rows as they were when accumulating), row strides wider than the rows, at odd offsets.
     */
    @Test
    void attentionProductsMatchThePlainOnesBitForBit() {
        for (int rows = 1; rows <= 9; rows++) {
            for (int n : new int[] {0, 1, 7, 16, 17, 31, 32, 33, 48, 64, 70}) {
                for (int[] range : new int[][] {{0, 0}, {0, 1}, {2, 9}, {0, 32}, {5, 37}}) {
                    for (boolean accumulate : new boolean[] {false, true}) {
                        int ars = 40;
                        int brs = n + 3;
                        int ors = n + 2;
                        float[] a = values(3 + Math.max(rows * ars, 10 * range[1] + rows), -1, 1);
                        float[] b = values(1 + range[1] * brs, -1, 1);
                        float[] want = values(5 + rows * ors, -1, 1);
                        float[] got = want.clone();
                        plain.attention().rowsTimes(a, 3, ars, 1, rows, range[0], range[1], b, 1, brs, n, want, 5, ors, accumulate);
                        Kernels.ATTENTION.rowsTimes(a, 3, ars, 1, rows, range[0], range[1], b, 1, brs, n, got, 5, ors, accumulate);
                        String what = rows + " rows, n=" + n + ", t in [" + range[0] + ", " + range[1] + ")" + (accumulate ? ", accumulating" : "");
                        assertArrayEquals(want, got, what);
                        // A read by columns: element (r, t) at 3 + r + 10 t.
                        plain.attention().rowsTimes(a, 3, 1, 10, rows, range[0], range[1], b, 1, brs, n, want, 5, ors, accumulate);
                        Kernels.ATTENTION.rowsTimes(a, 3, 1, 10, rows, range[0], range[1], b, 1, brs, n, got, 5, ors, accumulate);
                        assertArrayEquals(want, got, what + ", A transposed");
                    }
                }
            }
        }
        float[] out = {7f, 7f};
        Kernels.ATTENTION.rowsTimes(new float[1], 0, 1, 1, 1, 0, 0, new float[1], 0, 1, 2, out, 0, 2, false);
        assertArrayEquals(new float[] {0f, 0f}, out, "an empty range writes zeros");
    }

    /**
     * A head transposed for the products, against the definition: row counts around the 16-row blocks, column counts
     * around a vector, row strides wider than the rows, at odd offsets; nothing outside the result is written.
     */
    @Test
    void attentionTransposeMatchesTheDefinition() {
        for (int rows : new int[] {1, 5, 15, 16, 17, 32, 33, 64, 70}) {
            for (int cols : new int[] {1, 7, 16, 17, 32, 40}) {
                int rs = cols + 9;
                float[] src = values(3 + rows * rs, -1, 1);
                float[] got = values(rows * cols + 7, -1, 1);
                float[] want = got.clone();
                for (int j = 0; j < rows; j++) {
                    for (int c = 0; c < cols; c++) {
                        want[2 + c * rows + j] = src[3 + j * rs + c];
                    }
                }
                Kernels.ATTENTION.transpose(src, 3, rs, rows, cols, got, 2);
                assertArrayEquals(want, got, rows + " x " + cols);
            }
        }
    }

    /**
     * Attention's causal softmax row in one call: the same bits as its two steps (scaling with the mask, then the
     * softmax) in the same kernels, for every count of keys seen, whole vectors and not, and close to the plain kernels.
     */
    @Test
    void causalSoftmaxRowMatchesItsTwoStepsBitForBit() {
        for (int n : new int[] {1, 7, 8, 16, 17, 24, 32, 48, 64, 70, 80, 128}) {
            for (int seen = 1; seen <= n; seen++) {
                float[] a = values(n, -8, 8);
                float[] want = a.clone();
                float[] got = a.clone();
                float[] ref = a.clone();
                Kernels.SOFTMAX.maskedScale(want, 2, null, 0, 0, seen, 0.3f, want, 2, n);
                Kernels.SOFTMAX.row(want, 2, 1, want, 2, 1, n, false);
                Kernels.SOFTMAX.causalRow(got, 2, seen, 0.3f, n);
                plain.softmax().causalRow(ref, 2, seen, 0.3f, n);
                assertArrayEquals(want, got, "n=" + n + ", seen=" + seen);
                assertClose(ref, got, "against the plain kernels, n=" + n + ", seen=" + seen);
                for (int j = 2 + seen; j < 2 + n; j++) {
                    assertEquals(0f, got[j], "a masked key's weight, n=" + n + ", seen=" + seen);
                }
            }
        }
    }

    /** 2x2 max pooling, values and offsets bit for bit, over planes narrower and wider than half a vector, odd and even. */
    @Test
    void poolingMatchesThePlainLoopsBitForBit() {
        int[][] planes = {{2, 2}, {6, 6}, {13, 13}, {26, 26}, {27, 40}, {8, 70}};
        for (int[] hw : planes) {
            int h = hw[0];
            int w = hw[1];
            int outH = h / 2;
            int outW = w / 2;
            int count = 3;
            float[] x = values(count * h * w + 2, -1, 1);
            x[5] = Float.NaN;
            x[9] = x[10];
            float[][] want = {new float[count * outH * outW], new float[count * outH * outW]};
            float[][] got = {new float[count * outH * outW], new float[count * outH * outW]};
            plain.pooling().maxPool2x2(x, 2, h, w, outH, outW, want[0], want[1], 0, count);
            Kernels.POOLING.maxPool2x2(x, 2, h, w, outH, outW, got[0], got[1], 0, count);
            assertArrayEquals(want[0], got[0], "maxima of " + h + "x" + w);
            assertArrayEquals(want[1], got[1], "offsets of " + h + "x" + w);
            float[] g = values(count * outH * outW + 1, -1, 1);
            float[] gxWant = values(count * h * w, 5, 6);
            float[] gxGot = values(count * h * w, 7, 8);
            plain.pooling().maxPool2x2Backward(g, 1, want[1], 0, gxWant, h, w, outH, outW, 0, count);
            Kernels.POOLING.maxPool2x2Backward(g, 1, want[1], 0, gxGot, h, w, outH, outW, 0, count);
            int n = count * h * w;
            assertArrayEquals(java.util.Arrays.copyOf(gxWant, n), java.util.Arrays.copyOf(gxGot, n),
                    "gradient of " + h + "x" + w + " (every element of the planes written)");
        }
    }
}
