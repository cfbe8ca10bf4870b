package dev.jgrad.tensor.internal.kernels;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The caches and model are read as Linux publishes them; what it does not say falls back to the smallest machines'. */
class ProcessorTest {
    @TempDir
    Path tmp;

    private void cache(int index, String level, String type, String size) throws IOException {
        Path d = Files.createDirectories(tmp.resolve("cache/index" + index));
        Files.writeString(d.resolve("level"), level + "\n");
        Files.writeString(d.resolve("type"), type + "\n");
        Files.writeString(d.resolve("size"), size + "\n");
    }

    @Test
    void readsTheDataCachesAndTheModel() throws IOException {
        cache(0, "1", "Data", "48K");
        cache(1, "1", "Instruction", "32K");
        cache(2, "2", "Unified", "2048K");
        cache(3, "3", "Unified", "491520K");
        Path cpuinfo = tmp.resolve("cpuinfo");
        Files.writeString(cpuinfo, "processor\t: 0\nmodel name\t: AMD EPYC  9B45 128-Core\nflags\t: fpu\n");
        Processor p = Processor.detect(tmp.resolve("cache"), cpuinfo, 2, 512);
        assertEquals(new Processor("AMD EPYC 9B45 128-Core", 48 << 10, 2 << 20, 2, 512), p);
        assertEquals("AMD EPYC 9B45 128-Core, 512-bit vectors, 2 processors", p.key());
    }

    @Test
    void whatIsMissingOrGarbledFallsBackToTheSmallestCaches() throws IOException {
        cache(0, "1", "Data", "lots");
        Processor p = Processor.detect(tmp.resolve("cache"), tmp.resolve("no-cpuinfo"), 1, 0);
        assertEquals(Processor.DEFAULT_L1D, p.l1dBytes());
        assertEquals(Processor.DEFAULT_L2, p.l2Bytes());
        assertEquals(System.getProperty("os.arch"), p.model());
        assertEquals(-1, Processor.bytes("99999999999K"));
        assertEquals(1 << 20, Processor.bytes("1M"));
    }

    @Test
    void thePanelDepthFollowsTheFirstLevelCache() {
        assertEquals(256, PackedGemm.kcFor(48 << 10, 12, 32));
        assertEquals(320, PackedGemm.kcFor(32 << 10, 5, 16));
        assertEquals(128, PackedGemm.kcFor(16 << 10, 5, 16));
        assertEquals(512, PackedGemm.kcFor(1 << 20, 12, 32));
        // AVX-512's tall tiles read B from L2 at full speed: a deeper panel than a small L1 holds.
        assertEquals(256, PackedGemm.kcFor(32 << 10, 12, 32));
        assertEquals(256, PackedGemm.kcFor(16 << 10, 12, 32));
    }
}
