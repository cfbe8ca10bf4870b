package dev.jgrad.train.tensorboard;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One event file, named as TensorBoard's writers name them: {@code events.out.tfevents.<seconds>.<host>.<pid>.<n>},
 * n counting the files this process opened. Events are appended as records ({@link RecordFraming}); a file is never
 * rewritten, so a reader may follow it while it grows.
 */
final class EventFile implements AutoCloseable {
    private static final Pattern NAME = Pattern.compile("events\\.out\\.tfevents\\.(\\d{10})\\.");
    private final Path path;
    private final OutputStream out;

    private EventFile(Path path, OutputStream out) {
        this.path = path;
        this.out = out;
    }

    /**
     * A new event file in {@code dir} (created with its parents). Readers take a folder's files in name order, so its
     * seconds are made later than any file already there: a run resumed within the second it stopped still sorts after it.
     */
    static EventFile create(Path dir, int uid) throws IOException {
        Files.createDirectories(dir);
        long seconds = System.currentTimeMillis() / 1000;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Matcher m = NAME.matcher(f.getFileName().toString());
                if (m.lookingAt()) {
                    seconds = Math.max(seconds, Long.parseLong(m.group(1)) + 1);
                }
            }
        }
        String name = String.format(Locale.ROOT, "events.out.tfevents.%010d.%s.%d.%d", seconds, host(), ProcessHandle.current().pid(), uid);
        Path path = dir.resolve(name);
        return new EventFile(path, new BufferedOutputStream(Files.newOutputStream(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), 1 << 16));
    }

    Path path() {
        return path;
    }

    /** Appends one event (a serialized Event message) as a record. */
    void write(byte[] event) throws IOException {
        out.write(RecordFraming.frame(event));
    }

    void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    /**
     * The machine's name as the kernel has it (what Python's socket.gethostname() returns), without a name lookup,
     * which can take seconds where DNS is slow; "localhost" where it cannot be read.
     */
    static String host() {
        String name = null;
        try {
            Path kernel = Path.of("/proc/sys/kernel/hostname");
            if (Files.isReadable(kernel)) {
                name = new String(Files.readAllBytes(kernel), StandardCharsets.UTF_8).trim();
            }
        } catch (IOException | RuntimeException e) {
            name = null;
        }
        if (name == null || name.isEmpty()) {
            name = System.getenv("COMPUTERNAME");
        }
        if (name == null || name.isEmpty()) {
            name = System.getenv("HOSTNAME");
        }
        if (name == null || name.isEmpty()) {
            return "localhost";
        }
        return name.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
