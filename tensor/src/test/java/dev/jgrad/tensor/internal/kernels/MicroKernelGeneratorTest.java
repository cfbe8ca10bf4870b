package dev.jgrad.tensor.internal.kernels;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The checked-in micro-kernel tiles are what the generator writes, so a tile is changed in the generator, never by hand.
 * With {@code -Djgrad.regenerate=true} the test writes the file instead of comparing.
 */
class MicroKernelGeneratorTest {
    @Test
    void checkedInTilesAreTheGeneratorsOutput() throws IOException {
        String generated = MicroKernelGenerator.source();
        if (Boolean.getBoolean("jgrad.regenerate")) {
            Files.writeString(MicroKernelGenerator.FILE, generated, StandardCharsets.UTF_8);
        }
        assertEquals(generated, Files.readString(MicroKernelGenerator.FILE, StandardCharsets.UTF_8),
                MicroKernelGenerator.FILE + " differs from MicroKernelGenerator's output: change the generator, then run "
                        + "mvn -pl tensor test -Dtest=MicroKernelGeneratorTest -Djgrad.regenerate=true");
    }
}
