package dev.jgrad.nn.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reading a whole file with a bound: only regular files (a FIFO would block forever, {@code /dev/zero}
 * never ends), no more than a stated size (refused before anything is allocated), and text only as
 * valid UTF-8 (a leading byte-order mark is dropped). Problems are IOExceptions whose message says
 * what was wrong with which file.
 */
public final class BoundedFiles {
    private BoundedFiles() {
    }

    /** The bytes of {@code path}, a regular file of at most {@code maxBytes}; {@code what} names it in messages. */
    public static byte[] read(Path path, long maxBytes, String what) throws IOException {
        long size = regularFileSize(path, what);
        if (size > maxBytes) {
            throw new IOException(path + ": " + size + " bytes is more than a " + what + " may be (" + maxBytes + ")");
        }
        try (InputStream in = Files.newInputStream(path)) {
            byte[] b = in.readNBytes((int) size);
            if (b.length != size || in.read() >= 0) {
                throw new IOException(path + ": changed size while it was read");
            }
            return b;
        }
    }

    /**
     * The size of {@code path}, a regular file (a FIFO would block forever, {@code /dev/zero} never ends); a
     * NoSuchFileException or an IOException naming it as a {@code what} otherwise. For readers that stream the file.
     */
    public static long regularFileSize(Path path, String what) throws IOException {
        if (!Files.exists(path)) {
            throw new NoSuchFileException(path.toString(), null, what + " not found");
        }
        if (!Files.isRegularFile(path)) {
            throw new IOException(path + ": not a regular file (a folder, pipe or device cannot be read as a " + what + ")");
        }
        return Files.size(path);
    }

    /** The text of {@code path} as strict UTF-8, without a leading byte-order mark. */
    public static String readUtf8(Path path, long maxBytes, String what) throws IOException {
        byte[] b = read(path, maxBytes, what);
        try {
            return utf8(b, 0, b.length);
        } catch (CharacterCodingException e) {
            throw new IOException(path + ": " + e.getMessage());
        }
    }

    /**
     * Decodes strict UTF-8, dropping a leading byte-order mark.
     *
     * @throws CharacterCodingException whose message gives the offset of the first bad byte
     */
    public static String utf8(byte[] b, int offset, int length) throws CharacterCodingException {
        int skip = length >= 3 && (b[offset] & 0xFF) == 0xEF && (b[offset + 1] & 0xFF) == 0xBB && (b[offset + 2] & 0xFF) == 0xBF ? 3 : 0;
        ByteBuffer in = ByteBuffer.wrap(b, offset + skip, length - skip);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(in).toString();
        } catch (MalformedInputException e) {
            throw new CharacterCodingException() {
                private static final long serialVersionUID = 1L;

                @Override
                public String getMessage() {
                    return "not valid UTF-8 (bad byte at offset " + (in.position() - offset) + ")";
                }
            };
        }
    }
}
