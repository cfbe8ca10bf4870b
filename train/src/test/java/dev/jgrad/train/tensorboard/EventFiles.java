package dev.jgrad.train.tensorboard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jgrad.nn.io.ProtoReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Event files read back for the tests. */
final class EventFiles {
    private EventFiles() {
    }

    /** The one event file in {@code dir}. */
    static Path only(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> files = s.filter(EventReader::isEventFile).toList();
            assertEquals(1, files.size(), "event files in " + dir + ": " + files);
            return files.get(0);
        }
    }

    /** The events of a file, each record's framing checked (RecordFraming's CRCs are tested against TensorBoard's bytes). */
    static List<ProtoReader> read(Path file) throws IOException {
        return EventReader.events(file);
    }
}
