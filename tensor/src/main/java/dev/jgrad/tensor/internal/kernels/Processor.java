package dev.jgrad.tensor.internal.kernels;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What this processor is, as the kernels' block sizes depend on it: its model, its data caches per core (Linux's
 * {@code /sys/devices/system/cpu/cpu0/cache}), the processors this JVM may use, and the kernels' vector width. Where the
 * system does not say (another OS, a container that hides /sys), the caches are taken as the smallest of the machines
 * jgrad runs on (32 KB of L1, 512 KB of L2), which is slower but never wrong.
 *
 * @param model       the model name ({@code /proc/cpuinfo}'s), or the architecture where it is unknown
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

    /** This machine, read once. */
    public static final Processor CURRENT = detect(Path.of("/sys/devices/system/cpu/cpu0/cache"), Path.of("/proc/cpuinfo"),
            Runtime.getRuntime().availableProcessors(), Simd.enabled() ? VectorMath.S.vectorBitSize() : 0);

    /** The processor that the cache folder {@code cacheDir} and the file {@code cpuinfo} describe (for tests: any folder). */
    static Processor detect(Path cacheDir, Path cpuinfo, int cores, int vectorBits) {
        int l1d = DEFAULT_L1D;
        int l2 = DEFAULT_L2;
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
        return new Processor(modelName(cpuinfo), l1d, l2, cores, vectorBits);
    }

    private static String modelName(Path cpuinfo) {
        String text = read(cpuinfo);
        if (text != null) {
            for (String line : text.split("\n")) {
                if (line.startsWith("model name") && line.contains(":")) {
                    String name = line.substring(line.indexOf(':') + 1).trim().replaceAll("\\s+", " ");
                    if (!name.isEmpty()) {
                        return name;
                    }
                }
            }
        }
        return System.getProperty("os.arch", "unknown");
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
