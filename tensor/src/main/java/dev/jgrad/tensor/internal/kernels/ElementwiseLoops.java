package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.BinaryOp;
import dev.jgrad.tensor.DTypeException;
import dev.jgrad.tensor.UnaryOp;

/**
 * The elementwise ops one row at a time: {@code n} elements, each operand with a start offset and a stride.
 * Unit-stride runs of float32 go to the kernels in use ({@link Kernels#ELEMENTWISE}), strided ones to the plain
 * loops ({@link PlainLoops}); the float64, int64 and bool loops are here. The switch on the op sits outside each
 * loop, so each loop body is one expression the JIT compiles tight.
 */
public final class ElementwiseLoops {
    private ElementwiseLoops() {
    }

    /** {@link #binaryF} over {@code rows} rows, each operand's rows {@code ars}, {@code brs}, {@code ors} apart. */
    public static void binaryRowsF(BinaryOp op, float[] a, int ao, int ars, int as, float[] b, int bo, int brs, int bs,
                            float[] o, int oo, int ors, int os, int rows, int n) {
        if (os == 1 && as == 1 && bs == 1) {
            Kernels.ELEMENTWISE.binaryRows(op, a, ao, ars, b, bo, brs, o, oo, ors, rows, n);
            return;
        }
        for (int r = 0; r < rows; r++) {
            binaryF(op, a, ao + r * ars, as, b, bo + r * brs, bs, o, oo + r * ors, os, n);
        }
    }

    /** {@code o = a op b} over n elements of any strides: unit-stride runs go to the kernels in use. */
    public static void binaryF(BinaryOp op, float[] a, int ao, int as, float[] b, int bo, int bs, float[] o, int oo, int os, int n) {
        if (os == 1 && as == 1) {
            if (bs == 1) {
                Kernels.ELEMENTWISE.binary(op, a, ao, b, bo, o, oo, n);
                return;
            }
            if (bs == 0) {
                Kernels.ELEMENTWISE.binaryScalar(op, a, ao, b, bo, o, oo, n);
                return;
            }
        } else if (os == 1 && as == 0 && bs == 1) {
            Kernels.ELEMENTWISE.scalarBinary(op, a, ao, b, bo, o, oo, n);
            return;
        }
        PlainLoops.binaryF(op, a, ao, as, b, bo, bs, o, oo, os, n);
    }

    public static void binaryD(BinaryOp op, double[] a, int ao, int as, double[] b, int bo, int bs, double[] o, int oo, int os, int n) {
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
            default:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = op.apply(a[ao + i * as], b[bo + i * bs]);
                }
        }
    }

    public static void binaryL(BinaryOp op, long[] a, int ao, int as, long[] b, int bo, int bs, long[] o, int oo, int os, int n) {
        for (int i = 0; i < n; i++) {
            long x = a[ao + i * as];
            long y = b[bo + i * bs];
            long r;
            switch (op) {
                case ADD: r = x + y; break;
                case SUB: r = x - y; break;
                case MUL: r = x * y; break;
                case MAXIMUM: r = Math.max(x, y); break;
                case MINIMUM: r = Math.min(x, y); break;
                case POW: r = powLong(x, y); break;
                default: throw new DTypeException(op.pyName() + ": not defined for int64 tensors");
            }
            o[oo + i * os] = r;
        }
    }

    private static long powLong(long base, long exp) {
        if (exp < 0) {
            throw new DTypeException("Integers to negative integer powers are not allowed.");
        }
        long r = 1;
        long b = base;
        long e = exp;
        while (e > 0) {
            if ((e & 1) != 0) {
                r *= b;
            }
            b *= b;
            e >>= 1;
        }
        return r;
    }

    public static void compareF(BinaryOp op, float[] a, int ao, int as, float[] b, int bo, int bs, boolean[] o, int oo, int os, int n) {
        if (as == 1 && (bs == 0 || bs == 1) && os == 1) {
            Kernels.ELEMENTWISE.compare(op, a, ao, b, bo, bs, o, oo, n);
            return;
        }
        PlainLoops.compareF(op, a, ao, as, b, bo, bs, o, oo, os, n);
    }

    public static void compareD(BinaryOp op, double[] a, int ao, int as, double[] b, int bo, int bs, boolean[] o, int oo, int os, int n) {
        for (int i = 0; i < n; i++) {
            o[oo + i * os] = PlainLoops.compare(op, a[ao + i * as], b[bo + i * bs]);
        }
    }

    public static void compareL(BinaryOp op, long[] a, int ao, int as, long[] b, int bo, int bs, boolean[] o, int oo, int os, int n) {
        for (int i = 0; i < n; i++) {
            long x = a[ao + i * as];
            long y = b[bo + i * bs];
            boolean r;
            switch (op) {
                case EQ: r = x == y; break;
                case NE: r = x != y; break;
                case LT: r = x < y; break;
                case LE: r = x <= y; break;
                case GT: r = x > y; break;
                case GE: r = x >= y; break;
                default: throw new AssertionError(op);
            }
            o[oo + i * os] = r;
        }
    }

    public static void logicalB(BinaryOp op, boolean[] a, int ao, int as, boolean[] b, int bo, int bs, boolean[] o, int oo, int os, int n) {
        // A loop per op, with & and | rather than && and ||: a branch per element on mask data that follows the values is
        // mispredicted on every other element.
        switch (op) {
            case LOGICAL_AND:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = a[ao + i * as] & b[bo + i * bs];
                }
                return;
            case LOGICAL_OR:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = a[ao + i * as] | b[bo + i * bs];
                }
                return;
            case LOGICAL_XOR:
            case NE:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = a[ao + i * as] ^ b[bo + i * bs];
                }
                return;
            case EQ:
                for (int i = 0; i < n; i++) {
                    o[oo + i * os] = a[ao + i * as] == b[bo + i * bs];
                }
                return;
            default:
                throw new AssertionError(op);
        }
    }

    public static void unaryF(UnaryOp op, float[] a, int ao, int as, float[] o, int oo, int os, int n) {
        if (as == 1 && os == 1) {
            Kernels.ELEMENTWISE.unary(op, a, ao, o, oo, n);
            return;
        }
        PlainLoops.unaryF(op, a, ao, as, o, oo, os, n);
    }

    public static void unaryD(UnaryOp op, double[] a, int ao, int as, double[] o, int oo, int os, int n) {
        for (int i = 0; i < n; i++) {
            o[oo + i * os] = op.apply(a[ao + i * as]);
        }
    }
}
