package dev.jgrad.tensor.internal.kernels;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes {@code VectorCompareRuns.java}: the whole-vector loops of {@link VectorElementwise#compare}, one method per
 * comparison. They are generated for the reason {@link BinaryRowsGenerator} gives: the comparison must be a constant in
 * each method (held in a variable, it ran as Java, allocating every vector, at a tenth of the speed), and the six loops
 * in one method made C2's recompiles of it, when a second comparison came into use, lose their vector code.
 * {@code MicroKernelGeneratorTest} fails while the checked-in file differs from what this writes.
 */
final class CompareRunsGenerator {
    static final Path FILE = Path.of("src/main/java/dev/jgrad/tensor/internal/kernels/VectorCompareRuns.java");
    /** The comparisons: the method's name and its {@code VectorOperators} constant. */
    static final List<String[]> OPS = List.of(new String[] {"equal", "EQ"}, new String[] {"notEqual", "NE"},
            new String[] {"less", "LT"}, new String[] {"lessOrEqual", "LE"}, new String[] {"greater", "GT"},
            new String[] {"greaterOrEqual", "GE"});

    private CompareRunsGenerator() {
    }

    public static void main(String[] args) throws IOException {
        GeneratedSource.write(args, FILE, source());
    }

    /** The whole file. */
    static String source() {
        StringBuilder s = new StringBuilder();
        s.append(GeneratedSource.head("CompareRunsGenerator", "jdk.incubator.vector.FloatVector",
                "jdk.incubator.vector.VectorOperators", "jdk.incubator.vector.VectorSpecies"));
        s.append("""
                /**
                 * The whole vectors of {@link VectorElementwise#compare}: {@code o = a cmp b}, b a run or a scalar. One method per
                 * comparison, each with its operator a constant and compiled on its own; each returns how many leading elements it
                 * wrote, the rest being the caller's.
                 */
                final class VectorCompareRuns {
                    private static final VectorSpecies<Float> S = VectorMath.S;
                    private static final int L = VectorMath.L;

                    private VectorCompareRuns() {
                    }
                """);
        for (String[] op : OPS) {
            s.append('\n').append(TEMPLATE.replace("NAME", op[0]).replace("OP", op[1]));
        }
        s.append("}\n");
        return s.toString();
    }

    /** One comparison's method; {@code NAME} stands for its name, {@code OP} for its operator. */
    private static final String TEMPLATE = """
                /** The whole vectors for OP: four a step (one store for the four on JDK 17), then one; returns how many. */
                static int NAME(float[] a, int ao, float[] b, int bo, boolean run, float scalar, boolean[] o, int oo, int n) {
                    FloatVector s = FloatVector.broadcast(S, scalar);
                    int i = 0;
                    for (int bound = n - 4 * L + 1; i < bound; i += 4 * L) {
                        MaskStores.four(FloatVector.fromArray(S, a, ao + i).compare(VectorOperators.OP, run ? FloatVector.fromArray(S, b, bo + i) : s),
                                FloatVector.fromArray(S, a, ao + i + L).compare(VectorOperators.OP, run ? FloatVector.fromArray(S, b, bo + i + L) : s),
                                FloatVector.fromArray(S, a, ao + i + 2 * L).compare(VectorOperators.OP, run ? FloatVector.fromArray(S, b, bo + i + 2 * L) : s),
                                FloatVector.fromArray(S, a, ao + i + 3 * L).compare(VectorOperators.OP, run ? FloatVector.fromArray(S, b, bo + i + 3 * L) : s), o, oo + i);
                    }
                    for (int bound = S.loopBound(n); i < bound; i += L) {
                        FloatVector.fromArray(S, a, ao + i).compare(VectorOperators.OP, run ? FloatVector.fromArray(S, b, bo + i) : s).intoArray(o, oo + i);
                    }
                    return i;
                }
            """;
}
