package dev.jgrad.train.tensorboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Event files read back as TensorBoard reads them, and what a damaged one gets. */
class EventReaderTest {
    @TempDir
    Path dir;

    private static List<Long> steps(List<EventReader.Scalar> s) {
        return s.stream().map(EventReader.Scalar::step).toList();
    }

    @Test
    void aResumedRunsFileDropsWhatTheStoppedRunLoggedPastItsCheckpoint() throws Exception {
        try (SummaryWriter tb = new SummaryWriter(dir)) {
            for (int step = 1; step <= 7; step++) {
                tb.addScalar("loss/train", 10 - step, step);
            }
        }
        // Within the same second: the second file's name still sorts after the first's.
        try (SummaryWriter tb = new SummaryWriter(dir, 5, System.err)) {
            for (int step = 5; step <= 9; step++) {
                tb.addScalar("loss/train", 100 + step, step);
            }
        }
        List<EventReader.Scalar> s = EventReader.scalars(dir).get("loss/train");
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), steps(s));
        assertEquals(6f, s.get(3).value());
        assertEquals(105f, s.get(4).value());
    }

    @Test
    void aRecordCutShortAtTheEndIsAFileStillBeingWritten() throws Exception {
        try (SummaryWriter tb = new SummaryWriter(dir)) {
            tb.addScalar("a", 1, 1);
            tb.addScalar("a", 2, 2);
        }
        Path f = EventFiles.only(dir);
        byte[] b = Files.readAllBytes(f);
        Files.write(f, Arrays.copyOf(b, b.length - 3));
        assertEquals(List.of(1L), steps(EventReader.scalars(dir).get("a")));
    }

    @Test
    void damageIsAnErrorNamingTheFileAndWhere() throws Exception {
        try (SummaryWriter tb = new SummaryWriter(dir)) {
            tb.addScalar("a", 1, 1);
        }
        Path f = EventFiles.only(dir);
        byte[] b = Files.readAllBytes(f);
        byte[] flipped = b.clone();
        flipped[b.length - 6] ^= 1;
        Files.write(f, flipped);
        IOException e = assertThrows(IOException.class, () -> EventReader.scalars(dir));
        assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains("bad data CRC"), e.getMessage());

        byte[] huge = RecordFraming.frame(new byte[0]);
        huge[7] = 0x7f;
        byte[] header = Arrays.copyOf(huge, 8);
        int crc = RecordFraming.maskedCrc32c(header, 0, 8);
        for (int i = 0; i < 4; i++) {
            huge[8 + i] = (byte) (crc >>> (8 * i));
        }
        Files.write(f, huge);
        e = assertThrows(IOException.class, () -> EventReader.events(f));
        assertTrue(e.getMessage().contains("more than " + EventReader.MAX_RECORD), e.getMessage());

        Files.write(f, "not an event file at all".getBytes());
        e = assertThrows(IOException.class, () -> EventReader.events(f));
        assertTrue(e.getMessage().contains("bad length CRC"), e.getMessage());
    }

    @Test
    void onlyEventFilesAreRead() throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "hello");
        try (SummaryWriter tb = new SummaryWriter(dir)) {
            tb.addScalar("x", 3, 4);
        }
        Map<String, List<EventReader.Scalar>> s = EventReader.scalars(dir);
        assertEquals(List.of("x"), List.copyOf(s.keySet()));
    }
}
