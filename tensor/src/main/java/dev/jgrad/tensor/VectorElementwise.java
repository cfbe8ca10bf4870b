package dev.jgrad.tensor;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API loops for float32 on unit-stride rows: the common binary and unary ops, sums, maxima and
 * softmax rows. Transcendental functions use the JDK's vectorised versions ({@code lanewise(EXP)}),
 * which run some fifty times faster than {@code Math.exp} one element at a time. Each method returns
 * false where it has no loop for the op, and the caller falls back to the plain one. Loaded only where
 * jdk.incubator.vector is present (see {@link Simd}).
 */
final class VectorElementwise {
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length();

    private VectorElementwise() {
    }

    static boolean binary(BinaryOp op, float[] a, int ao, float[] b, int bo, float[] o, int oo, int n) {
        VectorOperators.Binary vop = vectorOp(op);
        if (vop == null) {
            return false;
        }
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            FloatVector.fromArray(S, a, ao + i).lanewise(vop, FloatVector.fromArray(S, b, bo + i)).intoArray(o, oo + i);
        }
        for (; i < n; i++) {
            o[oo + i] = (float) op.apply(a[ao + i], b[bo + i]);
        }
        return true;
    }

    /** {@code o = a op s} with a scalar right operand. */
    static boolean binaryScalar(BinaryOp op, float[] a, int ao, float s, float[] o, int oo, int n) {
        VectorOperators.Binary vop = vectorOp(op);
        if (vop == null) {
            return false;
        }
        FloatVector sv = FloatVector.broadcast(S, s);
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            FloatVector.fromArray(S, a, ao + i).lanewise(vop, sv).intoArray(o, oo + i);
        }
        for (; i < n; i++) {
            o[oo + i] = (float) op.apply(a[ao + i], s);
        }
        return true;
    }

    /** {@code o = s op b} with a scalar left operand. */
    static boolean scalarBinary(BinaryOp op, float s, float[] b, int bo, float[] o, int oo, int n) {
        VectorOperators.Binary vop = vectorOp(op);
        if (vop == null) {
            return false;
        }
        FloatVector sv = FloatVector.broadcast(S, s);
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            sv.lanewise(vop, FloatVector.fromArray(S, b, bo + i)).intoArray(o, oo + i);
        }
        for (; i < n; i++) {
            o[oo + i] = (float) op.apply(s, b[bo + i]);
        }
        return true;
    }

    private static VectorOperators.Binary vectorOp(BinaryOp op) {
        switch (op) {
            case ADD: return VectorOperators.ADD;
            case SUB: return VectorOperators.SUB;
            case MUL: return VectorOperators.MUL;
            case DIV: return VectorOperators.DIV;
            case MAXIMUM: return VectorOperators.MAX;
            case MINIMUM: return VectorOperators.MIN;
            case POW: return VectorOperators.POW;
            default: return null;
        }
    }

    static boolean unary(UnaryOp op, float[] a, int ao, float[] o, int oo, int n) {
        int i = 0;
        int bound = S.loopBound(n);
        switch (op) {
            case NEG:
            case ABS:
            case EXP:
            case LOG:
            case LOG1P:
            case SQRT:
            case SIN:
            case COS:
            case TANH: {
                VectorOperators.Unary u = op == UnaryOp.NEG ? VectorOperators.NEG : op == UnaryOp.ABS ? VectorOperators.ABS
                        : op == UnaryOp.EXP ? VectorOperators.EXP : op == UnaryOp.LOG ? VectorOperators.LOG
                        : op == UnaryOp.LOG1P ? VectorOperators.LOG1P : op == UnaryOp.SQRT ? VectorOperators.SQRT
                        : op == UnaryOp.SIN ? VectorOperators.SIN : op == UnaryOp.COS ? VectorOperators.COS : VectorOperators.TANH;
                for (; i < bound; i += L) {
                    FloatVector.fromArray(S, a, ao + i).lanewise(u).intoArray(o, oo + i);
                }
                break;
            }
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
                for (; i < bound; i += L) {
                    FloatVector v = FloatVector.fromArray(S, a, ao + i);
                    FloatVector.broadcast(S, 1f).div(v.neg().lanewise(VectorOperators.EXP).add(1f)).intoArray(o, oo + i);
                }
                break;
            case SILU:
                for (; i < bound; i += L) {
                    FloatVector v = FloatVector.fromArray(S, a, ao + i);
                    v.div(v.neg().lanewise(VectorOperators.EXP).add(1f)).intoArray(o, oo + i);
                }
                break;
            case GELU_TANH:
                for (; i < bound; i += L) {
                    FloatVector v = FloatVector.fromArray(S, a, ao + i);
                    FloatVector inner = v.mul(v).mul(v).mul(0.044715f).add(v).mul((float) MathFns.SQRT_2_OVER_PI);
                    inner.lanewise(VectorOperators.TANH).add(1f).mul(v).mul(0.5f).intoArray(o, oo + i);
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

    /** The sum of n floats, in four vector accumulators (float lanes, as PyTorch sums float32). */
    static double sum(float[] a, int off, int n) {
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
        double s = (double) s0.add(s1).reduceLanes(VectorOperators.ADD) + s2.add(s3).reduceLanes(VectorOperators.ADD);
        for (; i < n; i++) {
            s += a[off + i];
        }
        return s;
    }

    /** Softmax (or log-softmax) of a unit-stride row of n floats into a unit-stride row. */
    static void softmaxRow(float[] a, int ao, float[] o, int oo, int n, boolean log) {
        int bound = S.loopBound(n);
        FloatVector mv = FloatVector.broadcast(S, Float.NEGATIVE_INFINITY);
        int i = 0;
        for (; i < bound; i += L) {
            mv = mv.max(FloatVector.fromArray(S, a, ao + i));
        }
        float m = mv.reduceLanes(VectorOperators.MAX);
        for (; i < n; i++) {
            m = Math.max(m, a[ao + i]);
        }
        FloatVector mb = FloatVector.broadcast(S, m);
        FloatVector sv = FloatVector.zero(S);
        i = 0;
        for (; i < bound; i += L) {
            FloatVector e = FloatVector.fromArray(S, a, ao + i).sub(mb).lanewise(VectorOperators.EXP);
            sv = sv.add(e);
            if (!log) {
                e.intoArray(o, oo + i);
            }
        }
        double sum = sv.reduceLanes(VectorOperators.ADD);
        for (; i < n; i++) {
            float e = (float) Math.exp(a[ao + i] - m);
            sum += e;
            if (!log) {
                o[oo + i] = e;
            }
        }
        if (log) {
            float lse = (float) (m + Math.log(sum));
            FloatVector lv = FloatVector.broadcast(S, lse);
            i = 0;
            for (; i < bound; i += L) {
                FloatVector.fromArray(S, a, ao + i).sub(lv).intoArray(o, oo + i);
            }
            for (; i < n; i++) {
                o[oo + i] = a[ao + i] - lse;
            }
        } else {
            float inv = (float) (1.0 / sum);
            FloatVector iv = FloatVector.broadcast(S, inv);
            i = 0;
            for (; i < bound; i += L) {
                FloatVector.fromArray(S, o, oo + i).mul(iv).intoArray(o, oo + i);
            }
            for (; i < n; i++) {
                o[oo + i] *= inv;
            }
        }
    }
}
