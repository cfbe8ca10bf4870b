package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * where, masked_fill, clamp and the six comparisons against their definitions, element by element, over random
 * shapes with distinct sizes, broadcast and transposed operands, and values that include NaN, -0 and +0: where and
 * masked_fill choose bits without looking at them, clamp is PyTorch's rule, comparisons are false on NaN but for ne.
 */
class WhereCompareTest {
    /** randn scaled, with NaN, -0 and +0 planted. */
    private static Tensor values(Random r, DType t, int... shape) {
        Tensor x = Tensor.randn(new Generator(r.nextLong()), shape).to(t);
        int n = x.numel();
        Tensor flat = x.reshape(-1);
        for (int k = 0; k < Math.max(1, n / 6); k++) {
            int at = r.nextInt(n);
            flat.set(k % 3 == 0 ? Double.NaN : k % 3 == 1 ? -0.0 : 0.0, at);
        }
        return x;
    }

    /** The element of a tensor broadcast to the output's shape (sizes of 1 repeat). */
    private static double broadcastGet(Tensor t, int[] idx) {
        int[] own = new int[t.dim()];
        for (int k = 0; k < own.length; k++) {
            own[k] = t.size(k) == 1 ? 0 : idx[idx.length - own.length + k];
        }
        return t.getDouble(own);
    }

    @Test
    void whereAndMaskedFillChooseTheBitsOfOneSide() {
        Random r = new Random(21);
        for (int trial = 0; trial < 40; trial++) {
            DType t = trial % 2 == 0 ? DType.FLOAT32 : DType.FLOAT64;
            int[] shape = {3 + r.nextInt(2), 5, 7 + r.nextInt(3)};
            Tensor a = values(r, t, shape);
            // b transposed in memory, the condition broadcast along the middle dim.
            Tensor b = values(r, t, shape[2], shape[1], shape[0]).permute(2, 1, 0);
            Tensor cond = values(r, DType.FLOAT32, shape[0], 1, shape[2]).gt(0);
            Tensor w = Tensor.where(cond, a, b);
            Tensor filled = b.maskedFill(cond, -0.0);
            for (int e = 0; e < w.numel(); e++) {
                int[] idx = Shape.unravel(e, shape);
                boolean c = broadcastGet(cond, idx) != 0;
                double want = c ? a.getDouble(idx) : b.getDouble(idx);
                assertEquals(Double.doubleToRawLongBits(want), Double.doubleToRawLongBits(w.getDouble(idx)), "where at " + e);
                double fill = c ? -0.0 : b.getDouble(idx);
                assertEquals(Double.doubleToRawLongBits(fill), Double.doubleToRawLongBits(filled.getDouble(idx)), "masked_fill at " + e);
            }
        }
    }

    @Test
    void maximumAndMinimumAreJavasMaxAndMin() {
        Random r = new Random(26);
        for (int trial = 0; trial < 20; trial++) {
            Tensor x = values(r, DType.FLOAT32, 6, 17 + trial);
            // y the same shape (contiguous or transposed) or one row broadcast down the rows.
            Tensor y = trial % 3 == 0 ? values(r, DType.FLOAT32, 17 + trial) : trial % 3 == 1 ? values(r, DType.FLOAT32, 6, 17 + trial)
                    : values(r, DType.FLOAT32, 17 + trial, 6).t();
            Tensor hi = x.maximum(y);
            Tensor lo = x.minimum(y);
            for (int e = 0; e < x.numel(); e++) {
                int[] idx = Shape.unravel(e, x.shape());
                float a = (float) x.getDouble(idx);
                float b = (float) broadcastGet(y, idx);
                assertEquals(Float.floatToRawIntBits(Math.max(a, b)), Float.floatToRawIntBits((float) hi.getDouble(idx)), "max(" + a + ", " + b + ")");
                assertEquals(Float.floatToRawIntBits(Math.min(a, b)), Float.floatToRawIntBits((float) lo.getDouble(idx)), "min(" + a + ", " + b + ")");
            }
        }
    }

