package dev.jgrad.examples.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CliTest {
    @TempDir
    Path tmp;

    private Path corpus() throws IOException {
        Path p = tmp.resolve("cases.json");
        try (InputStream in = CliTest.class.getResourceAsStream("/oracle/cases.json")) {
            Files.copy(in, p);
        }
        return p;
    }

    @Test
    void unknownFlagsAndMissingArgumentsExitTwo() {
        assertEquals(2, Main.run("--no-such-flag"));
        assertEquals(2, Main.run());
        assertEquals(2, Main.run("conformance"));
        assertEquals(2, Main.run("no-such-command"));
    }

    @Test
    void helpAndVersionExitZero() {
        assertEquals(0, Main.run("--help"));
        assertEquals(0, Main.run("--version"));
    }

    @Test
    void conformanceWritesResultsAndMissingOrCorruptInputExitsTwo() throws IOException {
        Path out = tmp.resolve("R.json");
        assertEquals(0, Main.run("conformance", corpus().toString(), "--out", out.toString()));
        assertTrue(Files.size(out) > 1000);
        assertEquals(2, Main.run("conformance", tmp.resolve("missing.json").toString(), "--out", out.toString()));
        Path corrupt = tmp.resolve("corrupt.json");
        Files.writeString(corrupt, "{\"cases\": [");
        Path untouched = tmp.resolve("keep.json");
        Files.writeString(untouched, "old");
        assertEquals(2, Main.run("conformance", corrupt.toString(), "--out", untouched.toString()));
        assertEquals("old", Files.readString(untouched), "a failed run leaves the old file whole");
        assertFalse(Files.list(tmp).anyMatch(p -> p.getFileName().toString().endsWith(".tmp")));
    }
}
