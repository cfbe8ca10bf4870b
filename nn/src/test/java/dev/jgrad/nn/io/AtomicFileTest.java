package dev.jgrad.nn.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A write that fails (a full disk, simulated) leaves the old file whole, no temporary file, and an error that says why. */
class AtomicFileTest {
    @TempDir
    Path tmp;

    @Test
    void aFailedWriteKeepsTheOldFileAndSaysWhyInOneLine() throws IOException {
        Path target = tmp.resolve("model.safetensors");
        Files.writeString(target, "good");
        IOException e = assertThrows(IOException.class, () -> AtomicFile.write(target, out -> {
            out.write(new byte[100]);
            throw new IOException("I/O error writing PNG file!", new FileSystemException(null, null, "No space left on device"));
        }));
        assertEquals("cannot write " + target + ": No space left on device", e.getMessage());
        assertEquals("good", Files.readString(target), "the old file is whole");
        try (var files = Files.list(tmp)) {
            assertFalse(files.anyMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temporary file is left");
        }
    }

    @Test
    void theReasonIsTheDeepestIoErrorsInWords() {
        assertEquals("No space left on device",
                AtomicFile.reason(new IOException("outer", new IOException("middle", new FileSystemException("f", null, "No space left on device")))));
        assertEquals("permission denied", AtomicFile.reason(new java.nio.file.AccessDeniedException("x")));
        assertTrue(AtomicFile.reason(new IOException()).contains("IOException"));
        // Causes that loop back on themselves: an answer, not a StackOverflowError.
        IOException a = new IOException("a");
        IOException b = new IOException("b", a);
        a.initCause(b);
        assertTrue(java.util.Set.of("a", "b").contains(AtomicFile.reason(a)));
    }
}
