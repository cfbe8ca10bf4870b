package dev.jgrad.nn.data;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class IdxTest {
    @TempDir
    Path dir;

    static byte[] gzip(byte[] plain) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(plain);
        }
        return out.toByteArray();
    }

    private static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void plainAndGzipReadTheSameArrayWhateverTheName() throws IOException {
        int[] shape = {5, 3, 4};
        byte[] body = randomBytes(60, 1);
        byte[] plain = Idx.encode(Idx.Type.UBYTE, shape, body);
        Files.write(dir.resolve("a.idx"), plain);
        Files.write(dir.resolve("b.idx"), gzip(plain));
        for (String name : new String[] {"a.idx", "b.idx"}) {
            Idx.Array a = Idx.read(dir.resolve(name));
            assertEquals(Idx.Type.UBYTE, a.type());
            assertArrayEquals(shape, a.shape());
            assertArrayEquals(body, a.body());
            assertEquals(60, a.count());
            assertEquals(body[7] & 0xFF, a.get(7));
        }
    }

    @Test
    void wideTypesAreBigEndian() throws IOException {
        ByteBuffer b = ByteBuffer.allocate(12);
        b.putInt(-7).putFloat(2.5f).putInt(123456);
        Idx.Array ints = Idx.read(new java.io.ByteArrayInputStream(Idx.encode(Idx.Type.INT, new int[] {3}, b.array())), "ints");
        assertEquals(-7, ints.get(0));
        assertEquals(123456, ints.get(2));
        Idx.Array floats = Idx.read(new java.io.ByteArrayInputStream(Idx.encode(Idx.Type.FLOAT, new int[] {3}, b.array())), "floats");
        assertEquals(2.5, floats.get(1));
        Idx.Array signed = Idx.read(new java.io.ByteArrayInputStream(Idx.encode(Idx.Type.BYTE, new int[] {1}, new byte[] {-3})), "s");
        assertEquals(-3, signed.get(0));
    }

    private String refused(byte[] contents) throws IOException {
        Path f = Files.write(dir.resolve("bad-" + Arrays.hashCode(contents) + ".idx"), contents);
        return assertThrows(IdxFormatException.class, () -> Idx.read(f)).getMessage();
    }

    @Test
    void truncatedLongerOrMalformedFilesAreRefusedByName() throws IOException {
        byte[] good = Idx.encode(Idx.Type.UBYTE, new int[] {4, 5}, randomBytes(20, 2));
        String m = refused(Arrays.copyOf(good, good.length - 3));
        assertTrue(m.contains("truncated") && m.contains("[4, 5]") && m.contains("17"), m);
        m = refused(gzip(Arrays.copyOf(good, good.length - 3)));
        assertTrue(m.contains("truncated"), m);
        byte[] zipped = gzip(good);
        assertTrue(refused(Arrays.copyOf(zipped, 6)).contains("truncated gzip data"), "cut inside the gzip header");
        assertTrue(refused(Arrays.copyOf(zipped, zipped.length - 12)).contains(".idx: "), "cut inside the deflate stream");
        byte[] longer = Arrays.copyOf(good, good.length + 1);
        assertTrue(refused(longer).contains("longer than its header declares"));
        assertTrue(refused(new byte[] {0, 0}).contains("too short"));
        assertTrue(refused(new byte[] {'P', 'K', 3, 4, 0, 0, 0, 1}).contains("not an IDX file"));
        assertTrue(refused(new byte[] {0, 0, 0x07, 1, 0, 0, 0, 1, 0}).contains("not an IDX file"), "unknown type byte");
        assertTrue(refused(new byte[] {0, 0, 0x08, 0}).contains("not an IDX file"), "zero dims");
        assertTrue(refused(new byte[] {0, 0, 0x08, 2, 0, 0, 0, 1}).contains("the header ends after 1 of its 2 dims"));
        assertTrue(refused(new byte[] {0, 0, 0x08, 1, -1, -1, -1, -1}).contains("negative"));
        byte[] corrupt = gzip(good);
        corrupt[corrupt.length / 2] ^= 0x5A;
        corrupt[corrupt.length / 2 + 1] ^= 0x33;
        Path f = Files.write(dir.resolve("corrupt.gz"), corrupt);
        assertThrows(IOException.class, () -> Idx.read(f));
    }

    @Test
    void aHugeDeclaredSizeIsRefusedBeforeAllocating() throws IOException {
        ByteBuffer b = ByteBuffer.allocate(20);
        b.put(new byte[] {0, 0, 0x0E, 3}).putInt(60000).putInt(60000).putInt(60000).putInt(0);
        String m = refused(Arrays.copyOf(b.array(), 16));
        assertTrue(m.contains("more than " + Idx.MAX_BYTES + " bytes"), m);
    }

    /**
     * A header that claims far more data than the file holds is refused without allocating what it claims: 2^31 - 1
     * labels in a 12-byte plain file (checked against the file's size), and 2 GiB of images in a small gzip file (whose
     * size says nothing, so the body grows only as data arrives). Either would take gigabytes if the header were believed.
     */
    @Test
    void lyingHeadersAreRefusedWithoutAllocatingWhatTheyClaim() throws IOException {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        ByteBuffer labels = ByteBuffer.allocate(12);
        labels.put(new byte[] {0, 0, 0x08, 1}).putInt(Integer.MAX_VALUE).putInt(0x01020304);
        Path plain = dir.resolve("labels-idx1-ubyte");
        Files.write(plain, labels.array());
        long before = mx.getThreadAllocatedBytes(thread);
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.read(plain));
        assertTrue(e.getMessage().contains("truncated") && e.getMessage().contains("the file holds 4"), e.getMessage());
        assertTrue(mx.getThreadAllocatedBytes(thread) - before < 8 << 20, "a 12-byte file cost more than 8 MB to refuse");
        ByteBuffer images = ByteBuffer.allocate(16 + 200_000);
        images.put(new byte[] {0, 0, 0x08, 3}).putInt(32767).putInt(256).putInt(256);
        Path gz = dir.resolve("images-idx3-ubyte.gz");
        Files.write(gz, gzip(images.array()));
        before = mx.getThreadAllocatedBytes(thread);
        e = assertThrows(IdxFormatException.class, () -> Idx.read(gz));
        assertTrue(e.getMessage().contains("truncated") && e.getMessage().contains("gzip trailer records 200016"), e.getMessage());
        assertTrue(mx.getThreadAllocatedBytes(thread) - before < 16 << 20, "a 200 KB file cost more than 16 MB to refuse");
    }

    /**
     * A small gzip file whose header claims 2 GiB and which holds far more zeros than that (the hostile file of the issue,
     * scaled down: 48 MB of zeros behind a header of 2^31 - 1 bytes) is refused by its trailer before the body is read,
     * and one whose trailer agrees but whose data runs short is refused by the counting pass; neither allocates the body.
     */
    @Test
    void aGzipBodyIsCountedBeforeItIsAllocated() throws IOException {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(zipped)) {
            z.write(ByteBuffer.allocate(12).put(new byte[] {0, 0, 0x08, 2}).putInt(1).putInt(Integer.MAX_VALUE).array());
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < 48; i++) {
                z.write(zeros);
            }
        }
        Path bomb = dir.resolve("bomb-idx3-ubyte.gz");
        Files.write(bomb, zipped.toByteArray());
        long before = mx.getThreadAllocatedBytes(thread);
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.read(bomb));
        assertTrue(e.getMessage().contains("gzip trailer records"), e.getMessage());
        assertTrue(mx.getThreadAllocatedBytes(thread) - before < 8 << 20, "refused after allocating more than 8 MB");

        // A trailer forged to agree with the header over a body that is 1 MB short: the counting pass reaches the end of the
        // data first (where gzip's own check of the trailer finds the forgery), before any body is allocated.
        byte[] body = new byte[3 << 20];
        byte[] whole = ByteBuffer.allocate(12 + (2 << 20)).put(new byte[] {0, 0, 0x08, 2}).putInt(3).putInt(1 << 20).array();
        byte[] gz = gzip(whole);
        ByteBuffer.wrap(gz, gz.length - 4, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(12 + body.length);
        Path short_ = dir.resolve("short-idx3-ubyte.gz");
        Files.write(short_, gz);
        before = mx.getThreadAllocatedBytes(thread);
        e = assertThrows(IdxFormatException.class, () -> Idx.read(short_));
        assertTrue(e.getMessage().contains("corrupt gzip data"), e.getMessage());
        assertTrue(mx.getThreadAllocatedBytes(thread) - before < 2 << 20, "the 3 MB body was allocated before its data was counted");
    }

    /** Images of no pixels are refused by name, as bad input, not taken for a dataset of nothing. */
    @Test
    void imagesOfNoPixelsAreRefusedByName() throws IOException {
        Path images = Files.write(dir.resolve("empty-images-idx3-ubyte"), Idx.encode(Idx.Type.UBYTE, new int[] {3, 0, 0}, new byte[0]));
        Path labels = Files.write(dir.resolve("empty-labels-idx1-ubyte"), Idx.encode(Idx.Type.UBYTE, new int[] {3}, new byte[] {0, 1, 2}));
        IdxFormatException e = assertThrows(IdxFormatException.class, () -> ImageDataset.fromIdx(images, labels, 0.5, 0.25));
        assertTrue(e.getMessage().contains("0x0 pixels") && e.getMessage().contains(images.toString()), e.getMessage());
    }

    @Test
    void missingFilesDirectoriesAndPipesAreRefusedWithoutReading() throws Exception {
        assertThrows(NoSuchFileException.class, () -> Idx.read(dir.resolve("absent.idx")));
        String m = assertThrows(IdxFormatException.class, () -> Idx.read(dir)).getMessage();
        assertTrue(m.contains("not a regular file"), m);
        Path fifo = dir.resolve("fifo");
        boolean made;
        try {
            made = new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0;
        } catch (IOException e) {
            made = false;
        }
        assumeTrue(made, "mkfifo is not available");
        m = assertThrows(IdxFormatException.class, () -> Idx.read(fifo)).getMessage();
        assertTrue(m.contains("not a regular file"), m);
    }
}
