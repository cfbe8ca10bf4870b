package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * logsumexp, prod and argmax/argmin/max along every dim (and pairs of dims) of float32 tensors with distinct sizes,
 * against references computed in double one element at a time: the reductions run as unit-stride runs through the
 * vector kernels (a reduced dim that is not the last is first moved last by a copy), so each layout is checked, and
 * the special values (infinities, NaN, ties, -0 and +0) go the way PyTorch's do.
 */
class RunReductionTest {
    private static final int[] SHAPE = {7, 45, 19};

    /** The reduced elements of one output position: all positions of x whose kept coordinates are {@code kept}. */
    private static double[] reducedElements(Tensor x, boolean[] red, int[] kept) {
        int[] rShape = new int[x.dim()];
        for (int d = 0; d < x.dim(); d++) {
            rShape[d] = red[d] ? x.size(d) : 1;
        }
        double[] v = new double[Shape.numel(rShape)];
        int[] at = {0};
        Positions.forEach(rShape, idx -> {
            int[] full = new int[x.dim()];
            for (int d = 0, k = 0; d < x.dim(); d++) {
                full[d] = red[d] ? idx[d] : kept[k++];
            }
            v[at[0]++] = x.getDouble(full);
        });
        return v;
    }

    private static double logsumexp(double[] v) {
        double m = Double.NEGATIVE_INFINITY;
        for (double e : v) {
            m = Math.max(m, e);
        }
        if (Double.isInfinite(m) || Double.isNaN(m)) {
            return m;
        }
        double s = 0;
        for (double e : v) {
            s += Math.exp(e - m);
        }
        return m + Math.log(s);
    }

    private static double product(double[] v) {
        double p = 1;
        for (double e : v) {
            p *= e;
        }
        return p;
    }

    private static void checkAlong(Tensor x, int[] dims) {
        boolean[] red = Reduce.reducedMask(dims, x.dim());
        Tensor lse = x.logsumexp(dims, false);
        Tensor prod = x.prod(dims, false);
        Positions.forEach(lse.shape(), kept -> {
            double[] v = reducedElements(x, red, kept);
            double want = logsumexp(v);
            double got = lse.getDouble(kept);
            String where = "logsumexp over " + java.util.Arrays.toString(dims) + " at " + java.util.Arrays.toString(kept);
            if (Double.isNaN(want)) {
                assertTrue(Double.isNaN(got), where + ": " + got);
            } else {
                assertEquals(want, got, 2e-6 * Math.max(1, Math.abs(want)), where);
            }
        });
        Positions.forEach(prod.shape(), kept -> {
            double want = (float) product(reducedElements(x, red, kept));
            double got = prod.getDouble(kept);
            String where = "prod over " + java.util.Arrays.toString(dims) + " at " + java.util.Arrays.toString(kept);
            if (Double.isNaN(want)) {
                assertTrue(Double.isNaN(got), where + ": " + got);
            } else {
                assertEquals(want, got, 1e-6 * Math.abs(want) + 1e-30, where);
            }
        });
    }

    @Test
    void logsumexpAndProdAlongEveryDimMatchADoubleReference() {
        // Values near 1 for the products (45 of them stay far from overflow), spread for logsumexp; a few rows planted
        // with -inf throughout, one +inf, one NaN.
        Tensor x = Tensor.randn(new Generator(4), SHAPE).mul(0.3).add(1.0);
        x.set(Double.POSITIVE_INFINITY, 2, 3, 4).set(Double.NaN, 5, 40, 17);
        for (int j = 0; j < SHAPE[1]; j++) {
            x.set(Double.NEGATIVE_INFINITY, 6, j, 0);
        }
        for (int k = 0; k < SHAPE[2]; k++) {
            x.set(Double.NEGATIVE_INFINITY, 1, 7, k);
        }
        for (int d = 0; d < 3; d++) {
            checkAlong(x, new int[] {d});
        }
        checkAlong(x, new int[] {0, 2});
        checkAlong(x, new int[] {0, 1});
        checkAlong(x.transpose(0, 2), new int[] {2});
        checkAlong(Tensor.randn(new Generator(5), SHAPE).mul(30.0), new int[] {1});
    }

