package dev.jgrad.nn.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Writes a file so that a crash never leaves it half-written: the bytes go to a temporary file in the
 * same folder, are forced to disk, and the temporary file is renamed over the target in one step. The
 * old file stays whole until the new one is complete.
 */
public final class AtomicFile {
    /** Writes the content of the target file to a stream. */
    @FunctionalInterface
    public interface Writer {
        /** Writes the file's content to {@code out}. */
        void write(OutputStream out) throws IOException;
    }

    private AtomicFile() {
    }

    /**
     * Writes {@code target} through a temporary file beside it. The new file gets the old one's permissions,
     * or rw-r--r-- when there was none (a temporary file is created private). A failure is an IOException
     * that names the target and says why.
     */
    public static void write(Path target, Writer writer) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Path tmp;
        try {
            if (dir != null) {
                Files.createDirectories(dir);
            }
            tmp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
        } catch (IOException e) {
            throw new IOException("cannot write " + target + ": " + reason(e), e);
        }
        try {
            writeForced(tmp, writer, target, StandardOpenOption.WRITE);
            replace(tmp, target);
        } catch (IOException e) {
            throw new IOException("cannot write " + target + ": " + reason(e), e);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * Writes {@code file} (opened with {@code open}) through {@code writer}, forces it to disk and gives it the permissions
     * of {@code target}, the file it will replace.
     */
    static void writeForced(Path file, Writer writer, Path target, StandardOpenOption... open) throws IOException {
        try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file, open))) {
            writer.write(out);
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        setPermissions(file, target);
    }

    /** Renames {@code from} over {@code to}: atomically, where the file system can. */
    static void replace(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Gives {@code tmp} the permissions of {@code target}, or rw-r--r-- when there is no target yet. */
    private static void setPermissions(Path tmp, Path target) throws IOException {
        if (!Files.getFileStore(tmp).supportsFileAttributeView(PosixFileAttributeView.class)) {
            return;
        }
        Set<PosixFilePermission> mode = Files.exists(target)
                ? Files.getPosixFilePermissions(target)
                : PosixFilePermissions.fromString("rw-r--r--");
        Files.setPosixFilePermissions(tmp, mode);
    }

    /** How far down a chain of causes {@link #reason} looks for the I/O error that says why. */
    private static final int MAX_CAUSES = 32;

    /** Why an I/O operation failed, in words: "permission denied", "no space left on device", the OS's reason. */
    public static String reason(IOException error) {
        // The deepest I/O error says why (an image writer wraps "No space left on device" in "I/O error writing PNG file!").
        // The walk is bounded: a chain of causes may loop back on itself.
        IOException e = error;
        Throwable c = error.getCause();
        for (int depth = 0; c != null && depth < MAX_CAUSES; depth++, c = c.getCause()) {
            if (c instanceof IOException) {
                e = (IOException) c;
            }
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or folder";
        }
        if (e instanceof FileSystemException && ((FileSystemException) e).getReason() != null) {
            return ((FileSystemException) e).getReason();
        }
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }

    /** Replaces {@code target} with {@code bytes}, atomically: a reader sees the old file or the new one, never part of one. */
    public static void write(Path target, byte[] bytes) throws IOException {
        write(target, out -> out.write(bytes));
    }

    /** Replaces {@code target} with {@code text} in UTF-8, atomically. */
    public static void writeString(Path target, String text) throws IOException {
        write(target, text.getBytes(StandardCharsets.UTF_8));
    }
}