    @Test
    void clampIsPyTorchsRuleInEveryLayoutAndType() {
        Random r = new Random(22);
        for (int trial = 0; trial < 20; trial++) {
            DType t = trial % 4 == 3 ? DType.FLOAT64 : DType.FLOAT32;
            Tensor x = values(r, t, 6, 11 + trial);
            Tensor in = trial % 2 == 0 ? x : x.t();
            Tensor y = in.clamp(0.0, 0.75);
            for (int e = 0; e < y.numel(); e++) {
                int[] idx = Shape.unravel(e, in.shape());
                double v = in.getDouble(idx);
                // Below the low bound: the bound; then above the high one: that bound; NaN and -0 as they are.
                double want = v < 0 ? 0.0 : v > 0.75 ? 0.75 : v;
                assertEquals(Double.doubleToRawLongBits(want), Double.doubleToRawLongBits(y.getDouble(idx)), "clamp at " + e);
            }
        }
        // torch.tensor([-0., 0., nan, -2., 2., .5] * 8): clamp(0, 1) keeps -0; clamp(-1, -0.) keeps +0 and gives -0 above.
        float[] v = new float[48];
        for (int i = 0; i < v.length; i++) {
            v[i] = new float[] {-0f, 0f, Float.NaN, -2f, 2f, 0.5f}[i % 6];
        }
        float[] up = Tensor.of(v, 48).clamp(0.0, 1.0).toFloatArray();
        float[] down = Tensor.of(v, 48).clamp(-1.0, -0.0).toFloatArray();
        for (int i = 0; i < 48; i += 6) {
            assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(up[i]));
            assertEquals(Float.floatToRawIntBits(0f), Float.floatToRawIntBits(down[i + 1]));
            assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(down[i + 4]));
            assertEquals(Float.floatToRawIntBits(0f), Float.floatToRawIntBits(up[i + 3]));
        }
    }

    @Test
    void comparisonsOfTwoTensorsFollowTheirDefinition() {
        Random r = new Random(23);
        for (int trial = 0; trial < 30; trial++) {
            Tensor a = values(r, DType.FLOAT32, 4, 9 + trial);
            // b shares a third of a's values, so that equality holds somewhere; every other trial transposed.
            Tensor b = values(r, DType.FLOAT32, 4, 9 + trial);
            for (int e = 0; e < b.numel(); e += 3) {
                int[] idx = Shape.unravel(e, b.shape());
                b.set(a.getDouble(idx), idx);
            }
            Tensor bb = trial % 2 == 0 ? b : b.t().contiguous().t();
            Tensor[] got = {a.eq(bb), a.ne(bb), a.lt(bb), a.le(bb), a.gt(bb), a.ge(bb)};
            for (int e = 0; e < a.numel(); e++) {
                int[] idx = Shape.unravel(e, a.shape());
                double x = a.getDouble(idx);
                double y = b.getDouble(idx);
                boolean[] want = {x == y, x != y, x < y, x <= y, x > y, x >= y};
                for (int op = 0; op < 6; op++) {
                    assertEquals(want[op], got[op].getBool(idx), "comparison " + op + " of " + x + " and " + y);
                }
            }
        }
    }

    @Test
    void signAndSquaresGiveMathsBits() {
        Random r = new Random(24);
        for (int trial = 0; trial < 10; trial++) {
            Tensor x = values(r, DType.FLOAT32, 5, 40 + trial).mul(1e20 * (trial % 3) + 1);
            x.reshape(-1).set(Double.POSITIVE_INFINITY, 1).set(Double.NEGATIVE_INFINITY, 2).set(Float.MIN_VALUE, 3).set(-Float.MIN_VALUE, 4);
            Tensor in = trial % 2 == 0 ? x : x.t();
            Tensor sign = in.sign();
            Tensor square = in.pow(2.0);
            Tensor same = in.pow(1.0);
            for (int e = 0; e < in.numel(); e++) {
                int[] idx = Shape.unravel(e, in.shape());
                float v = (float) in.getDouble(idx);
                assertEquals(Float.floatToRawIntBits(Math.signum(v)), Float.floatToRawIntBits((float) sign.getDouble(idx)), "sign(" + v + ")");
                assertEquals(Float.floatToRawIntBits((float) Math.pow(v, 2.0)), Float.floatToRawIntBits((float) square.getDouble(idx)), "pow(" + v + ", 2)");
                assertEquals(Float.floatToRawIntBits((float) Math.pow(v, 1.0)), Float.floatToRawIntBits((float) same.getDouble(idx)), "pow(" + v + ", 1)");
            }
        }
    }

    @Test
    void logicalOpsOfMasksFollowTheirDefinition() {
        Random r = new Random(25);
        for (int trial = 0; trial < 10; trial++) {
            Tensor p = values(r, DType.FLOAT32, 6, 30 + trial).gt(0);
            Tensor q = values(r, DType.FLOAT32, 30 + trial, 6).gt(0).t();
            Tensor[] got = {p.logicalAnd(q), p.logicalOr(q), p.logicalXor(q), p.eq(q), p.ne(q), p.logicalNot()};
            for (int e = 0; e < p.numel(); e++) {
                int[] idx = Shape.unravel(e, p.shape());
                boolean a = p.getBool(idx);
                boolean b = q.getBool(idx);
                boolean[] want = {a && b, a || b, a != b, a == b, a != b, !a};
                for (int op = 0; op < want.length; op++) {
                    assertEquals(want[op], got[op].getBool(idx), "logical op " + op + " of " + a + " and " + b);
                }
            }
        }
    }

    /** isnan and logical_not of float32 tensors (contiguous and transposed), element by element: NaN, -0 and +0 planted. */
    @Test
    void isnanAndLogicalNotFollowTheirDefinition() {
        Random r = new Random(59);
        for (int trial = 0; trial < 10; trial++) {
            Tensor base = values(r, DType.FLOAT32, 5 + trial, 33);
            for (Tensor x : new Tensor[] {base, base.t()}) {
                Tensor nan = x.isnan();
                Tensor not = x.logicalNot();
                Positions.forEach(x.shape(), idx -> {
                    double v = x.getDouble(idx);
                    assertEquals(Double.isNaN(v), nan.getBool(idx), "isnan(" + v + ")");
                    assertEquals(v == 0.0, not.getBool(idx), "logical_not(" + v + ")");
                });
            }
        }
    }
}
