package dev.jgrad.tensor.internal.kernels;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes {@code VectorTiles.java}: the bodies of the Vector API micro-kernel, one method per tile height and layout of B.
 * They are generated because every accumulator must be a local of its own (an array of vectors, or a helper taking
 * vectors, gets them boxed), so a 12-row tile is 24 accumulators spelled out. To change a tile, change this program and
 * run {@code mvn -pl tensor test -Dtest=MicroKernelGeneratorTest -Djgrad.regenerate=true}; the test fails while the
 * checked-in file differs from what this writes.
 */
final class MicroKernelGenerator {
    /** The tile heights generated: 5 rows (AVX2's 16 registers), 12 and 8 (AVX-512's 32). */
    static final List<Integer> HEIGHTS = List.of(5, 12, 8);
    static final Path FILE = Path.of("src/main/java/dev/jgrad/tensor/internal/kernels/VectorTiles.java");

    private MicroKernelGenerator() {
    }

    public static void main(String[] args) throws IOException {
        GeneratedSource.write(args, FILE, source());
    }

    /** The whole file. */
    static String source() {
        StringBuilder s = new StringBuilder();
        s.append(GeneratedSource.head("MicroKernelGenerator", "jdk.incubator.vector.FloatVector", "jdk.incubator.vector.VectorSpecies"));
        s.append("""
                /**
                 * The full tiles of {@link VectorMicroKernel}: an R x (2 vectors) tile of C held in 2R accumulators, one broadcast of A
                 * and two loads of B per step of k. One method per tile height and per layout of B (a packed sliver, {@code NR} floats a
                 * row, or rows read in place {@code bk} apart), so that every address is {@code base + k * stride + constant} with as
                 * many strides as possible known to the JIT. The accumulators start at zero and are added to C's tile after the loop:
                 * loaded before it, C's tile kept its row addresses live through the loop, and in some JVMs C2 then spilled the loop's
                 * own integers (the same source compiled to a slower tile, decided per JVM). Each method has a twin ending in
                 * {@code Overwrite} that stores the accumulators over C's tile instead, for a product's first panel: C's old values are
                 * then neither zeroed nor read, which a new result's cache-cold tile made a few per cent of a product.
                 */
                final class VectorTiles {
                    private static final VectorSpecies<Float> S = VectorMicroKernel.S;
                    private static final int L = VectorMicroKernel.L;
                    private static final int NR = VectorMicroKernel.NR;

                    private VectorTiles() {
                    }
                """);
        for (int rows : HEIGHTS) {
            for (boolean overwrite : new boolean[] {false, true}) {
                tile(s, rows, true, overwrite);
                tile(s, rows, false, overwrite);
            }
        }
        s.append("}\n");
        return s.toString();
    }

    private static void tile(StringBuilder s, int rows, boolean packed, boolean overwrite) {
        s.append('\n');
        String result = overwrite ? ", stored over C's tile" : ", added into C's tile";
        String name = "k" + rows + (packed ? "Packed" : "InPlaceB") + (overwrite ? "Overwrite" : "");
        if (packed) {
            s.append("    /** A full ").append(rows).append(" x (2 vectors) tile from a packed sliver of A and a packed sliver of B (every stride a constant)")
                    .append(result).append(". */\n");
            s.append("    static void ").append(name).append("(int kc, float[] ap, int ao, float[] bp, int bo, float[] c, int co, int crs) {\n");
        } else {
            s.append("    /** A full ").append(rows).append(" x (2 vectors) tile from a packed sliver of A and rows of B read in place, {@code bk} apart")
                    .append(result).append(". */\n");
            s.append("    static void ").append(name).append("(int kc, float[] ap, int ao, float[] bp, int bo, int bk, float[] c, int co, int crs) {\n");
        }
        for (int r = 0; r < rows; r++) {
            s.append("        FloatVector c").append(r).append("0 = FloatVector.zero(S); ")
                    .append("FloatVector c").append(r).append("1 = FloatVector.zero(S);\n");
        }
        // One running index for A, the loop's own, and one for B: no multiplication of k per step.
        s.append("        int b = bo;\n");
        s.append("        for (int a = ao, end = ao + kc * ").append(rows).append("; a < end; a += ").append(rows).append(", b += ")
                .append(packed ? "NR" : "bk").append(") {\n");
        s.append("            FloatVector b0 = FloatVector.fromArray(S, bp, b);\n");
        s.append("            FloatVector b1 = FloatVector.fromArray(S, bp, b + L);\n");
        for (int r = 0; r < rows; r++) {
            s.append("            FloatVector a").append(r).append(" = FloatVector.broadcast(S, ap[a").append(r == 0 ? "" : " + " + r).append("]);\n");
            s.append("            c").append(r).append("0 = a").append(r).append(".fma(b0, c").append(r).append("0); ")
                    .append("c").append(r).append("1 = a").append(r).append(".fma(b1, c").append(r).append("1);\n");
        }
        s.append("        }\n");
        s.append("        // Written out, not a helper: a vector passed to a method the JIT does not inline is boxed.\n");
        for (int r = 0; r < rows; r++) {
            String at = r == 0 ? "co" : "co + " + r + " * crs";
            if (overwrite) {
                s.append("        c").append(r).append("0.intoArray(c, ").append(at).append(");\n");
                s.append("        c").append(r).append("1.intoArray(c, ").append(at).append(" + L);\n");
            } else {
                s.append("        c").append(r).append("0.add(FloatVector.fromArray(S, c, ").append(at).append(")).intoArray(c, ").append(at).append(");\n");
                s.append("        c").append(r).append("1.add(FloatVector.fromArray(S, c, ").append(at).append(" + L)).intoArray(c, ").append(at).append(" + L);\n");
            }
        }
        s.append("    }\n");
    }
}
