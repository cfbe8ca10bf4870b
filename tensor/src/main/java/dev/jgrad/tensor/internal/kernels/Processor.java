package dev.jgrad.tensor.internal.kernels;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What this processor is, as the kernels' block sizes depend on it: its model, its data caches per core (Linux's
 * {@code /sys/devices/system/cpu/cpu0/cache}), the processors this JVM may use, and the kernels' vector width. Where
 * that folder is missing (some virtual machines and containers hide it), an AMD processor's L2 is read from
 * {@code /proc/cpuinfo}'s "cache size", which Linux fills with the L2 of a core on AMD (on Intel it is the shared L3, so
 * it is not used there). What nothing says is taken as the smallest of the machines jgrad runs on (32 KB of L1, 512 KB
 * of L2), which is slower but never wrong.
 *
 * @param model       the model name ({@code /proc/cpuinfo}'s) with its family and model numbers, since a virtual
 *                    machine may name two generations alike ("AMD EPYC" for a Zen 4 and a Zen 5), or the
 *                    architecture where it is unknown
 * @param l1dBytes    the first-level data cache of one core
 * @param l2Bytes     the second-level cache of one core
 * @param cores       the processors this JVM may use
 * @param vectorBits  the width of the kernels' vectors (0 for the plain-Java kernels)
 */
public record Processor(String model, int l1dBytes, int l2Bytes, int cores, int vectorBits) {
    static final int DEFAULT_L1D = 32 << 10;
    static final int DEFAULT_L2 = 512 << 10;
    /** The largest cache size believed: a file that says more is not describing a core's cache. */
    private static final long MAX_CACHE = 1L << 30;

    /**
     * The vendors whose "cache size" in /proc/cpuinfo is a core's L2 (Hygon's are AMD's design); declared before
     * {@link #CURRENT}, which needs it.
     */
    private static final java.util.Set<String> AMD_VENDORS = java.util.Set.of("AuthenticAMD", "HygonGenuine");

    /** This machine, read once. */
    public static final Processor CURRENT = detect(Path.of("/sys/devices/system/cpu/cpu0/cache"), Path.of("/proc/cpuinfo"),
            Runtime.getRuntime().availableProcessors(), Simd.enabled() ? VectorMath.S.vectorBitSize() : 0);

    /** The processor that the cache folder {@code cacheDir} and the file {@code cpuinfo} describe (for tests: any folder). */
    static Processor detect(Path cacheDir, Path cpuinfo, int cores, int vectorBits) {
        int l1d = DEFAULT_L1D;
        String cpu = firstProcessor(read(cpuinfo));
        String vendor = field(cpu, "vendor_id");
        long amdL2 = vendor != null && AMD_VENDORS.contains(vendor) ? bytes(kilobytes(field(cpu, "cache size"))) : -1;
        int l2 = amdL2 > 0 ? (int) amdL2 : DEFAULT_L2;
        for (int i = 0; i < 8; i++) {
            Path index = cacheDir.resolve("index" + i);
            String level = read(index.resolve("level"));
            String type = read(index.resolve("type"));
            long size = bytes(read(index.resolve("size")));
            if (level == null || type == null || size <= 0) {
                continue;
            }
            if (level.equals("1") && type.equals("Data")) {
                l1d = (int) size;
            } else if (level.equals("2") && (type.equals("Unified") || type.equals("Data"))) {
                l2 = (int) size;
            }
        }
        return new Processor(modelName(cpu), l1d, l2, cores, vectorBits);
    }

    private static String modelName(String cpu) {
        String name = field(cpu, "model name");
        if (name == null || name.isEmpty()) {
            return System.getProperty("os.arch", "unknown");
        }
        String family = field(cpu, "cpu family");
        String model = field(cpu, "model");
        return family != null && model != null && family.matches("[0-9]{1,4}") && model.matches("[0-9]{1,4}")
                ? name + " (family " + family + " model " + model + ")" : name;
    }

    /** The first processor's lines of /proc/cpuinfo (up to its first blank line), or null. */
    private static String firstProcessor(String cpuinfo) {
        if (cpuinfo == null) {
            return null;
        }
        int end = cpuinfo.indexOf("\n\n");
        return end < 0 ? cpuinfo : cpuinfo.substring(0, end);
    }

    /** The value of the first line {@code name<tabs or spaces>: value} in {@code cpu}, spaces collapsed, or null. */
    private static String field(String cpu, String name) {
        if (cpu != null) {
            for (String line : cpu.split("\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equals(name)) {
                    return line.substring(colon + 1).trim().replaceAll("\\s+", " ");
                }
            }
        }
        return null;
    }

    /** "1024 KB" as "1024K" for {@link #bytes}; null for anything else. */
    private static String kilobytes(String size) {
        return size != null && size.matches("[0-9]{1,9} KB") ? size.substring(0, size.length() - 3) + "K" : null;
    }

    /** "48K", "2048K", "1M" as bytes; -1 for anything else. */
    static long bytes(String size) {
        if (size == null || !size.matches("[0-9]{1,9}[KMG]?")) {
            return -1;
        }
        char unit = size.charAt(size.length() - 1);
        long n = Long.parseLong(Character.isDigit(unit) ? size : size.substring(0, size.length() - 1));
        long b = unit == 'K' ? n << 10 : unit == 'M' ? n << 20 : unit == 'G' ? n << 30 : n;
        return b > 0 && b <= MAX_CACHE ? b : -1;
    }

    /** A small file's first line (or whole text, for cpuinfo), or null where it cannot be read. */
    private static String read(Path file) {
        try {
            if (!Files.isRegularFile(file) || Files.size(file) > (1 << 20)) {
                return null;
            }
            String s = Files.readString(file, StandardCharsets.UTF_8);
            return file.getFileName().toString().equals("cpuinfo") ? s : s.trim();
        } catch (IOException | SecurityException | java.io.UncheckedIOException e) {
            return null;
        }
    }

    /** What names a processor for a tuning file: the model, the vector width and the processors this JVM may use. */
    public String key() {
        return model + ", " + (vectorBits == 0 ? "plain Java" : vectorBits + "-bit vectors") + ", " + cores + " processor" + (cores == 1 ? "" : "s");
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s (L1d %d KB, L2 %d KB a core)", key(), l1dBytes >> 10, l2Bytes >> 10);
    }
}
