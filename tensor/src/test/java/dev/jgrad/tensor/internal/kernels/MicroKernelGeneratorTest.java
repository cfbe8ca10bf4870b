package dev.jgrad.tensor.internal.kernels;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The checked-in generated kernels (the micro-kernel's tiles, the packing transpose, the binary ops' row loops, the comparisons' loops) are what
 * their generators write, so they are changed in the generator, never by hand. With {@code -Djgrad.regenerate=true} the
 * test writes the files instead of comparing.
 */
class MicroKernelGeneratorTest {
    @Test
    void checkedInTilesAreTheGeneratorsOutput() throws IOException {
        check(MicroKernelGenerator.source(), MicroKernelGenerator.FILE);
    }

    @Test
    void checkedInTransposeIsTheGeneratorsOutput() throws IOException {
        check(TransposeGenerator.source(), TransposeGenerator.FILE);
    }

    @Test
    void checkedInBinaryRowsAreTheGeneratorsOutput() throws IOException {
        check(BinaryRowsGenerator.source(), BinaryRowsGenerator.FILE);
    }

    @Test
    void checkedInCompareRunsAreTheGeneratorsOutput() throws IOException {
        check(CompareRunsGenerator.source(), CompareRunsGenerator.FILE);
    }

    private static void check(String generated, Path file) throws IOException {
        if (Boolean.getBoolean("jgrad.regenerate")) {
            Files.writeString(file, generated, StandardCharsets.UTF_8);
        }
        assertEquals(generated, Files.readString(file, StandardCharsets.UTF_8),
                file + " differs from its generator's output: change the generator, then run "
                        + "mvn -pl tensor test -Dtest=MicroKernelGeneratorTest -Djgrad.regenerate=true");
    }
}
