package dev.jgrad.train;

import dev.jgrad.nn.io.AtomicFile;
import dev.jgrad.nn.io.AtomicFileSet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * The folder a run writes into: the one given, or a new {@code runs/<name>-<time>}. Checked writable before training
 * starts; a folder that already holds a run is refused unless it is to be overwritten (or the run continues in it); a
 * lock file with the owner's pid keeps a second run out while the first trains (a lock whose process is gone is taken
 * over); a checkpoint that a kill interrupted is finished or undone, and temporary files a killed run left are removed.
 */
final class RunFolder {
    static final String LOCK = ".jgrad.lock";
    /** The files that make a folder a run: a new run would replace them. */
    static final List<String> RUN_FILES = List.of("model.safetensors", "summary.json", "metrics.csv", "optimizer.safetensors",
            RunConfig.FILE);

    private RunFolder() {
    }

    /**
     * Makes {@code out} (or, when it is null, a new folder under runs/ named after the run) ready for a run and returns it.
     *
     * @param continuing the run continues in this folder from its checkpoint, so the run files it holds are expected
     */
    static Path prepare(Path out, String name, boolean overwrite, boolean continuing) {
        Path dir = out;
        if (dir == null) {
            String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
            dir = Path.of("runs", name + "-" + stamp);
            for (int i = 2; Files.exists(dir); i++) {
                dir = Path.of("runs", name + "-" + stamp + "-" + i);
            }
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new RunException("--out " + dir + " is a file, not a folder");
        }
        List<String> held = runFiles(dir);
        if (!held.isEmpty() && !overwrite && !continuing) {
            throw new RunException("--out " + dir + " already holds a run (" + String.join(", ", held) + "): pass --overwrite to replace it,"
                    + " or choose another --out");
        }
        try {
            Files.createDirectories(dir);
            Path probe = Files.createTempFile(dir, ".write-check", ".tmp");
            Files.delete(probe);
        } catch (IOException e) {
            throw new RunException("cannot write to --out " + dir + ": " + AtomicFile.reason(e));
        } catch (SecurityException e) {
            throw new RunException("cannot write to --out " + dir + ": " + (e.getMessage() == null ? "SecurityException" : e.getMessage()));
        }
        lock(dir);
        // A checkpoint that a kill interrupted is finished (or undone) before anything reads the folder.
        try {
            AtomicFileSet.recover(dir);
        } catch (IOException e) {
            throw new RunException(e.getMessage(), e);
        }
        removeStaleTemporaries(dir);
        Interrupt.runDir(dir);
        return dir;
    }

    /** The run files {@code dir} holds, by name; empty when it holds none or does not exist. */
    static List<String> runFiles(Path dir) {
        List<String> held = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            for (String f : RUN_FILES) {
                // A file of a checkpoint that a kill interrupted while it was moved in is the run's file too.
                if (Files.exists(dir.resolve(f)) || Files.exists(dir.resolve(AtomicFileSet.COMMITTED).resolve(f))) {
                    held.add(f);
                }
            }
        }
        return held;
    }

    /** Takes the folder's lock for this process until it exits; refuses while a live process holds it. */
    static void lock(Path dir) {
        Path lock = dir.resolve(LOCK);
        long me = ProcessHandle.current().pid();
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                Files.writeString(Files.createFile(lock), Long.toString(me), StandardCharsets.UTF_8);
                lock.toFile().deleteOnExit();
                return;
            } catch (FileAlreadyExistsException e) {
                long owner = ownerOf(lock);
                if (owner == me) {
                    return;
                }
                if (owner > 0 && ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false)) {
                    throw new RunException("--out " + dir + " is in use by another jgrad run (process " + owner + ", " + lock
                            + "); wait for it, or choose another --out");
                }
                try {
                    // The owner is gone (killed, or the machine restarted): the lock is stale.
                    Files.deleteIfExists(lock);
                } catch (IOException ex) {
                    throw new RunException("cannot take the stale lock " + lock + ": " + AtomicFile.reason(ex));
                }
            } catch (IOException e) {
                throw new RunException("cannot write the lock " + lock + ": " + AtomicFile.reason(e));
            }
        }
        throw new RunException("cannot take the lock " + lock + ": another run took it first");
    }

    private static long ownerOf(Path lock) {
        try {
            return Long.parseLong(Files.readString(lock, StandardCharsets.UTF_8).trim());
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /** Removes the hidden temporary files ({@code .NAME.N.tmp}) of writes that a killed run never finished. */
    static void removeStaleTemporaries(Path dir) {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, ".*.tmp")) {
            for (Path f : files) {
                if (Files.isRegularFile(f)) {
                    Files.deleteIfExists(f);
                }
            }
        } catch (IOException e) {
            // A temporary file that cannot be removed harms nothing; the run goes on.
        }
    }
}
