package dev.jgrad.nn.data;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Reads IDX files (the MNIST and Fashion-MNIST format), plain or gzip-compressed (told apart by the gzip
 * magic, not the name). The header declares the element type and the dims; the reader reads exactly that
 * many bytes, so a file that is truncated, longer than declared, or declares more than {@link #MAX_BYTES}
 * is refused before anything is allocated beyond the declared size, and what is not a regular file
 * (a FIFO, a device) is refused without reading.
 */
public final class Idx {
    /** The largest body read (2 GiB - 1, one Java array). */
    public static final long MAX_BYTES = Integer.MAX_VALUE;
    private static final int MAX_DIMS = 8;
    /** The body's first allocation; it doubles as data arrives, up to what the header declares. */
    private static final int FIRST_CHUNK = 1 << 20;

    /** The element types an IDX header can declare, by their type byte. */
    public enum Type {
        UBYTE(0x08, 1), BYTE(0x09, 1), SHORT(0x0B, 2), INT(0x0C, 4), FLOAT(0x0D, 4), DOUBLE(0x0E, 8);

        final int code;
        final int bytes;

        Type(int code, int bytes) {
            this.code = code;
            this.bytes = bytes;
        }

        static Type of(int code) {
            for (Type t : values()) {
                if (t.code == code) {
                    return t;
                }
            }
            return null;
        }
    }

    /** The contents of an IDX file: its type, dims and body (big-endian, as in the file). */
    public record Array(Type type, int[] shape, byte[] body) {
        public int count() {
            return body.length / type.bytes;
        }

        /** Element {@code i} as a double, whatever the type (ubyte is unsigned). */
        public double get(int i) {
            ByteBuffer b = ByteBuffer.wrap(body).order(ByteOrder.BIG_ENDIAN);
            switch (type) {
                case UBYTE:
                    return body[i] & 0xFF;
                case BYTE:
                    return body[i];
                case SHORT:
                    return b.getShort(2 * i);
                case INT:
                    return b.getInt(4 * i);
                case FLOAT:
                    return b.getFloat(4 * i);
                default:
                    return b.getDouble(8 * i);
            }
        }
    }

    private Idx() {
    }

    public static Array read(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new NoSuchFileException(file.toString(), null, "no such file");
        }
        if (!Files.isRegularFile(file)) {
            throw new IdxFormatException(file + ": not a regular file (IDX data is read from files, not devices or pipes)");
        }
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            raw.mark(2);
            int b0 = raw.read();
            int b1 = raw.read();
            raw.reset();
            boolean gzip = b0 == 0x1f && b1 == 0x8b;
            try (InputStream in = gzip ? new GZIPInputStream(raw, 1 << 16) : raw) {
                return read(in, file.toString(), gzip ? -1 : Files.size(file));
            } catch (ZipException e) {
                throw new IdxFormatException(file + ": corrupt gzip data (" + e.getMessage() + ")");
            } catch (EOFException e) {
                throw new IdxFormatException(file + ": truncated gzip data (the compressed stream ends early)");
            }
        }
    }

    /** Reads one IDX array from a stream; {@code name} is used in messages. */
    public static Array read(InputStream stream, String name) throws IOException {
        return read(stream, name, -1);
    }

    /**
     * Reads one IDX array from a stream of {@code size} bytes (-1: not known, as for gzip): a header that declares more
     * data than the file holds is refused before the body is read, and a body is allocated as its bytes arrive, never
     * more than twice what was read, so a lying header costs no more memory than the file's own data.
     */
    private static Array read(InputStream stream, String name, long size) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        byte[] magic = new byte[4];
        if (in.readNBytes(magic, 0, 4) < 4) {
            throw new IdxFormatException(name + ": too short for an IDX header (4 bytes of magic, then 4 per dim)");
        }
        Type type = Type.of(magic[2] & 0xFF);
        int rank = magic[3] & 0xFF;
        if (magic[0] != 0 || magic[1] != 0 || type == null || rank == 0 || rank > MAX_DIMS) {
            throw new IdxFormatException(name + ": not an IDX file: the magic is " + hex(magic)
                    + ", expected 00 00 <type 08/09/0b/0c/0d/0e> <dims 1.." + MAX_DIMS + ">");
        }
        int[] shape = new int[rank];
        long bytes = type.bytes;
        for (int d = 0; d < rank; d++) {
            try {
                shape[d] = in.readInt();
            } catch (EOFException e) {
                throw new IdxFormatException(name + ": the header ends after " + d + " of its " + rank + " dims");
            }
            if (shape[d] < 0) {
                throw new IdxFormatException(name + ": dim " + d + " is negative (" + Integer.toUnsignedString(shape[d]) + " unsigned)");
            }
            bytes *= shape[d];
            if (bytes > MAX_BYTES) {
                throw new IdxFormatException(name + ": the header declares more than " + MAX_BYTES + " bytes of data (dims "
                        + Arrays.toString(Arrays.copyOf(shape, d + 1)) + "...)");
            }
        }
        long header = 4 + 4L * rank;
        if (size >= 0 && size - header < bytes) {
            throw new IdxFormatException(name + ": truncated: the header declares " + Arrays.toString(shape) + " = " + bytes
                    + " bytes of data, the file holds " + Math.max(0, size - header));
        }
        byte[] body = new byte[(int) Math.min(bytes, FIRST_CHUNK)];
        int got = 0;
        while (got < bytes) {
            if (got == body.length) {
                body = Arrays.copyOf(body, (int) Math.min(bytes, 2L * body.length));
            }
            int n = in.read(body, got, body.length - got);
            if (n < 0) {
                throw new IdxFormatException(name + ": truncated: the header declares " + Arrays.toString(shape) + " = " + bytes
                        + " bytes of data, the file holds " + got);
            }
            got += n;
        }
        if (in.read() >= 0) {
            throw new IdxFormatException(name + ": longer than its header declares (" + Arrays.toString(shape) + ", " + bytes
                    + " bytes of data)");
        }
        return new Array(type, shape, body);
    }

    /** Writes an IDX array (plain): the inverse of {@link #read}, for tests and tools. */
    public static byte[] encode(Type type, int[] shape, byte[] body) {
        ByteBuffer b = ByteBuffer.allocate(4 + 4 * shape.length + body.length).order(ByteOrder.BIG_ENDIAN);
        b.put((byte) 0).put((byte) 0).put((byte) type.code).put((byte) shape.length);
        for (int s : shape) {
            b.putInt(s);
        }
        b.put(body);
        return b.array();
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(sb.length() == 0 ? "" : " ").append(String.format("%02x", x & 0xFF));
        }
        return sb.toString();
    }
}
