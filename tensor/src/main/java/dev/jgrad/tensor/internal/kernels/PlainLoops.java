package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.BinaryOp;
import dev.jgrad.tensor.UnaryOp;

/**
 * The plain float32 loops of the elementwise ops over operands of any strides: the reference of
 * {@link PlainKernels}' elementwise family, and what {@link ElementwiseLoops} runs for strided operands. The switch on
 * the op sits outside each loop, so each loop body is one expression the JIT compiles tight; ops without a loop of
 * their own go through the op's scalar definition in double precision.
 */
final class PlainLoops {
    private PlainLoops() {
    }

    /** The plain loops of {@link ElementwiseLoops#binaryF}: the reference, and what runs for strided operands. */
    static void binaryF(BinaryOp op, float[] a, int ao, int as, float[] b, int bo, int bs, float[] o, int oo, int os, int n) {
        if (as == 1 && bs == 1 && os == 1) {
            switch (op) {
                case ADD:
                    for (int i = 0; i < n; i++) {
                        o[oo + i] = a[ao + i] + b[bo + i];
                    }
                    return;
                case SUB:
                    for (int i = 0; i < n; i++) {
                        o[oo + i] = a[ao + i] - b[bo + i];
                    }
                    return;
                case MUL:
                    for (int i = 0; i < n; i++) {
                        o[oo + i] = a[ao + i] * b[bo + i];
                    }
                    return;
                case DIV:
                    for (int i = 0; i < n; i++) {
                        o[oo + i] = a[ao + i] / b[bo + i];
                    }
                    return;
                case MAXIMUM:
                    for (int i = 0; i < n; i++) {
                        o[oo + i] = Math.max(a[ao + i], b[bo + i]);
                    }
                    return;
                case MINIMUM:
                    for (int i = 0; i < n; i++) {
                        o[oo + i] = Math.min(a[ao + i], b[bo + i]);
                    }
                    return;
                default:
                    break;
            }
        } else if (as == 1 && bs == 0 && os == 1) {
            float s = b[bo];
            switch (op) {
                case ADD:
                    for (int i = 0; i < n; i++) {
                        o[oo + i] = a[ao + i] + s;
                    }
                    return;
                case SUB:
                    for (int i = 0; i < n; i++) {
                        o[oo + i] = a[ao + i] - s;
                    }
                    return;
                case MUL:
                    for (int i = 0; i < n; i++) {
                        o[oo + i] = a[ao + i] * s;
                    }
                    return;
                case DIV:
                    for (int i = 0; i < n; i++) {
                        o[oo + i] = a[ao + i] / s;
                    }
                    return;
                case POW:
                    if (powByConstant(a, ao, 1, s, o, oo, 1, n)) {
                        return;
                    }
                    break;
                default:
                    break;
            }
        }
        switch (op) {
            case ADD:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = a[ao + i * as] + b[bo + i * bs];
                }
                return;
            case SUB:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = a[ao + i * as] - b[bo + i * bs];
                }
                return;
            case MUL:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = a[ao + i * as] * b[bo + i * bs];
                }
                return;
            case DIV:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = a[ao + i * as] / b[bo + i * bs];
                }
                return;
            case MAXIMUM:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = Math.max(a[ao + i * as], b[bo + i * bs]);
                }
                return;
            case MINIMUM:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = Math.min(a[ao + i * as], b[bo + i * bs]);
                }
                return;
            default:
                if (op == BinaryOp.POW && bs == 0 && powByConstant(a, ao, as, b[bo], o, oo, os, n)) {
                    return;
                }
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = (float) op.apply(a[ao + i * as], b[bo + i * bs]);
                }
        }
    }

    /** The plain loop of {@link ElementwiseLoops#compareF}. */
    static void compareF(BinaryOp op, float[] a, int ao, int as, float[] b, int bo, int bs, boolean[] o, int oo, int os, int n) {
        // A loop per op: the JIT left a switch inside one loop to run on every element.
        switch (op) {
            case EQ:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = a[ao + i * as] == b[bo + i * bs];
                }
                return;
            case NE:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = a[ao + i * as] != b[bo + i * bs];
                }
                return;
            case LT:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = a[ao + i * as] < b[bo + i * bs];
                }
                return;
            case LE:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = a[ao + i * as] <= b[bo + i * bs];
                }
                return;
            case GT:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = a[ao + i * as] > b[bo + i * bs];
                }
                return;
            case GE:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = a[ao + i * as] >= b[bo + i * bs];
                }
                return;
            default:
                throw new AssertionError(op);
        }
    }

    /**
     * {@code o[i] = a[i]^s} without Math.pow for the exponents that have a short form, as PyTorch's pow has (its scalar
     * fast paths), computed in double and rounded once to float: 2 (a float's square is exact in double) and 1 exactly,
     * 3, 4, -1 and -2 from products and a quotient, 0.5 and -0.5 from a square root, with pow's +0 and +infinity
     * (0.5), +infinity and +0 (-0.5) for -0 and -infinity, where a square root gives -0 and NaN. Math.pow's double is
     * within an ulp of the same doubles, so the floats agree with (float) Math.pow (bit for bit on the values the tests
     * try). False for any other exponent. Every layout of a takes this path, so a strided tensor's powers have a
     * contiguous one's bits.
     */
    private static boolean powByConstant(float[] a, int ao, int as, float s, float[] o, int oo, int os, int n) {
        if (s == 2f) {
            for (int i = 0; i < n; i++) {
                o[oo + i * os] = a[ao + i * as] * a[ao + i * as];
            }
        } else if (s == 1f) {
            for (int i = 0; i < n; i++) {
                o[oo + i * os] = a[ao + i * as];
            }
        } else if (s == 3f) {
            for (int i = 0; i < n; i++) {
                double v = a[ao + i * as];
                o[oo + i * os] = (float) (v * v * v);
            }
        } else if (s == 4f) {
            for (int i = 0; i < n; i++) {
                double v = a[ao + i * as];
                double sq = v * v;
                o[oo + i * os] = (float) (sq * sq);
            }
        } else if (s == -1f) {
            for (int i = 0; i < n; i++) {
                o[oo + i * os] = (float) (1.0 / a[ao + i * as]);
            }
        } else if (s == -2f) {
            for (int i = 0; i < n; i++) {
                double v = a[ao + i * as];
                o[oo + i * os] = (float) (1.0 / (v * v));
            }
        } else if (s == 0.5f) {
            for (int i = 0; i < n; i++) {
                // Adding +0 turns -0 into +0; -infinity is the one input whose root is not pow's.
                double v = a[ao + i * as] + 0.0;
                o[oo + i * os] = v == Double.NEGATIVE_INFINITY ? Float.POSITIVE_INFINITY : (float) Math.sqrt(v);
            }
        } else if (s == -0.5f) {
            for (int i = 0; i < n; i++) {
                double v = a[ao + i * as] + 0.0;
                o[oo + i * os] = v == Double.NEGATIVE_INFINITY ? 0f : (float) (1.0 / Math.sqrt(v));
            }
        } else {
            return false;
        }
        return true;
    }

    /** The plain loops of {@link ElementwiseLoops#unaryF}: the reference, and what runs for strided operands. */
    static void unaryF(UnaryOp op, float[] a, int ao, int as, float[] o, int oo, int os, int n) {
        switch (op) {
            case NEG:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = -a[ao + i * as];
                }
                return;
            case SQUARE:
                for (int i = 0; i < n; i++) {
                    float v = a[ao + i * as];
                    o[oo + i * os] = v * v;
                }
                return;
            case RELU:
                for (int i = 0; i < n; i++) {
                    float v = a[ao + i * as];
                    o[oo + i * os] = v > 0f ? v : (v != v ? v : 0f);
                }
                return;
            case ABS:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = Math.abs(a[ao + i * as]);
                }
                return;
            case SIGN:
                // Math.signum's result by bits, without its branches (mispredicted on half the elements of data whose
                // signs are mixed): +-1 with v's sign bit where |v| > 0, else v itself (+-0 and NaN as they are).
                for (int i = 0; i < n; i++) {
                    float v = a[ao + i * as];
                    int bits = Float.floatToRawIntBits(v);
                    int nonzero = Math.abs(v) > 0f ? -1 : 0;
                    o[oo + i * os] = Float.intBitsToFloat((((bits & 0x80000000) | 0x3f800000) & nonzero) | (bits & ~nonzero));
                }
                return;
            case EXP:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = (float) Math.exp(a[ao + i * as]);
                }
                return;
            case TANH:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = (float) MathFns.tanh(a[ao + i * as]);
                }
                return;
            case SIGMOID:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = (float) (1.0 / (1.0 + Math.exp(-a[ao + i * as])));
                }
                return;
            case GELU:
                for (int i = 0; i < n; i++) {
                    double v = a[ao + i * as];
                    o[oo + i * os] = (float) (0.5 * v * (1.0 + MathFns.erfFloat(v * MathFns.INV_SQRT_2)));
                }
                return;
            case ERF:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = (float) MathFns.erfFloat(a[ao + i * as]);
                }
                return;
            default:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = (float) op.apply(a[ao + i * as]);
                }
        }
    }

    /** The comparison {@code op} of two values: NaN compares false but for NE. */
    static boolean compare(BinaryOp op, double x, double y) {
        switch (op) {
            case EQ: return x == y;
            case NE: return x != y;
            case LT: return x < y;
            case LE: return x <= y;
            case GT: return x > y;
            case GE: return x >= y;
            default: throw new AssertionError(op);
        }
    }
}
