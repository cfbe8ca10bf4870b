package dev.jgrad.train.tensorboard;

import dev.jgrad.nn.io.ProtoReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Event files read back: the scalars of a log folder as TensorBoard shows them, for the dashboard and for tests. Each
 * record's length and CRCs are checked; a record cut short at the end of a file (one being written) ends the reading
 * quietly, anything else malformed is an {@link IOException} naming the file and the offset. A record larger than
 * {@link #MAX_RECORD} is refused, so a corrupted length never makes the reader allocate gigabytes.
 */
public final class EventReader {
    /** The largest record read (an image of a few megabytes is the largest jgrad writes). */
    public static final int MAX_RECORD = 64 << 20;

    /** One scalar event. */
    public record Scalar(String tag, long step, double wallTime, float value) {
    }

    private EventReader() {
    }

    /** Whether {@code name} is an event file's name. */
    public static boolean isEventFile(Path file) {
        return file.getFileName().toString().startsWith("events.out.tfevents.");
    }

    /**
     * The scalars of the event files directly in {@code dir}, by tag, read file after file in name order (their time
     * order) with TensorBoard's rule for a restarted run: a restart marker at step s drops the scalars of steps from s on
     * that came before it.
     */
    public static Map<String, List<Scalar>> scalars(Path dir) throws IOException {
        return read(dir).scalars();
    }

    /** One text event (a text summary's string, under its tag without the {@code /text_summary} suffix). */
    public record Text(String tag, long step, String text) {
    }

    /** What a log folder holds, as TensorBoard shows it: its scalars and its texts, by tag, in step order as written. */
    public record Log(Map<String, List<Scalar>> scalars, Map<String, List<Text>> texts) {
    }

    /** The scalars and texts of the event files directly in {@code dir}, with the restart rule of {@link #scalars}. */
    public static Log read(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> isEventFile(p) && Files.isRegularFile(p)).sorted().toList();
        }
        Map<String, List<Scalar>> scalars = new LinkedHashMap<>();
        Map<String, List<Text>> texts = new LinkedHashMap<>();
        for (Path f : files) {
            for (ProtoReader event : events(f)) {
                long step = event.varint(2, 0);
                if (event.has(7) && event.message(7).varint(1, 0) == 1) {
                    scalars.values().forEach(list -> list.removeIf(sc -> sc.step() >= step));
                    texts.values().forEach(list -> list.removeIf(t -> t.step() >= step));
                }
                if (!event.has(5)) {
                    continue;
                }
                try {
                    for (Object v : event.message(5).all(1)) {
                        ProtoReader value = ProtoReader.parse((byte[]) v);
                        String tag = value.string(1);
                        if (value.has(2)) {
                            scalars.computeIfAbsent(tag, t -> new ArrayList<>())
                                    .add(new Scalar(tag, step, event.float64(1, 0), value.float32(2, Float.NaN)));
                        } else if (value.has(8) && tag.endsWith(TEXT_SUFFIX)) {
                            String name = tag.substring(0, tag.length() - TEXT_SUFFIX.length());
                            texts.computeIfAbsent(name, t -> new ArrayList<>()).add(new Text(name, step, value.message(8).string(8)));
                        }
                    }
                } catch (IllegalArgumentException e) {
                    throw new IOException(f + ": an event at step " + step + " holds a malformed summary: " + e.getMessage(), e);
                }
            }
        }
        return new Log(scalars, texts);
    }

    /** The suffix PyTorch's add_text puts after a text's tag. */
    private static final String TEXT_SUFFIX = "/text_summary";

    /** Every whole event of one file, parsed one level. */
    public static List<ProtoReader> events(Path file) throws IOException {
        List<ProtoReader> out = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            long offset = 0;
            byte[] header = new byte[12];
            while (true) {
                int got = in.readNBytes(header, 0, 12);
                if (got < 12) {
                    return out;
                }
                long length = ByteBuffer.wrap(header, 0, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
                int crc = ByteBuffer.wrap(header, 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
                if (crc != RecordFraming.maskedCrc32c(header, 0, 8)) {
                    throw new IOException(file + ": the record at byte " + offset + " has a bad length CRC: not an event file, or corrupted");
                }
                if (length < 0 || length > MAX_RECORD) {
                    throw new IOException(file + ": the record at byte " + offset + " says " + length + " bytes, more than " + MAX_RECORD);
                }
                byte[] data = in.readNBytes((int) length);
                byte[] tail = in.readNBytes(4);
                if (data.length < length || tail.length < 4) {
                    return out;
                }
                if (ByteBuffer.wrap(tail).order(ByteOrder.LITTLE_ENDIAN).getInt() != RecordFraming.maskedCrc32c(data, 0, data.length)) {
                    throw new IOException(file + ": the record at byte " + offset + " has a bad data CRC: corrupted");
                }
                try {
                    out.add(ProtoReader.parse(data));
                } catch (IllegalArgumentException e) {
                    throw new IOException(file + ": the record at byte " + offset + " is not an event: " + e.getMessage(), e);
                }
                offset += 16 + length;
            }
        }
    }
}
