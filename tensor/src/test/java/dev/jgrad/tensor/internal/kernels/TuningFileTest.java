package dev.jgrad.tensor.internal.kernels;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A tuning file is used only whole and only on the processor it was measured on; anything else is refused, saying why. */
class TuningFileTest {
    @TempDir
    Path tmp;

    private static final Processor HERE = new Processor("Test CPU \"X\" 9000", 48 << 10, 2 << 20, 2, 512);
    private static final Processor ELSEWHERE = new Processor("Other CPU", 32 << 10, 1 << 20, 2, 256);

    @Test
    void aWrittenFileIsReadBackOnItsProcessorAndLeavesNoTemporary() throws IOException {
        Path f = tmp.resolve("cache/jgrad/tuning.json");
        Tuning.Choices c = new Tuning.Choices(144, 1 << 14);
        TuningFile.write(f, c, HERE);
        assertEquals(c, TuningFile.read(f, HERE));
        try (var files = Files.list(f.getParent())) {
            assertEquals(1, files.count(), "only the file itself");
        }
    }

    @Test
    void aMissingFileIsTheDefaultsSilently() throws IOException {
        assertNull(TuningFile.read(tmp.resolve("none.json"), HERE));
    }

    @Test
    void aFileFromAnotherProcessorIsRefused() throws IOException {
        Path f = tmp.resolve("t.json");
        TuningFile.write(f, new Tuning.Choices(96, 1 << 15), ELSEWHERE);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TuningFile.read(f, HERE));
        assertTrue(e.getMessage().contains("measured on another processor (Other CPU, 256-bit vectors, 2 processors)"), e.getMessage());
    }

    @Test
    void corruptedOrOutOfRangeFilesAreRefusedNamingWhy() throws IOException {
        Path f = tmp.resolve("t.json");
        TuningFile.write(f, new Tuning.Choices(96, 1 << 15), HERE);
        String good = Files.readString(f);
        String[][] bad = {
            {good.substring(0, good.length() / 2), "not a JSON object"},
            {good.replace("96", "9x6"), "not a tuning file"},
            {good.replace("\"gemm_row_block\": 96", "\"gemm_row_block\": 100000"), "tuning out of range"},
            {good.replace("\"gemm_row_block\": 96,", ""), "no whole number for gemm_row_block"},
            {good.replace("\"format\": 1", "\"format\": 7"), "format 7"},
            {good.replace("}", "} trailing"), "not a JSON object"},
            {"{}", "not a tuning file"},
            {"\u0000\u0001binary", "not a JSON object"},
        };
        for (String[] b : bad) {
            Files.writeString(f, b[0]);
            Exception e = assertThrows(Exception.class, () -> TuningFile.read(f, HERE), b[1]);
            assertTrue(e.getMessage().contains(b[1]), b[1] + ": " + e.getMessage());
        }
        Files.write(f, new byte[(int) TuningFile.MAX_BYTES + 1]);
        assertThrows(IOException.class, () -> TuningFile.read(f, HERE));
        Path dir = Files.createDirectories(tmp.resolve("a-folder.json"));
        assertThrows(IOException.class, () -> TuningFile.read(dir, HERE));
    }

    @Test
    void eachProcessorHasAFileOfItsOwn() {
        assertTrue(!TuningFile.slug(HERE.key()).equals(TuningFile.slug(ELSEWHERE.key())));
        assertTrue(TuningFile.slug(HERE.key()).matches("[a-z0-9-]+"), TuningFile.slug(HERE.key()));
    }
}
