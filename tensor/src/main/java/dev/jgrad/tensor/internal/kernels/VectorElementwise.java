package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.BinaryOp;
import dev.jgrad.tensor.UnaryOp;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API's elementwise family: the common binary and unary ops over unit-stride float32 rows; rows shorter
 * than {@link Tuning#MIN_VECTOR_RUN} and ops without a vector loop go to the plain family. Each method holds its loops
 * itself rather than calling a small loop method: every call level C2 inlines counts against its inlining depth and its
 * budget of inlined code, and a Vector API operation left past either is not compiled to vector instructions but runs
 * as Java, allocating. Where one method would hold too many loops (binaryRows' four ops), each op's loops are a method
 * too large for C2 to inline, which it compiles on its own ({@link VectorBinaryRows}, generated from one template).
 * Loaded only where jdk.incubator.vector is present (see {@link Simd}).
 */
final class VectorElementwise implements ElementwiseKernels {
    private static final VectorSpecies<Float> S = VectorMath.S;
    private static final int L = VectorMath.L;
    private static final ElementwiseKernels PLAIN = PlainKernels.PROVIDER.elementwise();

    // The operators are constants in every loop: the JIT only turns a lanewise op into vector
    // instructions when it can see which op it is; an operator held in a variable runs in plain Java.

    @Override
    public void binary(BinaryOp op, float[] a, int ao, float[] b, int bo, float[] o, int oo, int n) {
        binaryRows(op, a, ao, 0, b, bo, 0, o, oo, 0, 1, n);
    }

    /**
     * {@code o = a op b} over {@code rows} rows of n unit-stride elements, each operand's rows
     * {@code ars}, {@code brs}, {@code ors} apart: short rows (a broadcast over (256, 256, 64)) then cost
     * one call, not one per row.
     */
    @Override
    public void binaryRows(BinaryOp op, float[] a, int ao, int ars, float[] b, int bo, int brs, float[] o, int oo, int ors, int rows, int n) {
        if (n < Tuning.MIN_VECTOR_RUN) {
            PLAIN.binaryRows(op, a, ao, ars, b, bo, brs, o, oo, ors, rows, n);
            return;
        }
        int bound = S.loopBound(n);
        // Short whole-vector rows laid end to end in the output, each operand's rows end to end too or one row repeated
        // (a broadcast over (256, 256, 64)): one loop over all the rows instead of a loop per row whose entry and exit
        // cost more than its four vectors. Where n is a power of two of four vectors or more, the repeated operand's
        // index is i & (n - 1) (a mask of all ones leaves a streamed operand's i as it is): a counted loop over a single
        // index, four vectors a step that never cross a row's end. Other lengths wrap a second index at each row's end;
        // C2 compiled that loop in some JVMs with its counters kept on the stack.
        boolean stream = rows > 1 && bound == n && n <= Tuning.STREAM_MAX_ROW && ors == n && (ars == n || ars == 0)
                && (brs == n || brs == 0);
        int layout = !stream ? VectorBinaryRows.BY_ROW
                : Integer.bitCount(n) == 1 && n >= 4 * L ? VectorBinaryRows.MASKED : VectorBinaryRows.WRAPPED;
        // One method per op, each compiled on its own (VectorBinaryRows says why).
        switch (op) {
            case ADD:
                VectorBinaryRows.add(layout, a, ao, ars, b, bo, brs, o, oo, ors, rows, n);
                break;
            case SUB:
                VectorBinaryRows.sub(layout, a, ao, ars, b, bo, brs, o, oo, ors, rows, n);
                break;
            case MUL:
                VectorBinaryRows.mul(layout, a, ao, ars, b, bo, brs, o, oo, ors, rows, n);
                break;
            case DIV:
                VectorBinaryRows.div(layout, a, ao, ars, b, bo, brs, o, oo, ors, rows, n);
                break;
            case MAXIMUM:
            case MINIMUM:
                extremeRows(op == BinaryOp.MINIMUM, a, ao, ars, b, bo, brs, o, oo, ors, rows, n);
                return;
            case ATAN2:
                for (int r = 0; r < rows; r++) {
                    VectorAtan.atan2Loop(a, ao + r * ars, b, bo + r * brs, o, oo + r * ors, n);
                }
                return;
            default:
                PLAIN.binaryRows(op, a, ao, ars, b, bo, brs, o, oo, ors, rows, n);
                return;
        }
        for (int r = 0; r < rows && bound < n; r++) {
            for (int i = bound; i < n; i++) {
                o[oo + r * ors + i] = arith(op, a[ao + r * ars + i], b[bo + r * brs + i]);
            }
        }
    }

    /**
     * {@code o = max(a, b)}, or min, row by row: the Vector API's max and min are Java's (NaN wins, -0 is below +0), so
     * the same bits as the plain loop's Math.max and Math.min; each op has its own loop, its operator a constant.
     */
    private static void extremeRows(boolean min, float[] a, int ao, int ars, float[] b, int bo, int brs, float[] o, int oo, int ors,
                                    int rows, int n) {
        int bound = S.loopBound(n);
        for (int r = 0; r < rows; r++) {
            int ai = ao + r * ars;
            int bi = bo + r * brs;
            int oi = oo + r * ors;
            int i = 0;
            if (min) {
                for (; i < bound; i += L) {
                    FloatVector.fromArray(S, a, ai + i).min(FloatVector.fromArray(S, b, bi + i)).intoArray(o, oi + i);
                }
                for (; i < n; i++) {
                    o[oi + i] = Math.min(a[ai + i], b[bi + i]);
                }
            } else {
                for (; i < bound; i += L) {
                    FloatVector.fromArray(S, a, ai + i).max(FloatVector.fromArray(S, b, bi + i)).intoArray(o, oi + i);
                }
                for (; i < n; i++) {
                    o[oi + i] = Math.max(a[ai + i], b[bi + i]);
                }
            }
        }
    }

    /** The four arithmetic ops in float, for the tails of the loops above (which only take those four). */
    private static float arith(BinaryOp op, float x, float y) {
        switch (op) {
            case ADD:
                return x + y;
            case SUB:
                return x - y;
            case MUL:
                return x * y;
            default:
                return x / y;
        }
    }

    /** {@code o = a cmp b} for the six comparisons, b a run or a scalar (a ReLU's mask, say); NaN compares false but for NE. */
    @Override
    public void compare(BinaryOp op, float[] a, int ao, float[] b, int bo, int bs, boolean[] o, int oo, int n) {
        if (n < Tuning.MIN_VECTOR_RUN) {
            PLAIN.compare(op, a, ao, b, bo, bs, o, oo, n);
            return;
        }
        boolean run = bs != 0;
        float s = b[bo];
        // A method per comparison, each with its operator a constant (CompareRunsGenerator says why).
        int i;
        switch (op) {
            case EQ:
                i = VectorCompareRuns.equal(a, ao, b, bo, run, s, o, oo, n);
                break;
            case NE:
                i = VectorCompareRuns.notEqual(a, ao, b, bo, run, s, o, oo, n);
                break;
            case LT:
                i = VectorCompareRuns.less(a, ao, b, bo, run, s, o, oo, n);
                break;
            case LE:
                i = VectorCompareRuns.lessOrEqual(a, ao, b, bo, run, s, o, oo, n);
                break;
            case GT:
                i = VectorCompareRuns.greater(a, ao, b, bo, run, s, o, oo, n);
                break;
            case GE:
                i = VectorCompareRuns.greaterOrEqual(a, ao, b, bo, run, s, o, oo, n);
                break;
            default:
                i = 0;
                break;
        }
        if (i < n) {
            PLAIN.compare(op, a, ao + i, b, bo + i * bs, bs, o, oo + i, n - i);
        }
    }

    @Override
    public void geluBackward(float[] g, int go, float[] x, int xo, float[] o, int oo, int n) {
        if (n < Tuning.MIN_VECTOR_RUN) {
            PLAIN.geluBackward(g, go, x, xo, o, oo, n);
            return;
        }
        VectorMath.erfLoop(VectorMath.GELU_BACKWARD, x, xo, g, go, o, oo, n);
    }

    /** The plain loop's float operations in its order, a vector of j at a time (no fused multiply-adds: the same bits). */
    @Override
    public void lstmCellBackward(float[] dy, int yr, float[] dh, float[] dc, int hr, float[] gates, int gr, float[] tc, int tr,
                                 float[] hPrev, int pr, float[] dGates, int h) {
        int bound = S.loopBound(h);
        FloatVector one = FloatVector.broadcast(S, 1f);
        for (int j = 0; j < bound; j += L) {
            FloatVector gh = FloatVector.fromArray(S, dy, yr + j).add(FloatVector.fromArray(S, dh, hr + j));
            FloatVector i = FloatVector.fromArray(S, gates, gr + j);
            FloatVector f = FloatVector.fromArray(S, gates, gr + h + j);
            FloatVector gg = FloatVector.fromArray(S, gates, gr + 2 * h + j);
            FloatVector o = FloatVector.fromArray(S, gates, gr + 3 * h + j);
            FloatVector tanhC = FloatVector.fromArray(S, tc, tr + j);
            FloatVector dNew = FloatVector.fromArray(S, dy, yr + h + j).add(FloatVector.fromArray(S, dc, hr + j))
                    .add(gh.mul(o).mul(one.sub(tanhC.mul(tanhC))));
            dNew.mul(gg).mul(i).mul(one.sub(i)).intoArray(dGates, gr + j);
            dNew.mul(FloatVector.fromArray(S, hPrev, pr + j)).mul(f).mul(one.sub(f)).intoArray(dGates, gr + h + j);
            dNew.mul(i).mul(one.sub(gg.mul(gg))).intoArray(dGates, gr + 2 * h + j);
            gh.mul(tanhC).mul(o).mul(one.sub(o)).intoArray(dGates, gr + 3 * h + j);
            dNew.mul(f).intoArray(dc, hr + j);
        }
        PlainKernels.lstmCellBackwardFrom(bound, dy, yr, dh, dc, hr, gates, gr, tc, tr, hPrev, pr, dGates, h);
    }

    /** {@code o = min(max(a, lo), hi)}. */
    @Override
    public void clamp(float[] a, int ao, float lo, float hi, float[] o, int oo, int n) {
        int bound = S.loopBound(n);
        int i = 0;
        // Two compares and blends (MathFns.clamp's rule), not the Vector API's max and min: those are Java's, a dozen
        // instructions each for their NaN and signed-zero rules, and give +0 where PyTorch keeps -0.
        for (; i < bound; i += L) {
            FloatVector x = FloatVector.fromArray(S, a, ao + i);
            FloatVector y = x.blend(lo, x.compare(VectorOperators.LT, lo));
            y.blend(hi, y.compare(VectorOperators.GT, hi)).intoArray(o, oo + i);
        }
        for (; i < n; i++) {
            o[oo + i] = MathFns.clamp(a[ao + i], lo, hi);
        }
    }

    /** A vector's lanes in the opposite order. */
    private static final VectorShuffle<Float> REVERSE = VectorShuffle.fromOp(S, i -> L - 1 - i);

    /** A vector read from the run's other end, its lanes reversed, at a time. */
    @Override
    public void reversed(float[] a, int ao, float[] o, int oo, int n) {
        int i = 0;
        for (; i + L <= n; i += L) {
            FloatVector.fromArray(S, a, ao - i - (L - 1)).rearrange(REVERSE).intoArray(o, oo + i);
        }
        for (; i < n; i++) {
            o[oo + i] = a[ao - i];
        }
    }

    /** Sixteen lines at a time transposed in vector registers ({@link VectorTranspose}), the rest one float at a time. */
    @Override
    public void transposeLines(float[] src, int so, int sStride, int lines, int len, float[] dst, int d0, int dStride) {
        int i = 0;
        if (VectorTranspose.AVAILABLE && dStride >= 16) {
            for (; i + 16 <= lines; i += 16) {
                VectorTranspose.lines(src, so + i * sStride, sStride, 16, len, dst, d0 + i, dStride);
            }
        }
        ElementwiseKernels.transposeLinesFrom(i, src, so, sStride, lines, len, dst, d0, dStride);
    }

    @Override
    public void leakyRelu(float[] x, int xo, float[] g, int go, float slope, float[] o, int oo, int n) {
        int bound = S.loopBound(n);
        int i = 0;
        for (; i < bound; i += L) {
            FloatVector gv = FloatVector.fromArray(S, g, go + i);
            gv.mul(slope).blend(gv, FloatVector.fromArray(S, x, xo + i).compare(VectorOperators.GT, 0f)).intoArray(o, oo + i);
        }
        for (; i < n; i++) {
            o[oo + i] = x[xo + i] > 0 ? g[go + i] : g[go + i] * slope;
        }
    }

    /** {@code o = y <= 0 ? 0 : g}, ReLU's backward. */
    @Override
    public void reluBackward(float[] g, int go, float[] y, int yo, float[] o, int oo, int n) {
        int bound = S.loopBound(n);
        int i = 0;
        FloatVector zero = FloatVector.zero(S);
        for (; i < bound; i += L) {
            FloatVector yv = FloatVector.fromArray(S, y, yo + i);
            FloatVector.fromArray(S, g, go + i).blend(zero, yv.compare(VectorOperators.LE, 0f)).intoArray(o, oo + i);
        }
        for (; i < n; i++) {
            o[oo + i] = y[yo + i] <= 0 ? 0 : g[go + i];
        }
    }

    @Override
    public void softmaxBackwardRow(boolean log, float[] g, int go, float[] v, int vo, float s, float[] o, int oo, int n) {
        int i = 0;
        int bound = S.loopBound(n);
        FloatVector sv = FloatVector.broadcast(S, s);
        if (log) {
            for (; i < bound; i += L) {
                FloatVector.fromArray(S, g, go + i).sub(FloatVector.fromArray(S, v, vo + i).mul(sv)).intoArray(o, oo + i);
            }
        } else {
            for (; i < bound; i += L) {
                FloatVector.fromArray(S, v, vo + i).mul(FloatVector.fromArray(S, g, go + i).sub(sv)).intoArray(o, oo + i);
            }
        }
        PlainKernels.softmaxBackwardRowFrom(i, log, g, go, v, vo, s, o, oo, n);
    }

    @Override
    public void where(boolean[] m, int mo, int ms, float[] p, int po, int ps, float[] q, int qo, int qs, float[] o, int oo, int n) {
        int i = 0;
        if (n >= Tuning.MIN_VECTOR_RUN && (ms == 0 || ms == 1) && (ps == 0 || ps == 1) && (qs == 0 || qs == 1)) {
            // Runs and scalars: a blend selects each lane's bits, as the plain loop does; a scalar operand is broadcast
            // once, and a scalar condition (the same on every element) leaves the choice out of the loop. Other strides
            // are the plain loop's.
            FloatVector pb = FloatVector.broadcast(S, p[po]);
            FloatVector qb = FloatVector.broadcast(S, q[qo]);
            boolean pRun = ps != 0;
            boolean qRun = qs != 0;
            int bound = S.loopBound(n);
            if (ms != 0) {
                for (; i < bound; i += L) {
                    FloatVector a = pRun ? FloatVector.fromArray(S, p, po + i) : pb;
                    FloatVector b = qRun ? FloatVector.fromArray(S, q, qo + i) : qb;
                    b.blend(a, VectorMask.fromArray(S, m, mo + i)).intoArray(o, oo + i);
                }
            } else {
                boolean first = m[mo];
                for (; i < bound; i += L) {
                    FloatVector a = first ? (pRun ? FloatVector.fromArray(S, p, po + i) : pb) : (qRun ? FloatVector.fromArray(S, q, qo + i) : qb);
                    a.intoArray(o, oo + i);
                }
            }
        }
        PlainKernels.whereFrom(i, m, mo, ms, p, po, ps, q, qo, qs, o, oo, n);
    }

    @Override
    public void activationBackward(UnaryOp op, float[] g, int go, float[] v, int vo, float[] s, int so, float[] o, int oo, int n) {
        int bound = S.loopBound(n);
        int i = 0;
        FloatVector one = FloatVector.broadcast(S, 1f);
        // One loop per op, each the plain loop's float operations in its order: the same bits.
        switch (op) {
            case SIGMOID:
                for (; i < bound; i += L) {
                    FloatVector y = FloatVector.fromArray(S, v, vo + i);
                    FloatVector.fromArray(S, g, go + i).mul(y.mul(one.sub(y))).intoArray(o, oo + i);
                }
                break;
            case TANH:
                for (; i < bound; i += L) {
                    FloatVector y = FloatVector.fromArray(S, v, vo + i);
                    FloatVector.fromArray(S, g, go + i).mul(one.sub(y.mul(y))).intoArray(o, oo + i);
                }
                break;
            case SILU:
                for (; i < bound; i += L) {
                    FloatVector sg = FloatVector.fromArray(S, s, so + i);
                    FloatVector x = FloatVector.fromArray(S, v, vo + i);
                    FloatVector.fromArray(S, g, go + i).mul(sg.mul(x.mul(one.sub(sg)).add(one))).intoArray(o, oo + i);
                }
                break;
            default:
                break;
        }
        PlainKernels.activationBackwardFrom(i, op, g, go, v, vo, s, so, o, oo, n);
    }

    /** {@code o = a op s} with a scalar right operand. */
    @Override
    public void binaryScalar(BinaryOp op, float[] a, int ao, float[] b, int bo, float[] o, int oo, int n) {
        if (n < Tuning.MIN_VECTOR_RUN) {
            PLAIN.binaryScalar(op, a, ao, b, bo, o, oo, n);
            return;
        }
        float s = b[bo];
        int i = 0;
        int bound = S.loopBound(n);
        FloatVector sv = FloatVector.broadcast(S, s);
        switch (op) {
            case ADD:
                for (; i < bound; i += L) {
                    FloatVector.fromArray(S, a, ao + i).add(sv).intoArray(o, oo + i);
                }
                break;
            case SUB:
                for (; i < bound; i += L) {
                    FloatVector.fromArray(S, a, ao + i).sub(sv).intoArray(o, oo + i);
                }
                break;
            case MUL:
                for (; i < bound; i += L) {
                    FloatVector.fromArray(S, a, ao + i).mul(sv).intoArray(o, oo + i);
                }
                break;
            case DIV:
                for (; i < bound; i += L) {
                    FloatVector.fromArray(S, a, ao + i).div(sv).intoArray(o, oo + i);
                }
                break;
            case POW: {
                int done = VectorMath.powByConstant(a, ao, s, o, oo, n);
                PLAIN.binaryScalar(op, a, ao + done, b, bo, o, oo + done, n - done);
                return;
            }
            default:
                PLAIN.binaryScalar(op, a, ao, b, bo, o, oo, n);
                return;
        }
        for (; i < n; i++) {
            o[oo + i] = arith(op, a[ao + i], s);
        }
        return;
    }

    /** {@code o = s op b} with a scalar left operand. */
    @Override
    public void scalarBinary(BinaryOp op, float[] a, int ao, float[] b, int bo, float[] o, int oo, int n) {
        if (n < Tuning.MIN_VECTOR_RUN) {
            PLAIN.scalarBinary(op, a, ao, b, bo, o, oo, n);
            return;
        }
        float s = a[ao];
        int i = 0;
        int bound = S.loopBound(n);
        FloatVector sv = FloatVector.broadcast(S, s);
        switch (op) {
            case ADD:
                for (; i < bound; i += L) {
                    sv.add(FloatVector.fromArray(S, b, bo + i)).intoArray(o, oo + i);
                }
                break;
            case SUB:
                for (; i < bound; i += L) {
                    sv.sub(FloatVector.fromArray(S, b, bo + i)).intoArray(o, oo + i);
                }
                break;
            case MUL:
                for (; i < bound; i += L) {
                    sv.mul(FloatVector.fromArray(S, b, bo + i)).intoArray(o, oo + i);
                }
                break;
            case DIV:
                for (; i < bound; i += L) {
                    sv.div(FloatVector.fromArray(S, b, bo + i)).intoArray(o, oo + i);
                }
                break;
            default:
                PLAIN.scalarBinary(op, a, ao, b, bo, o, oo, n);
                return;
        }
        for (; i < n; i++) {
            o[oo + i] = arith(op, s, b[bo + i]);
        }
        return;
    }

    /**
     * floor (or round, halves to the even one) a vector at a time; returns how many leading elements it wrote (the rest
     * are the caller's). |x| + 2^23 - 2^23 rounds |x| below 2^23 to the nearest integer by the float addition's own
     * rounding; x's sign is put back, and for floor one taken away where that rounded up (a masked subtraction). Larger
     * floats, infinities and NaN are already integers: only where |x| < 2^23, a test NaN fails, is the result taken.
     * Math.floor's and Math.rint's bits, -0 included.
     */
    private static int toIntegers(float[] a, int ao, float[] o, int oo, int n, boolean floor) {
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            FloatVector x = FloatVector.fromArray(S, a, ao + i);
            FloatVector ax = x.abs();
            FloatVector r = ax.add(8388608f).sub(8388608f).reinterpretAsInts()
                    .or(x.reinterpretAsInts().and(0x80000000)).reinterpretAsFloats();
            if (floor) {
                r = r.lanewise(VectorOperators.SUB, 1f, r.compare(VectorOperators.GT, x));
            }
            x.blend(r, ax.compare(VectorOperators.LT, 8388608f)).intoArray(o, oo + i);
        }
        return i;
    }

    @Override
    public void unary(UnaryOp op, float[] a, int ao, float[] o, int oo, int n) {
        if (n < Tuning.MIN_VECTOR_RUN) {
            PLAIN.unary(op, a, ao, o, oo, n);
            return;
        }
        int i = 0;
        int bound = S.loopBound(n);
        switch (op) {
            case NEG:
                for (; i < bound; i += L) {
                    FloatVector.fromArray(S, a, ao + i).lanewise(VectorOperators.NEG).intoArray(o, oo + i);
                }
                break;
            case ABS:
                for (; i < bound; i += L) {
                    FloatVector.fromArray(S, a, ao + i).lanewise(VectorOperators.ABS).intoArray(o, oo + i);
                }
                break;
            case SIGN:
                // The plain loop's bits: +-1 with the sign bit of v where |v| > 0, else v itself (+-0 and NaN as they are).
                for (; i < bound; i += L) {
                    FloatVector v = FloatVector.fromArray(S, a, ao + i);
                    FloatVector unit = v.reinterpretAsInts().and(0x80000000).or(0x3f800000).reinterpretAsFloats();
                    v.blend(unit, v.abs().compare(VectorOperators.GT, 0f)).intoArray(o, oo + i);
                }
                break;
            case EXP:
                VectorMath.expLoop(a, ao, o, oo, n, 1f, 0f, false);
                return;
            case LOG:
                VectorMath.logLoop(a, ao, o, oo, n);
                return;
            case LOG1P:
                VectorMath.log1pLoop(a, ao, o, oo, n);
                return;
            case SOFTPLUS:
                VectorMath.softplusLoop(a, ao, o, oo, n);
                return;
            case FLOOR:
            case ROUND:
                i = toIntegers(a, ao, o, oo, n, op == UnaryOp.FLOOR);
                break;
            case SQRT:
                for (; i < bound; i += L) {
                    FloatVector.fromArray(S, a, ao + i).lanewise(VectorOperators.SQRT).intoArray(o, oo + i);
                }
                break;
            case TANH:
                VectorMath.tanhLoop(a, ao, o, oo, n);
                return;
            case SIN:
            case COS:
            case EXPM1:
            case ATAN:
                // In double lanes (DoubleLanes: one vector shape where a second is not safe): the plain loop's bits,
                // each the float of Math's function.
                if (op == UnaryOp.EXPM1) {
                    VectorExpm1.loop(a, ao, o, oo, n);
                } else if (op == UnaryOp.ATAN) {
                    VectorAtan.atanLoop(a, ao, o, oo, n);
                } else {
                    VectorTrig.loop(a, ao, o, oo, n, op == UnaryOp.COS);
                }
                return;
            case RSQRT:
                for (; i < bound; i += L) {
                    FloatVector.broadcast(S, 1f).div(FloatVector.fromArray(S, a, ao + i).sqrt()).intoArray(o, oo + i);
                }
                break;
            case RECIPROCAL:
                for (; i < bound; i += L) {
                    FloatVector.broadcast(S, 1f).div(FloatVector.fromArray(S, a, ao + i)).intoArray(o, oo + i);
                }
                break;
            case SQUARE:
                for (; i < bound; i += L) {
                    FloatVector v = FloatVector.fromArray(S, a, ao + i);
                    v.mul(v).intoArray(o, oo + i);
                }
                break;
            case RELU:
                // max(v, 0) would turn NaN into 0; blend keeps NaN where v is NaN (v > 0 is false, v == v is false).
                for (; i < bound; i += L) {
                    FloatVector v = FloatVector.fromArray(S, a, ao + i);
                    FloatVector.zero(S).blend(v, v.compare(VectorOperators.GT, 0f).or(v.compare(VectorOperators.NE, v)))
                            .intoArray(o, oo + i);
                }
                break;
            case SIGMOID:
                // o = e^-x first (o may be a itself only if the caller allows: kernels never alias in and out here)
                VectorMath.expLoop(a, ao, o, oo, n, -1f, 0f, false);
                for (; i < bound; i += L) {
                    FloatVector.broadcast(S, 1f).div(FloatVector.fromArray(S, o, oo + i).add(1f)).intoArray(o, oo + i);
                }
                break;
            case ERF:
                VectorMath.erfLoop(VectorMath.ERF, a, ao, null, 0, o, oo, n);
                return;
            case GELU:
                VectorMath.erfLoop(VectorMath.GELU, a, ao, null, 0, o, oo, n);
                return;
            case SILU:
                VectorMath.expLoop(a, ao, o, oo, n, -1f, 0f, false);
                for (; i < bound; i += L) {
                    FloatVector.fromArray(S, a, ao + i).div(FloatVector.fromArray(S, o, oo + i).add(1f)).intoArray(o, oo + i);
                }
                break;
            default:
                PLAIN.unary(op, a, ao, o, oo, n);
                return;
        }
        for (; i < n; i++) {
            o[oo + i] = (float) op.apply(a[ao + i]);
        }
        return;
    }
}
