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
 * many bytes, and allocates the body only once the data's size is known to match: a plain file's size is
 * its length; a gzip file's decompressed size is checked against the size its trailer records, then counted
 * in a first pass that keeps nothing. So a file that is truncated, longer than declared, declares more than
 * {@link #MAX_BYTES} or more than the heap has room for is refused without taking the memory it claims, and
 * what is not a regular file (a FIFO, a device) is refused without reading.
 */
public final class Idx {
    /** The largest body read (2 GiB - 1, one Java array). */
    public static final long MAX_BYTES = Integer.MAX_VALUE;
    private static final int MAX_DIMS = 8;
    /** The body's first allocation; it doubles as data arrives, up to what the header declares. */
    private static final int FIRST_CHUNK = 1 << 20;

    /** The element types an IDX header can declare, by their type byte. */
    public enum Type {
        /** Unsigned bytes (0x08): MNIST's pixels and labels. */
        UBYTE(0x08, 1),
        /** Signed bytes (0x09). */
        BYTE(0x09, 1),
        /** 16-bit integers (0x0B). */
        SHORT(0x0B, 2),
        /** 32-bit integers (0x0C). */
        INT(0x0C, 4),
        /** 32-bit floats (0x0D). */
        FLOAT(0x0D, 4),
        /** 64-bit floats (0x0E). */
        DOUBLE(0x0E, 8);

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
        /** The number of elements. */
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

    /** Reads an IDX file, plain or gzip'd; anything that is not a whole IDX file is an {@link IdxFormatException} naming it. */
    public static Array read(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new NoSuchFileException(file.toString(), null, "no such file");
        }
        if (!Files.isRegularFile(file)) {
            throw new IdxFormatException(file + ": not a regular file (IDX data is read from files, not devices or pipes)");
        }
        String name = file.toString();
        if (!isGzip(file)) {
            try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
                return read(in, name, Files.size(file));
            }
        }
        // The decompressed size is known only by decompressing: check the trailer's record of it, then count it in a pass
        // that keeps nothing, and only then allocate the body, exactly.
        long expected;
        try (CountingGzip in = gunzip(file)) {
            Header h = header(new DataInputStream(in), name);
            long whole = h.headerBytes() + h.bytes();
            long recorded = trailerSize(file);
            if ((whole & 0xFFFFFFFFL) != recorded) {
                throw new IdxFormatException(name + ": the header declares " + Arrays.toString(h.shape()) + " = " + h.bytes() + " bytes of"
                        + " data, but the gzip trailer records " + recorded + " bytes in all (modulo 4 GiB): the file is truncated or not"
                        + " what its header says");
            }
            requireRoom(name, h.bytes());
            long counted = h.headerBytes() + in.count(h.bytes() + 1);
            expected = counted;
            if (counted != whole) {
                throw new IdxFormatException(name + (counted < whole ? ": truncated" : ": longer than its header declares") + ": the header"
                        + " declares " + Arrays.toString(h.shape()) + " = " + h.bytes() + " bytes of data, the file holds "
                        + (counted < whole ? Long.toString(counted - h.headerBytes()) : "more"));
            }
        } catch (ZipException e) {
            throw new IdxFormatException(file + ": corrupt gzip data (" + e.getMessage() + ")");
        } catch (EOFException e) {
            throw new IdxFormatException(file + ": truncated gzip data (the compressed stream ends early)");
        }
        try (InputStream in = gunzip(file)) {
            return read(in, name, expected);
        } catch (ZipException e) {
            throw new IdxFormatException(file + ": corrupt gzip data (" + e.getMessage() + ")");
        }
    }

    private static boolean isGzip(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return in.read() == 0x1f && in.read() == 0x8b;
        }
    }

    private static CountingGzip gunzip(Path file) throws IOException {
        return new CountingGzip(new BufferedInputStream(Files.newInputStream(file), 1 << 16));
    }

    /** The decompressed size gzip's trailer records (RFC 1952's ISIZE: the size modulo 2^32), or -1 where there is none. */
    private static long trailerSize(Path file) throws IOException {
        try (java.nio.channels.SeekableByteChannel ch = Files.newByteChannel(file)) {
            if (ch.size() < 18) {
                return -1;
            }
            ByteBuffer b = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            ch.position(ch.size() - 4);
            while (b.hasRemaining() && ch.read(b) >= 0) {
                // read the four bytes
            }
            return b.getInt(0) & 0xFFFFFFFFL;
        }
    }

    /** A gzip stream that can count what is left without keeping it. */
    private static final class CountingGzip extends GZIPInputStream {
        CountingGzip(InputStream in) throws IOException {
            super(in, 1 << 16);
        }

        /** Reads past up to {@code n} bytes, keeping none, and returns how many there were. */
        long count(long n) throws IOException {
            byte[] scratch = new byte[1 << 16];
            long left = n;
            while (left > 0) {
                int r = read(scratch, 0, (int) Math.min(scratch.length, left));
                if (r < 0) {
                    break;
                }
                left -= r;
            }
            return n - left;
        }
    }

    /** Refuses a body the heap cannot hold beside what it holds now. */
    private static void requireRoom(String name, long bytes) throws IdxFormatException {
        Runtime rt = Runtime.getRuntime();
        long room = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        if (bytes > room) {
            throw new IdxFormatException(name + ": the header declares " + bytes + " bytes of data, more than the Java heap has room for ("
                    + room + " bytes); give it a larger heap (-Xmx) if the file is what it says");
        }
    }

    /** Reads one IDX array from a stream; {@code name} is used in messages. */
    public static Array read(InputStream stream, String name) throws IOException {
        return read(stream, name, -1);
    }

    /** What an IDX header declares: the element type, the dims, the body's size and the header's own. */
    private record Header(Type type, int[] shape, long bytes, long headerBytes) {
    }

    private static Header header(DataInputStream in, String name) throws IOException {
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
        return new Header(type, shape, bytes, 4 + 4L * rank);
    }

    /**
     * Reads one IDX array from a stream of {@code size} bytes in all, header included (-1: not known). Where the size is
     * known, a header that declares more data than it holds is refused before the body is allocated, and the body is
     * allocated once, exactly; where it is not, the body grows as its bytes arrive, never more than twice what was read.
     */
    private static Array read(InputStream stream, String name, long size) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        Header h = header(in, name);
        long bytes = h.bytes();
        int[] shape = h.shape();
        if (size >= 0 && size - h.headerBytes() < bytes) {
            throw new IdxFormatException(name + ": truncated: the header declares " + Arrays.toString(shape) + " = " + bytes
                    + " bytes of data, the file holds " + Math.max(0, size - h.headerBytes()));
        }
        if (size >= 0) {
            requireRoom(name, bytes);
        }
        byte[] body = new byte[(int) (size >= 0 ? bytes : Math.min(bytes, FIRST_CHUNK))];
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
        return new Array(h.type(), shape, body);
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
