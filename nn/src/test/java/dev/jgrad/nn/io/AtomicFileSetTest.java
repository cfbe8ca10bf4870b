package dev.jgrad.nn.io;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AtomicFileSetTest {
    @TempDir
    Path tmp;

    /** Stands for the process dying at a step of a commit: nothing after it runs, not even clean-up. */
    private static final class Crash extends RuntimeException {
    }

    @AfterEach
    void noCrashes() {
        AtomicFileSet.crashPoint = step -> { };
    }

    private static Map<String, String> set(String version) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("model.safetensors", version + " weights");
        m.put("optimizer.safetensors", version + " moments");
        m.put("metrics.csv", version + " curves");
        return m;
    }

    private static void commit(Path dir, Map<String, String> files) throws IOException {
        AtomicFileSet s = new AtomicFileSet(dir);
        files.forEach(s::addString);
        s.commit();
    }

    /** The folder's files by name (hidden ones too), with their text. */
    private static Map<String, String> contents(Path dir) throws IOException {
        Map<String, String> m = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(dir).sorted()) {
            for (Path f : files.collect(Collectors.toList())) {
                m.put(f.getFileName().toString(), Files.isDirectory(f) ? "<folder>" : Files.readString(f));
            }
        }
        return m;
    }

    @Test
    void aCommitReplacesEveryFileOfTheSetAndLeavesTheOthers() throws IOException {
        Files.writeString(tmp.resolve("notes.txt"), "mine");
        commit(tmp, set("old"));
        commit(tmp, set("new"));
        Map<String, String> expected = new LinkedHashMap<>(set("new"));
        expected.put("notes.txt", "mine");
        assertEquals(new java.util.TreeMap<>(expected), new java.util.TreeMap<>(contents(tmp)));
    }

    /**
     * A crash at every step of a commit: each file is whole at every instant, and once the next writer has recovered the
     * folder it holds the whole old set or the whole new one, the new one exactly when the crash came after the mark.
     */
    @Test
    void aCrashAtAnyStepLeavesTheOldSetOrTheNewOneNeverAMix() throws IOException {
        Map<String, String> old = set("old");
        Map<String, String> neu = set("new");
        int steps = 0;
        boolean sawOld = false;
        boolean sawNew = false;
        for (int crashAt = 0; ; crashAt++) {
            Path dir = Files.createDirectories(tmp.resolve("crash-" + crashAt));
            Files.writeString(dir.resolve("notes.txt"), "mine");
            commit(dir, old);
            int at = crashAt;
            AtomicFileSet.crashPoint = step -> {
                if (step == at) {
                    throw new Crash();
                }
            };
            boolean crashed;
            try {
                commit(dir, neu);
                crashed = false;
            } catch (Crash c) {
                crashed = true;
            } finally {
                AtomicFileSet.crashPoint = step -> { };
            }
            for (String name : old.keySet()) {
                String text = Files.readString(dir.resolve(name));
                assertTrue(text.equals(old.get(name)) || text.equals(neu.get(name)), "crash at " + at + ": " + name + " holds " + text);
            }
            boolean interrupted = AtomicFileSet.recover(dir);
            assertEquals(crashed, interrupted, "crash at " + at + ": recover finds a commit exactly when one was stopped");
            Map<String, String> after = contents(dir);
            assertEquals("mine", after.remove("notes.txt"));
            assertTrue(after.equals(old) || after.equals(neu), "crash at " + at + ": " + after);
            sawOld |= after.equals(old);
            sawNew |= after.equals(neu);
            if (!crashed) {
                assertEquals(neu, after);
                steps = at;
                break;
            }
        }
        // Three files written, the staging folder forced, the mark, three renames: a crash at each was tried.
        assertEquals(8, steps);
        assertTrue(sawOld && sawNew);
    }

    @Test
    void aFullDiskNamesTheFileAndChangesNothing() throws IOException {
        commit(tmp, set("old"));
        AtomicFileSet s = new AtomicFileSet(tmp).addString("model.safetensors", "new weights").add("optimizer.safetensors", out -> {
            out.write(new byte[100]);
            throw new IOException("No space left on device");
        });
        IOException e = assertThrows(IOException.class, s::commit);
        assertEquals("cannot write " + tmp.resolve("optimizer.safetensors") + ": No space left on device", e.getMessage());
        assertEquals(set("old"), contents(tmp));
    }

    @Test
    void aNewFileKeepsTheModeOfTheOneItReplaces() throws IOException {
        commit(tmp, Map.of("a.txt", "1", "b.txt", "1"));
        Files.setPosixFilePermissions(tmp.resolve("a.txt"), PosixFilePermissions.fromString("rw-------"));
        commit(tmp, Map.of("a.txt", "2", "b.txt", "2"));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp.resolve("a.txt"))));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp.resolve("b.txt"))));
    }

    @Test
    void namesArePlainFileNames() {
        for (String bad : List.of("", "../x", "a/b", ".", "..", AtomicFileSet.COMMITTED, AtomicFileSet.STAGING)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new AtomicFileSet(tmp).addString(bad, "x"));
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
        assertFalse(new AtomicFileSet(tmp).addString("ok.txt", "x").isEmpty());
    }
}
