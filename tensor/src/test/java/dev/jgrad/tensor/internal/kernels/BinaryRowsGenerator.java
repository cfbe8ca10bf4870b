package dev.jgrad.tensor.internal.kernels;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes {@code VectorBinaryRows.java}: the whole-vector loops of {@link VectorElementwise#binaryRows}, one method per
 * arithmetic op. They are generated because the op cannot be a parameter: the JIT turns a lanewise op into vector
 * instructions only where it sees which op it is, and each op's method must be compiled on its own (too large to
 * inline), so one method taking the op would run it as plain Java. {@code MicroKernelGeneratorTest} fails while the
 * checked-in file differs from what this writes.
 */
final class BinaryRowsGenerator {
    static final Path FILE = Path.of("src/main/java/dev/jgrad/tensor/internal/kernels/VectorBinaryRows.java");
    /** The ops, by the name of their {@code FloatVector} method and of their {@code BinaryOp}. */
    static final List<String> OPS = List.of("add", "sub", "mul", "div");

    private BinaryRowsGenerator() {
    }

    public static void main(String[] args) throws IOException {
        GeneratedSource.write(args, FILE, source());
    }

    /** The whole file. */
    static String source() {
        StringBuilder s = new StringBuilder();
        s.append(GeneratedSource.head("BinaryRowsGenerator", "jdk.incubator.vector.FloatVector", "jdk.incubator.vector.VectorSpecies"));
        s.append("""
                /**
                 * The whole vectors of {@link VectorElementwise#binaryRows}: {@code o = a op b} over {@code rows} rows of n elements,
                 * each operand's rows {@code ars}, {@code brs}, {@code ors} apart, a repeated operand's 0 apart. One method per op,
                 * each too large for C2 to inline and so compiled on its own: the four ops' loops in one method passed C2's budget of
                 * inlined code, past which the last vector operations were compiled as calls that allocate every vector. The tails
                 * past the last whole vector of each row are the caller's.
                 */
                final class VectorBinaryRows {
                    private static final VectorSpecies<Float> S = VectorMath.S;
                    private static final int L = VectorMath.L;

                    /** How the rows are walked: one loop per row, or one over all of them (masked or wrapped index). */
                    static final int BY_ROW = 0;
                    static final int MASKED = 1;
                    static final int WRAPPED = 2;

                    private VectorBinaryRows() {
                    }
                """);
        for (String op : OPS) {
            s.append('\n').append(TEMPLATE.replace("OP_UPPER", op.toUpperCase()).replace("OP", op));
        }
        s.append("}\n");
        return s.toString();
    }

    /** One op's method; {@code OP} stands for the op's name. */
    private static final String TEMPLATE = """
                /** The whole vectors for OP_UPPER. */
                static void OP(int layout, float[] a, int ao, int ars, float[] b, int bo, int brs, float[] o, int oo, int ors, int rows, int n) {
                    // MASKED: n is a power of two of four vectors or more; a mask of all ones leaves a streamed operand's index as it is.
                    int am = ars == 0 ? n - 1 : -1;
                    int bm = brs == 0 ? n - 1 : -1;
                    for (int i = 0, total = layout == MASKED ? rows * n : 0; i < total; i += 4 * L) {
                        int ai = ao + (i & am);
                        int bi = bo + (i & bm);
                        int oi = oo + i;
                        FloatVector.fromArray(S, a, ai).OP(FloatVector.fromArray(S, b, bi)).intoArray(o, oi);
                        FloatVector.fromArray(S, a, ai + L).OP(FloatVector.fromArray(S, b, bi + L)).intoArray(o, oi + L);
                        FloatVector.fromArray(S, a, ai + 2 * L).OP(FloatVector.fromArray(S, b, bi + 2 * L)).intoArray(o, oi + 2 * L);
                        FloatVector.fromArray(S, a, ai + 3 * L).OP(FloatVector.fromArray(S, b, bi + 3 * L)).intoArray(o, oi + 3 * L);
                    }
                    // WRAPPED: whole-vector rows of another length; the repeated operand's index wraps at each row's end.
                    boolean aRep = ars == 0;
                    boolean bRep = brs == 0;
                    for (int i = 0, j = 0, total = layout == WRAPPED ? rows * n : 0; i < total; i += L, j = j + L == n ? 0 : j + L) {
                        FloatVector.fromArray(S, a, ao + (aRep ? j : i)).OP(FloatVector.fromArray(S, b, bo + (bRep ? j : i))).intoArray(o, oo + i);
                    }
                    int bound = S.loopBound(n);
                    for (int r = 0; r < rows && layout == BY_ROW; r++) {
                        int ai = ao + r * ars;
                        int bi = bo + r * brs;
                        int oi = oo + r * ors;
                        for (int i = 0; i < bound; i += L) {
                            FloatVector.fromArray(S, a, ai + i).OP(FloatVector.fromArray(S, b, bi + i)).intoArray(o, oi + i);
                        }
                    }
                }
            """;
}
