package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.BinaryOp;
import dev.jgrad.tensor.UnaryOp;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API loops for float32 on unit-stride rows: the common binary and unary ops, sums, maxima and
 * softmax rows. Each method returns false where it has no loop for the op, and the caller falls back to
 * the plain one. Loaded only where jdk.incubator.vector is present (see {@link Simd}).
 *
 * <p>Results must not depend on when the JIT compiles a loop: the same seed gives the same numbers. So
 * only correctly rounded operations are used (add, mul, div, sqrt, fma, conversions), never the JDK's
 * vectorised transcendental functions, whose compiled and interpreted forms round differently; and sums
 * reduce their lanes in a fixed order. {@link #exp} is computed here from those operations, many lanes
 * at a time instead of {@code Math.exp} one element at a time.
 */
public final class VectorElementwise {
    public static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    public static final int L = S.length();

    private VectorElementwise() {
    }

    // The operators are constants in every loop: the JIT only turns a lanewise op into vector
    // instructions when it can see which op it is; an operator held in a variable runs in plain Java.

    public static boolean binary(BinaryOp op, float[] a, int ao, float[] b, int bo, float[] o, int oo, int n) {
        return binaryRows(op, a, ao, 0, b, bo, 0, o, oo, 0, 1, n);
    }

    /**
     * {@code o = a op b} over {@code rows} rows of n unit-stride elements, each operand's rows
     * {@code ars}, {@code brs}, {@code ors} apart: short rows (a broadcast over (256, 256, 64)) then cost
     * one call, not one per row.
     */
    public static boolean binaryRows(BinaryOp op, float[] a, int ao, int ars, float[] b, int bo, int brs, float[] o, int oo, int ors, int rows, int n) {
        int bound = S.loopBound(n);
        switch (op) {
            case ADD:
                for (int r = 0; r < rows; r++) {
                    int ai = ao + r * ars;
                    int bi = bo + r * brs;
                    int oi = oo + r * ors;
                    for (int i = 0; i < bound; i += L) {
                        FloatVector.fromArray(S, a, ai + i).add(FloatVector.fromArray(S, b, bi + i)).intoArray(o, oi + i);
                    }
                }
                break;
            case SUB:
                for (int r = 0; r < rows; r++) {
                    int ai = ao + r * ars;
                    int bi = bo + r * brs;
                    int oi = oo + r * ors;
                    for (int i = 0; i < bound; i += L) {
                        FloatVector.fromArray(S, a, ai + i).sub(FloatVector.fromArray(S, b, bi + i)).intoArray(o, oi + i);
                    }
                }
                break;
            case MUL:
                for (int r = 0; r < rows; r++) {
                    int ai = ao + r * ars;
                    int bi = bo + r * brs;
                    int oi = oo + r * ors;
                    for (int i = 0; i < bound; i += L) {
                        FloatVector.fromArray(S, a, ai + i).mul(FloatVector.fromArray(S, b, bi + i)).intoArray(o, oi + i);
                    }
                }
                break;
            case DIV:
                for (int r = 0; r < rows; r++) {
                    int ai = ao + r * ars;
                    int bi = bo + r * brs;
                    int oi = oo + r * ors;
                    for (int i = 0; i < bound; i += L) {
                        FloatVector.fromArray(S, a, ai + i).div(FloatVector.fromArray(S, b, bi + i)).intoArray(o, oi + i);
                    }
                }
                break;
            default:
                return false;
        }
        for (int r = 0; r < rows && bound < n; r++) {
            for (int i = bound; i < n; i++) {
                o[oo + r * ors + i] = arith(op, a[ao + r * ars + i], b[bo + r * brs + i]);
            }
        }
        return true;
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

    /** {@code o = a cmp s} for the six comparisons, with a scalar right operand (a ReLU's mask, say); NaN compares false but for NE. */
    public static boolean compareScalar(BinaryOp op, float[] a, int ao, float s, boolean[] o, int oo, int n) {
        VectorOperators.Comparison c;
        switch (op) {
            case EQ: c = VectorOperators.EQ; break;
            case NE: c = VectorOperators.NE; break;
            case LT: c = VectorOperators.LT; break;
            case LE: c = VectorOperators.LE; break;
            case GT: c = VectorOperators.GT; break;
            case GE: c = VectorOperators.GE; break;
            default: return false;
        }
        int bound = S.loopBound(n);
        int i = 0;
        for (; i < bound; i += L) {
            FloatVector.fromArray(S, a, ao + i).compare(c, s).intoArray(o, oo + i);
        }
        for (; i < n; i++) {
            float x = a[ao + i];
            boolean r;
            switch (op) {
                case EQ: r = x == s; break;
                case NE: r = x != s; break;
                case LT: r = x < s; break;
                case LE: r = x <= s; break;
                case GT: r = x > s; break;
                default: r = x >= s; break;
            }
            o[oo + i] = r;
        }
        return true;
    }

    /** {@code o = y <= 0 ? 0 : g}, ReLU's backward. */
    public static void reluBackward(float[] g, int go, float[] y, int yo, float[] o, int oo, int n) {
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

    /** {@code o = a op s} with a scalar right operand. */
    public static boolean binaryScalar(BinaryOp op, float[] a, int ao, float s, float[] o, int oo, int n) {
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
            default:
                return false;
        }
        for (; i < n; i++) {
            o[oo + i] = arith(op, a[ao + i], s);
        }
        return true;
    }

    /** {@code o = s op b} with a scalar left operand. */
    public static boolean scalarBinary(BinaryOp op, float s, float[] b, int bo, float[] o, int oo, int n) {
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
                return false;
        }
        for (; i < n; i++) {
            o[oo + i] = arith(op, s, b[bo + i]);
        }
        return true;
    }

    public static boolean unary(UnaryOp op, float[] a, int ao, float[] o, int oo, int n) {
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
            case EXP:
                expLoop(a, ao, o, oo, n, 1f, 0f, false);
                return true;
            case SQRT:
                for (; i < bound; i += L) {
                    FloatVector.fromArray(S, a, ao + i).lanewise(VectorOperators.SQRT).intoArray(o, oo + i);
                }
                break;
            case TANH:
                tanhLoop(a, ao, o, oo, n);
                return true;
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
                expLoop(a, ao, o, oo, n, -1f, 0f, false);
                for (; i < bound; i += L) {
                    FloatVector.broadcast(S, 1f).div(FloatVector.fromArray(S, o, oo + i).add(1f)).intoArray(o, oo + i);
                }
                break;
            case SILU:
                expLoop(a, ao, o, oo, n, -1f, 0f, false);
                for (; i < bound; i += L) {
                    FloatVector.fromArray(S, a, ao + i).div(FloatVector.fromArray(S, o, oo + i).add(1f)).intoArray(o, oo + i);
                }
                break;
            default:
                return false;
        }
        for (; i < n; i++) {
            o[oo + i] = (float) op.apply(a[ao + i]);
        }
        return true;
    }

    private static final float LOG2E = 1.44269504088896341f;
    private static final float LN2_HI = 0.693145751953125f;
    private static final float LN2_LO = 1.42860682030941723212e-6f;
    private static final float ROUND = 12582912f;
    private static final FloatVector ONE = FloatVector.broadcast(S, 1f);
    private static final FloatVector NEG_LN2_HI = FloatVector.broadcast(S, -LN2_HI);
    private static final FloatVector C5040 = FloatVector.broadcast(S, 1f / 5040);
    private static final FloatVector C2 = FloatVector.broadcast(S, 0.5f);
    private static final FloatVector C6 = FloatVector.broadcast(S, 1f / 6);
    private static final FloatVector C24 = FloatVector.broadcast(S, 1f / 24);
    private static final FloatVector C120 = FloatVector.broadcast(S, 1f / 120);
    private static final FloatVector C720 = FloatVector.broadcast(S, 1f / 720);

    /**
     * {@code o[i] = e^(mul * x[i] - sub)}, with {@code x[i]} replaced by its absolute value where asked.
     * e^y: y = n ln2 + r with |r| <= ln2/2 (n rounded by the 1.5 * 2^23 trick, ln2 split in two so n ln2
     * is exact), e^r by its Taylor polynomial to degree 7 (truncation error under 1e-8), times 2^n built in
     * the exponent bits, in two halves so n = 128 and n = -126 both stay representable. Overflow gives
     * +inf, NaN stays NaN, results below the smallest normal float flush to 0. Within 2 ulp of Math.exp.
     * The whole computation sits in this one loop: a vector passed to a method the JIT does not inline
     * becomes an object on the heap, which costs more than the arithmetic. Returns the sum of the results
     * (lanes added in a fixed order), which softmax needs and the others ignore.
     */
    public static double expLoop(float[] a, int ao, float[] o, int oo, int n, float mul, float sub, boolean absolute) {
        FloatVector total = FloatVector.zero(S);
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            FloatVector v = FloatVector.fromArray(S, a, ao + i);
            FloatVector x = (absolute ? v.abs() : v).mul(mul).sub(sub);
            FloatVector xc = x.max(-87.33654f).min(88.72283f);
            FloatVector rounded = xc.mul(LOG2E).add(ROUND);
            FloatVector nf = rounded.sub(ROUND);
            FloatVector r = nf.fma(NEG_LN2_HI, xc).add(nf.mul(-LN2_LO));
            FloatVector p = r.fma(C5040, C720);
            p = p.fma(r, C120);
            p = p.fma(r, C24);
            p = p.fma(r, C6);
            p = p.fma(r, C2);
            p = p.fma(r, ONE);
            p = p.fma(r, ONE);
            // n as an int without a (slow, on JDK 17) vector conversion: 1.5 * 2^23 + n has n in its low bits.
            IntVector ni = rounded.reinterpretAsInts().sub(0x4B400000);
            IntVector n1 = ni.lanewise(VectorOperators.ASHR, 1);
            FloatVector s1 = n1.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats();
            FloatVector s2 = ni.sub(n1).add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats();
            FloatVector e = p.mul(s1).mul(s2);
            // NaN needs no care: max and min keep it, and it poisons the product.
            e = e.blend(0f, x.compare(VectorOperators.LT, -87.33654f));
            e = e.blend(Float.POSITIVE_INFINITY, x.compare(VectorOperators.GT, 88.72283f));
            e.intoArray(o, oo + i);
            total = total.add(e);
        }
        double sum = addLanes(total);
        for (; i < n; i++) {
            float v = absolute ? Math.abs(a[ao + i]) : a[ao + i];
            float e = (float) Math.exp(mul * v - sub);
            o[oo + i] = e;
            sum += e;
        }
        return sum;
    }

    /** tanh(x) = sign(x) (1 - e) / (1 + e) with e = e^(-2|x|); its Taylor series below |x| = 0.2, where 1 - e cancels. */
    public static void tanhLoop(float[] a, int ao, float[] o, int oo, int n) {
        expLoop(a, ao, o, oo, n, -2f, 0f, true);
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            FloatVector x = FloatVector.fromArray(S, a, ao + i);
            FloatVector e = FloatVector.fromArray(S, o, oo + i);
            FloatVector big = FloatVector.broadcast(S, 1f).sub(e).div(e.add(1f));
            FloatVector x2 = x.mul(x);
            FloatVector t = x2.mul(-1382f / 155925).add(62f / 2835);
            t = t.mul(x2).add(-17f / 315);
            t = t.mul(x2).add(2f / 15);
            t = t.mul(x2).add(-1f / 3);
            t = t.mul(x2).add(1f);
            FloatVector signed = big.blend(big.neg(), x.compare(VectorOperators.LT, 0f));
            signed.blend(t.mul(x), x.abs().compare(VectorOperators.LT, 0.2f)).intoArray(o, oo + i);
        }
        for (; i < n; i++) {
            o[oo + i] = (float) Math.tanh(a[ao + i]);
        }
    }

    /** Each thread's buffer for {@link #addLanes}, so that summing a row allocates nothing. */
    private static final ThreadLocal<float[]> LANES = ThreadLocal.withInitial(() -> new float[L]);

    /** The lanes' sum in lane order, the same whether the JIT compiled the caller or not. */
    private static double addLanes(FloatVector v) {
        float[] lanes = LANES.get();
        v.intoArray(lanes, 0);
        double s = 0;
        for (float f : lanes) {
            s += f;
        }
        return s;
    }

    /** The sum of n floats, in four vector accumulators (float lanes, as PyTorch sums float32). */
    public static double sum(float[] a, int off, int n) {
        FloatVector s0 = FloatVector.zero(S);
        FloatVector s1 = FloatVector.zero(S);
        FloatVector s2 = FloatVector.zero(S);
        FloatVector s3 = FloatVector.zero(S);
        int i = 0;
        for (int bound = n - 4 * L; i <= bound; i += 4 * L) {
            s0 = s0.add(FloatVector.fromArray(S, a, off + i));
            s1 = s1.add(FloatVector.fromArray(S, a, off + i + L));
            s2 = s2.add(FloatVector.fromArray(S, a, off + i + 2 * L));
            s3 = s3.add(FloatVector.fromArray(S, a, off + i + 3 * L));
        }
        for (int bound = S.loopBound(n); i < bound; i += L) {
            s0 = s0.add(FloatVector.fromArray(S, a, off + i));
        }
        double s = addLanes(s0.add(s1).add(s2.add(s3)));
        for (; i < n; i++) {
            s += a[off + i];
        }
        return s;
    }

    /** Lane i holds i: the positions of a row's first vector, for a causal mask. */
    private static final FloatVector IOTA = FloatVector.fromArray(S, iota(), 0);

    private static float[] iota() {
        float[] f = new float[L];
        for (int i = 0; i < L; i++) {
            f[i] = i;
        }
        return f;
    }

    /**
     * Attention's scores before their softmax: {@code o[j] = a[j] * sc}, or -inf where {@code m[mo + j]} (null: no mask)
     * or {@code j >= seen} (the causal mask's positions past the query's own). Whether any position is left.
     */
    public static boolean maskedScale(float[] a, int ao, boolean[] m, int mo, int seen, float sc, float[] o, int oo, int n) {
        FloatVector inf = FloatVector.broadcast(S, Float.NEGATIVE_INFINITY);
        boolean any = false;
        int j = 0;
        for (int bound = S.loopBound(n); j < bound; j += L) {
            VectorMask<Float> out = IOTA.add((float) j).compare(VectorOperators.GE, (float) seen);
            if (m != null) {
                out = out.or(VectorMask.fromArray(S, m, mo + j));
            }
            any |= !out.allTrue();
            FloatVector.fromArray(S, a, ao + j).mul(sc).blend(inf, out).intoArray(o, oo + j);
        }
        for (; j < n; j++) {
            boolean out = j >= seen || (m != null && m[mo + j]);
            o[oo + j] = out ? Float.NEGATIVE_INFINITY : a[ao + j] * sc;
            any |= !out;
        }
        return any;
    }

    /** The gradient of a softmax row's input from its output y and the output's gradient g: {@code d = sc y (g - sum(g y))}. */
    public static void softmaxGradient(float[] g, int go, float[] y, int yo, float sc, float[] d, int dOff, int n) {
        FloatVector acc = FloatVector.zero(S);
        int j = 0;
        for (int bound = S.loopBound(n); j < bound; j += L) {
            acc = FloatVector.fromArray(S, g, go + j).fma(FloatVector.fromArray(S, y, yo + j), acc);
        }
        double dot = addLanes(acc);
        for (int t = j; t < n; t++) {
            dot += g[go + t] * y[yo + t];
        }
        float dt = (float) dot;
        j = 0;
        for (int bound = S.loopBound(n); j < bound; j += L) {
            FloatVector yv = FloatVector.fromArray(S, y, yo + j);
            FloatVector.fromArray(S, g, go + j).sub(dt).mul(yv).mul(sc).intoArray(d, dOff + j);
        }
        for (; j < n; j++) {
            d[dOff + j] = sc * y[yo + j] * (g[go + j] - dt);
        }
    }

    /** Softmax (or log-softmax) of a unit-stride row of n floats into a unit-stride row. */
    public static void softmaxRow(float[] a, int ao, float[] o, int oo, int n, boolean log) {
        // Each pass is a method of its own, so that the JIT compiles each loop on its own terms rather
        // than one method whose speed depends on which loop it compiled first; the last pass has its own
        // small loops rather than binaryScalar's switch over ops, for the same reason (README, performance).
        float m = max(a, ao, n);
        // e^(x - m) into o (a log-softmax overwrites it) and its sum, in one pass.
        double sum = expShifted(a, ao, o, oo, n, m, 1f);
        if (log) {
            addScalar(a, ao, o, oo, n, (float) -(m + Math.log(sum)));
        } else {
            scale(o, oo, n, (float) (1.0 / sum));
        }
    }

    /** {@code o[i] = a[i] + c}. */
    public static void addScalar(float[] a, int ao, float[] o, int oo, int n, float c) {
        FloatVector cv = FloatVector.broadcast(S, c);
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            FloatVector.fromArray(S, a, ao + i).add(cv).intoArray(o, oo + i);
        }
        for (; i < n; i++) {
            o[oo + i] = a[ao + i] + c;
        }
    }

    /** {@code o[i] *= c}. */
    public static void scale(float[] o, int oo, int n, float c) {
        FloatVector cv = FloatVector.broadcast(S, c);
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            FloatVector.fromArray(S, o, oo + i).mul(cv).intoArray(o, oo + i);
        }
        for (; i < n; i++) {
            o[oo + i] *= c;
        }
    }

    /** The largest of n floats (NaN if any is NaN), in four accumulators so the maxima need not wait on each other. */
    public static float max(float[] a, int off, int n) {
        FloatVector m0 = FloatVector.broadcast(S, Float.NEGATIVE_INFINITY);
        FloatVector m1 = m0;
        FloatVector m2 = m0;
        FloatVector m3 = m0;
        int i = 0;
        for (int bound = n - 4 * L; i <= bound; i += 4 * L) {
            m0 = m0.max(FloatVector.fromArray(S, a, off + i));
            m1 = m1.max(FloatVector.fromArray(S, a, off + i + L));
            m2 = m2.max(FloatVector.fromArray(S, a, off + i + 2 * L));
            m3 = m3.max(FloatVector.fromArray(S, a, off + i + 3 * L));
        }
        for (int bound = S.loopBound(n); i < bound; i += L) {
            m0 = m0.max(FloatVector.fromArray(S, a, off + i));
        }
        float m = m0.max(m1).max(m2.max(m3)).reduceLanes(VectorOperators.MAX);
        for (; i < n; i++) {
            m = Math.max(m, a[off + i]);
        }
        return m;
    }

    /**
     * {@code o[i] = e^(a[i] - m) * factor} (the product rounded once more, so factor 1 stores the powers
     * themselves) where {@code m} is the row's maximum, and the sum of the powers: {@link #expLoop}'s
     * method, less what arguments at most 0 never need, and with fused steps where expLoop rounds twice
     * (so a result may differ from expLoop's in its last bit). No overflow; 2^n fits one exponent field, whose
     * value n + 127 is clamped at 0 so that n <= -127 gives exactly 0 (the argument is first clamped at
     * -88.5, where n = -128, so -inf gives 0 too). Results with n = -126 may be subnormal, as PyTorch's
     * are; NaN stays NaN.
     */
    public static double expShifted(float[] a, int ao, float[] o, int oo, int n, float m, float factor) {
        FloatVector mv = FloatVector.broadcast(S, m);
        FloatVector fv = FloatVector.broadcast(S, factor);
        FloatVector negLn2Hi = FloatVector.broadcast(S, -LN2_HI);
        FloatVector negLn2Lo = FloatVector.broadcast(S, -LN2_LO);
        FloatVector c120 = FloatVector.broadcast(S, 1f / 120);
        FloatVector c24 = FloatVector.broadcast(S, 1f / 24);
        FloatVector c6 = FloatVector.broadcast(S, 1f / 6);
        FloatVector c2 = FloatVector.broadcast(S, 0.5f);
        FloatVector one = FloatVector.broadcast(S, 1f);
        FloatVector total = FloatVector.zero(S);
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            FloatVector x = FloatVector.fromArray(S, a, ao + i).sub(mv);
            FloatVector xc = x.max(-88.5f);
            FloatVector rounded = xc.fma(LOG2E, ROUND);
            FloatVector nf = rounded.sub(ROUND);
            FloatVector r = nf.fma(negLn2Lo, nf.fma(negLn2Hi, xc));
            FloatVector p = r.fma(1f / 5040, 1f / 720);
            p = p.fma(r, c120);
            p = p.fma(r, c24);
            p = p.fma(r, c6);
            p = p.fma(r, c2);
            p = p.fma(r, one);
            p = p.fma(r, one);
            // The exponent field of 2^n is n + 127; 1.5 * 2^23 + n holds n in its low bits.
            FloatVector scale = rounded.reinterpretAsInts().sub(0x4B400000 - 127).max(0).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats();
            FloatVector e = p.mul(scale);
            e.mul(fv).intoArray(o, oo + i);
            total = total.add(e);
        }
        double sum = addLanes(total);
        for (; i < n; i++) {
            float e = (float) Math.exp(a[ao + i] - m);
            o[oo + i] = e * factor;
            sum += e;
        }
        return sum;
    }

    /** {@link OptimizerKernels#adam} over n float32 elements; its plain loop does the tail. */
    public static void adam(float[] p, int po, float[] g, int go, float[] m, int mo, float[] v, int vo, int n,
                     float b1, float b2, float l2, float stepSize, float bc2Sqrt, float eps) {
        FloatVector vb1 = FloatVector.broadcast(S, b1);
        FloatVector vb2 = FloatVector.broadcast(S, b2);
        FloatVector c1 = FloatVector.broadcast(S, 1 - b1);
        FloatVector c2 = FloatVector.broadcast(S, 1 - b2);
        FloatVector vl2 = FloatVector.broadcast(S, l2);
        FloatVector step = FloatVector.broadcast(S, stepSize);
        FloatVector bc = FloatVector.broadcast(S, bc2Sqrt);
        FloatVector ve = FloatVector.broadcast(S, eps);
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            FloatVector pv = FloatVector.fromArray(S, p, po + i);
            FloatVector gv = FloatVector.fromArray(S, g, go + i).add(pv.mul(vl2));
            FloatVector mv = FloatVector.fromArray(S, m, mo + i).mul(vb1).add(gv.mul(c1));
            FloatVector vv = FloatVector.fromArray(S, v, vo + i).mul(vb2).add(gv.mul(gv).mul(c2));
            mv = mv.blend(0f, mv.abs().compare(VectorOperators.LT, OptimizerKernels.FLUSH));
            vv = vv.blend(0f, vv.compare(VectorOperators.LT, OptimizerKernels.FLUSH));
            mv.intoArray(m, mo + i);
            vv.intoArray(v, vo + i);
            pv.sub(step.mul(mv).div(vv.sqrt().div(bc).add(ve))).intoArray(p, po + i);
        }
        PlainKernels.Optimizer.adamRange(p, po, g, go, m, mo, v, vo, i, n, b1, b2, l2, stepSize, bc2Sqrt, eps);
    }
}
