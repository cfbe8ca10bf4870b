package dev.jgrad.nn.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * Replaces several files of one folder together, so that after a crash at any instant the folder holds the previous set
 * or the new one, never a mix (a model beside the optimizer state of another step, curves ahead of the weights).
 *
 * <p>The new files are written into a hidden staging folder ({@value #STAGING}) and forced to disk; renaming that folder
 * to {@value #COMMITTED} marks the set complete in one atomic step; then each file is renamed over its old version and the
 * folder removed. A crash before the mark leaves the old set and a staging folder that {@link #recover} removes; a crash
 * after it leaves a complete new set that {@link #recover} finishes moving in. Every writer of the folder calls
 * {@link #recover} first ({@link #commit} does). Files outside the set are not touched, and each file in the folder is at
 * every instant a whole file, so a program that reads one (PyTorch loading the model) never sees half of it.
 */
public final class AtomicFileSet {
    /** The hidden folder a set is written into. */
    public static final String STAGING = ".jgrad-commit.tmp";
    /** The hidden folder of a complete set being moved in. */
    public static final String COMMITTED = ".jgrad-commit";

    /** Called with the number of each step of a commit; tests throw from it to stop a commit where a crash would. */
    static IntConsumer crashPoint = step -> { };

    private final Path dir;
    private final Map<String, AtomicFile.Writer> files = new LinkedHashMap<>();

    /** An empty set of files for {@code dir}. */
    public AtomicFileSet(Path dir) {
        this.dir = dir;
    }

    /** Adds the file {@code name} (a name in the folder, not a path) written by {@code writer}; a second add of a name replaces it. */
    public AtomicFileSet add(String name, AtomicFile.Writer writer) {
        if (name.isEmpty() || name.contains("/") || name.contains("\\") || name.equals(".") || name.equals("..")
                || name.startsWith(COMMITTED)) {
            throw new IllegalArgumentException("a file of a set is named by a plain file name, not '" + name + "'");
        }
        files.put(name, writer);
        return this;
    }

    /** Adds the file {@code name} holding {@code bytes}. */
    public AtomicFileSet add(String name, byte[] bytes) {
        return add(name, out -> out.write(bytes));
    }

    /** Adds the file {@code name} holding {@code text} in UTF-8. */
    public AtomicFileSet addString(String name, String text) {
        return add(name, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Whether the set holds no file yet. */
    public boolean isEmpty() {
        return files.isEmpty();
    }

    /** The names of the files in the set, in the order they were added. */
    public List<String> names() {
        return new ArrayList<>(files.keySet());
    }

    /**
     * Writes the set and replaces the folder's files with it. A failure (a full disk, say) is an IOException that names the
     * file and says why, and leaves the folder's files as they were.
     */
    public void commit() throws IOException {
        Path staging = dir.resolve(STAGING);
        String current = null;
        int step = 0;
        try {
            Files.createDirectories(dir);
            recover(dir);
            Files.createDirectory(staging);
            for (Map.Entry<String, AtomicFile.Writer> f : files.entrySet()) {
                current = f.getKey();
                AtomicFile.writeForced(staging.resolve(current), f.getValue(), dir.resolve(current), StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE);
                crashPoint.accept(step++);
            }
            current = null;
            forceFolder(staging);
            crashPoint.accept(step++);
            // The mark: from here on the new set is complete and will be the folder's.
            Files.move(staging, dir.resolve(COMMITTED), StandardCopyOption.ATOMIC_MOVE);
            forceFolder(dir);
            crashPoint.accept(step++);
        } catch (IOException e) {
            deleteQuietly(staging);
            Path named = current == null ? dir : dir.resolve(current);
            throw new IOException("cannot write " + named + ": " + AtomicFile.reason(e), e);
        }
        moveIn(dir, step);
    }

    /**
     * Finishes or undoes a commit that a crash interrupted: a complete set is moved in, an incomplete one removed.
     * Returns whether there was one.
     */
    public static boolean recover(Path dir) throws IOException {
        boolean found = false;
        if (Files.isDirectory(dir.resolve(COMMITTED))) {
            moveIn(dir, Integer.MIN_VALUE);
            found = true;
        }
        if (Files.exists(dir.resolve(STAGING))) {
            try {
                deleteTree(dir.resolve(STAGING));
            } catch (IOException e) {
                throw new IOException("cannot remove the unfinished checkpoint " + dir.resolve(STAGING) + ": " + AtomicFile.reason(e), e);
            }
            found = true;
        }
        return found;
    }

    /** Renames each file of the committed set over the folder's own, then removes the emptied set folder. */
    private static void moveIn(Path dir, int step) throws IOException {
        Path committed = dir.resolve(COMMITTED);
        List<Path> pending = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(committed)) {
            s.forEach(pending::add);
        } catch (IOException e) {
            throw new IOException("cannot read the checkpoint being saved " + committed + ": " + AtomicFile.reason(e), e);
        }
        pending.sort(null);
        for (Path f : pending) {
            Path target = dir.resolve(f.getFileName().toString());
            try {
                AtomicFile.replace(f, target);
            } catch (IOException e) {
                throw new IOException("cannot replace " + target + ": " + AtomicFile.reason(e), e);
            }
            if (step != Integer.MIN_VALUE) {
                crashPoint.accept(step++);
            }
        }
        forceFolder(dir);
        try {
            Files.delete(committed);
        } catch (IOException e) {
            throw new IOException("cannot remove " + committed + ": " + AtomicFile.reason(e), e);
        }
    }

    /** Forces a folder's entries (the renames in it) to disk, where the platform allows opening a folder. */
    private static void forceFolder(Path folder) {
        try (FileChannel ch = FileChannel.open(folder, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // Some platforms cannot open a folder for syncing; the renames are still atomic there.
        }
    }

    private static void deleteQuietly(Path folder) {
        try {
            deleteTree(folder);
        } catch (IOException e) {
            // recover() removes it on the next write.
        }
    }

    private static void deleteTree(Path folder) throws IOException {
        if (!Files.exists(folder, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (Files.isDirectory(folder, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try (DirectoryStream<Path> s = Files.newDirectoryStream(folder)) {
                for (Path f : s) {
                    deleteTree(f);
                }
            }
        }
        Files.deleteIfExists(folder);
    }
}
