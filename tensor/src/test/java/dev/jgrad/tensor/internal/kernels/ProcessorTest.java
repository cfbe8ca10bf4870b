package dev.jgrad.tensor.internal.kernels;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

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
        Files.writeString(cpuinfo, "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\n"
                + "model name\t: AMD EPYC  9B45 128-Core\ncache size\t: 1024 KB\nflags\t: fpu\n");
        Processor p = Processor.detect(tmp.resolve("cache"), cpuinfo, 2, 512);
        // /sys's L2 wins over cpuinfo's "cache size".
        assertEquals(new Processor("AMD EPYC 9B45 128-Core (family 26 model 2)", 48 << 10, 2 << 20, 2, 512), p);
        assertEquals("AMD EPYC 9B45 128-Core (family 26 model 2), 512-bit vectors, 2 processors", p.key());
    }

    /** A virtual machine that hides /sys's caches and names a Zen 4 and a Zen 5 alike "AMD EPYC" (seen on 2026-12-07). */
    @Test
    void withoutSysAnAmdCoresL2IsCpuinfosCacheSizeAndTheFamilyTellsGenerationsApart() throws IOException {
        Path zen5 = tmp.resolve("zen5");
        Files.writeString(zen5, "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: AMD EPYC\n"
                + "stepping\t: 1\ncache size\t: 1024 KB\n\nprocessor\t: 1\nvendor_id\t: AuthenticAMD\ncache size\t: 4096 KB\n");
        Path zen4 = tmp.resolve("zen4");
        Files.writeString(zen4, "vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC\ncache size\t: 1024 KB\n");
        Processor five = Processor.detect(tmp.resolve("no-cache"), zen5, 2, 512);
        Processor four = Processor.detect(tmp.resolve("no-cache"), zen4, 2, 512);
        assertEquals(new Processor("AMD EPYC (family 26 model 2)", Processor.DEFAULT_L1D, 1 << 20, 2, 512), five);
        assertEquals("AMD EPYC (family 25 model 17)", four.model());
        assertNotEquals(five.key(), four.key());
        assertNotEquals(TuningFile.path(five), TuningFile.path(four));
        assertEquals("amd-epyc-family-26-model-2-512-bit-vectors-2-processors", TuningFile.slug(five.key()).replaceAll("-[0-9a-f]+$", ""));
        assertEquals("intel-xeon-cpu-e5-2690-v4-2-60ghz-plain-java-1-processor",
                TuningFile.slug("Intel(R) Xeon(R) CPU E5-2690 v4 @ 2.60GHz, plain Java, 1 processor").replaceAll("-[0-9a-f]+$", ""));
    }

    /** Intel's "cache size" is the shared L3, not a core's L2: without /sys the L2 stays the smallest machines'. */
    @Test
    void intelsCacheSizeIsNotTakenForL2() throws IOException {
        Path cpuinfo = tmp.resolve("cpuinfo");
        Files.writeString(cpuinfo, "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n"
                + "model name\t: Intel(R) Xeon(R) Processor\ncache size\t: 107520 KB\n");
        Processor p = Processor.detect(tmp.resolve("no-cache"), cpuinfo, 2, 512);
        assertEquals(Processor.DEFAULT_L2, p.l2Bytes());
        assertEquals("Intel(R) Xeon(R) Processor (family 6 model 143)", p.model());
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