    @Test
    void argmaxAndArgminTakeTheFirstExtremeAlongEveryDim() {
        Random r = new Random(17);
        // Few distinct values, so that ties are common; NaN, -0 and +0 planted.
        Tensor x = Tensor.randn(new Generator(6), SHAPE).mul(2.0).floor();
        for (int k = 0; k < 40; k++) {
            int[] at = {r.nextInt(SHAPE[0]), r.nextInt(SHAPE[1]), r.nextInt(SHAPE[2])};
            x.set(k % 4 == 0 ? Double.NaN : k % 2 == 0 ? -0.0 : 0.0, at);
        }
        for (int d = 0; d < 3; d++) {
            for (boolean isMax : new boolean[] {true, false}) {
                ValuesIndices<Tensor> got = isMax ? x.max(d, false) : x.min(d, false);
                Tensor arg = isMax ? x.argmax(d, false) : x.argmin(d, false);
                int dim = d;
                Positions.forEach(got.values().shape(), kept -> {
                    double[] v = reducedElements(x, Reduce.reducedMask(new int[] {dim}, 3), kept);
                    int best = 0;
                    for (int k = 1; k < v.length && !Double.isNaN(v[best]); k++) {
                        if (Double.isNaN(v[k]) || (isMax ? v[k] > v[best] : v[k] < v[best])) {
                            best = k;
                        }
                    }
                    String where = (isMax ? "max" : "min") + " over " + dim + " at " + java.util.Arrays.toString(kept);
                    assertEquals(best, got.indices().getLong(kept), where);
                    assertEquals(best, arg.getLong(kept), "arg" + where);
                    assertEquals(Double.doubleToRawLongBits(v[best]), Double.doubleToRawLongBits(got.values().getDouble(kept)), where);
                });
            }
        }
        // A tie between -0 and +0 is won by the first: its own bits come back, not the sign the extreme has.
        Tensor zeros = Tensor.of(new float[] {0f, -0f, -1f, -0f, 0f, -1f}, 2, 3);
        assertEquals(Float.floatToRawIntBits(0f), Float.floatToRawIntBits((float) zeros.max(1, false).values().getDouble(0)));
        assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits((float) zeros.max(1, false).values().getDouble(1)));
        Tensor ones = zeros.neg();
        assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits((float) ones.min(1, false).values().getDouble(0)));
        assertEquals(Float.floatToRawIntBits(0f), Float.floatToRawIntBits((float) ones.min(1, false).values().getDouble(1)));
        assertEquals(0L, ones.argmin(1, false).getLong(1));
    }

    /**
     * Sums and means over the leading dim of a float32 matrix large enough to be split across the threads by columns:
     * the same bits on one thread and on two, and each column within float rounding of its sum in double.
     */
    @Test
    @org.junit.jupiter.api.extension.ExtendWith(AllThreads.class)
    void columnSumsAreTheSameOnOneThreadAndOnTwo() {
        Tensor x = Tensor.randn(new Generator(21), 301, 517);
        Backend.setThreads(1);
        float[] sum1 = x.sum(0, false).toFloatArray();
        float[] mean1 = x.mean(new int[] {0}, true).toFloatArray();
        Backend.setThreads(2);
        float[] sum2 = x.sum(0, false).toFloatArray();
        org.junit.jupiter.api.Assertions.assertArrayEquals(sum1, sum2, 0f, "sum over dim 0");
        org.junit.jupiter.api.Assertions.assertArrayEquals(mean1, x.mean(new int[] {0}, true).toFloatArray(), 0f, "mean over dim 0");
        for (int c = 0; c < 517; c++) {
            double want = 0;
            for (int r = 0; r < 301; r++) {
                want += x.getDouble(r, c);
            }
            assertEquals(want, sum2[c], 1e-4, "column " + c);
            assertEquals(want / 301, mean1[c], 1e-6, "mean of column " + c);
        }
    }
}
