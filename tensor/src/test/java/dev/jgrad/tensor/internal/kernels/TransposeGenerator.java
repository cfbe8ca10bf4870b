package dev.jgrad.tensor.internal.kernels;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes {@code VectorTranspose.java}: a 16 x 16 transpose in vector registers for packing the operands of a matrix
 * product, generated for the same reason as the tiles ({@link MicroKernelGenerator}): every vector must be a local of
 * its own. {@code MicroKernelGeneratorTest} fails while the checked-in file differs from what this writes.
 *
 * <p>The transpose exchanges, for d = 1, 2, 4 and 8, bit d of the line's index with bit d of the lane's: lines i and
 * i + d (i without bit d) become {@code blend(a, b.rearrange(x ^ d), lanes with bit d)} and
 * {@code blend(a.rearrange(x ^ d), b, lanes with bit d)}. The stages commute, so lines 0-7 and 8-15 each go through
 * d = 1, 2, 4 on their own (eight vectors live, not sixteen, which spilled), the first eight through a scratch block,
 * and d = 8 pairs them on the way out.
 */
final class TransposeGenerator {
    static final Path FILE = Path.of("src/main/java/dev/jgrad/tensor/internal/kernels/VectorTranspose.java");
    private static final int N = 16;

    private TransposeGenerator() {
    }

    public static void main(String[] args) throws IOException {
        GeneratedSource.write(args, FILE, source());
    }

    /** The whole file. */
    static String source() {
        StringBuilder s = new StringBuilder();
        s.append(GeneratedSource.head("TransposeGenerator", "jdk.incubator.vector.FloatVector", "jdk.incubator.vector.VectorMask", "jdk.incubator.vector.VectorShuffle", "jdk.incubator.vector.VectorSpecies"));
        s.append("""
                /**
                 * Lines of floats (rows of a row-major A, columns of a transposed B) laid side by side, as packing a matrix
                 * product's operand needs: 16 lines by 16 floats transposed in vector registers at a time, since moving one float
                 * at a time costs a small product much of its time. Only with 16-float vectors ({@link #AVAILABLE}).
                 */
                final class VectorTranspose {
                    private static final VectorSpecies<Float> S = VectorMicroKernel.S;
                    /** Whether the vectors hold 16 floats, the only width this transpose is written for. */
                    static final boolean AVAILABLE = S.length() == 16;
                    /** Each thread's scratch: the first eight lines between the two halves, and the last k of a block. */
                    private static final ThreadLocal<float[]> SCRATCH = ThreadLocal.withInitial(() -> new float[128]);
                """);
        for (int d = 1; d < N; d <<= 1) {
            long mask = 0;
            for (int lane = 0; lane < N; lane++) {
                if ((lane & d) != 0) {
                    mask |= 1L << lane;
                }
            }
            s.append("    private static final VectorShuffle<Float> P").append(d).append(" = AVAILABLE ? VectorShuffle.fromOp(S, x -> x ^ ")
                    .append(d).append(") : null;\n");
            s.append("    private static final VectorMask<Float> M").append(d).append(" = AVAILABLE ? VectorMask.fromLong(S, 0x")
                    .append(String.format("%04x", mask)).append("L) : null;\n");
        }
        s.append("""

                    private VectorTranspose() {
                    }

                    /**
                     * {@code dst[d0 + k * dStride + i] = src[so + i * sStride + k]} for lines {@code i < lines} (1 to 16) and
                     * {@code k < len}: each line read along its length, the lines written side by side {@code dStride} apart
                     * ({@code dStride >= lines} and at least 8). Only {@code dst[d0, d0 + len * dStride)} is written, and each k's
                     * floats from {@code lines} to {@code dStride} are left unspecified: where {@code dStride < 16} a whole vector
                     * goes to every k (the next k's store overwrites what reaches past its own), the last k's through a
                     * scratch.
                     */
                    static void lines(float[] src, int so, int sStride, int lines, int len, float[] dst, int d0, int dStride) {
                        float[] tmp = SCRATCH.get();
                        int last = lines - 1;
                """);
        s.append("        int o0 = so;\n");
        for (int i = 1; i < N; i++) {
            s.append("        int o").append(i).append(" = so + Math.min(").append(i).append(", last) * sStride;\n");
        }
        s.append("        int k0 = 0;\n");
        s.append("        for (; k0 + 16 <= len; k0 += 16) {\n");
        s.append("            // Lines 0-7 through d = 1, 2, 4 into tmp, then lines 8-15 in registers.\n");
        half(s, "a", 0);
        for (int i = 0; i < N / 2; i++) {
            s.append("            a").append(i).append(".intoArray(tmp, ").append(16 * i).append(");\n");
        }
        half(s, "b", N / 2);
        s.append("            // d = 8 pairs line i of each half into lines i and i + 8 of the result, stored in ascending k: a\n");
        s.append("            // store reaching past its k (dStride < 16) is overwritten by the next k's.\n");
        s.append("            int d = d0 + k0 * dStride;\n");
        for (int i = 0; i < N / 2; i++) {
            s.append("            FloatVector.fromArray(S, tmp, ").append(16 * i).append(").blend(b").append(i)
                    .append(".rearrange(P8), M8).intoArray(dst, d + ").append(i).append(" * dStride);\n");
        }
        for (int i = 0; i < N / 2 - 1; i++) {
            s.append("            FloatVector.fromArray(S, tmp, ").append(16 * i).append(").rearrange(P8).blend(b").append(i)
                    .append(", M8).intoArray(dst, d + ").append(i + 8).append(" * dStride);\n");
        }
        s.append("            FloatVector y15 = FloatVector.fromArray(S, tmp, ").append(16 * (N / 2 - 1)).append(").rearrange(P8).blend(b")
                .append(N / 2 - 1).append(", M8);\n");
        s.append("""
                            if (dStride >= 16 || k0 + 16 < len) {
                                y15.intoArray(dst, d + 15 * dStride);
                            } else {
                                // The last k's store would reach past the block: only its lines go.
                                y15.intoArray(tmp, 0);
                                System.arraycopy(tmp, 0, dst, d + 15 * dStride, lines);
                            }
                        }
                        for (; k0 < len; k0++) {
                            for (int i = 0, at = d0 + k0 * dStride; i < lines; i++) {
                                dst[at + i] = src[so + i * sStride + k0];
                            }
                        }
                    }
                }
                """);
        return s.toString();
    }

    /** Loads lines {@code from..from+7} as {@code name0..name7} and runs stages d = 1, 2, 4 over them. */
    private static void half(StringBuilder s, String name, int from) {
        for (int i = 0; i < N / 2; i++) {
            s.append("            FloatVector ").append(name).append(i).append(" = FloatVector.fromArray(S, src, o").append(from + i)
                    .append(" + k0);\n");
        }
        for (int d = 1; d < N / 2; d <<= 1) {
            for (int i = 0; i < N / 2; i++) {
                if ((i & d) != 0) {
                    continue;
                }
                String a = name + i;
                String b = name + (i + d);
                s.append("            { FloatVector t = ").append(a).append(".blend(").append(b).append(".rearrange(P").append(d).append("), M")
                        .append(d).append("); ").append(b).append(" = ").append(a).append(".rearrange(P").append(d).append(").blend(")
                        .append(b).append(", M").append(d).append("); ").append(a).append(" = t; }\n");
            }
        }
    }
}
