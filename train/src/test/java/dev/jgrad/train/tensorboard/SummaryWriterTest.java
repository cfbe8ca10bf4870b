package dev.jgrad.train.tensorboard;

import dev.jgrad.nn.io.ProtoReader;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jgrad.tensor.Tensor;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What SummaryWriter leaves on disk, read back record by record. */
class SummaryWriterTest {
    @TempDir
    Path dir;

    /** The summary value of an event (its first), or null for an event without a summary. */
    private static ProtoReader value(ProtoReader event) {
        return event.has(5) ? event.message(5).message(1) : null;
    }

    @Test
    void eachKindIsWrittenAndReadsBack() throws Exception {
        BufferedImage img = new BufferedImage(3, 2, BufferedImage.TYPE_INT_RGB);
        img.setRGB(2, 1, 0xFF8000);
        try (SummaryWriter tb = new SummaryWriter(dir)) {
            tb.addScalar("loss/train", 0.25, 1);
            tb.addScalar("loss/train", 0.125, 2);
            tb.addHistogram("fc.weight", Tensor.of(new float[] {1f, 1.25f, 1.5f, 1f}, 2, 2), 2);
            tb.addText("sample", "To be, or not", 2);
            tb.addImage("confusion", img, 3);
        }
        Path file = EventFiles.only(dir);
        assertTrue(file.getFileName().toString().matches("events\\.out\\.tfevents\\.\\d{10}\\.[A-Za-z0-9._-]+\\." + ProcessHandle.current().pid() + "\\.\\d+"),
                file.getFileName().toString());
        List<ProtoReader> events = EventFiles.read(file);
        assertEquals(6, events.size());
        assertEquals(Summaries.FILE_VERSION, events.get(0).string(3));
        assertTrue(events.get(0).float64(1, 0) > 1.7e9, "wall time in seconds since the epoch");

        ProtoReader s1 = value(events.get(1));
        assertEquals("loss/train", s1.string(1));
        assertEquals(0.25f, s1.float32(2, Float.NaN));
        assertEquals(1, events.get(1).varint(2, 0));
        assertEquals(0.125f, value(events.get(2)).float32(2, Float.NaN));
        assertEquals(2, events.get(2).varint(2, 0));

        ProtoReader histo = value(events.get(3)).message(5);
        assertEquals(1.0, histo.float64(1, 0));
        assertEquals(1.5, histo.float64(2, 0));
        assertEquals(4.0, histo.float64(3, 0));
        assertEquals(4.75, histo.float64(4, 0));
        double[] counts = histo.packedFloat64(7);
        assertEquals(4.0, java.util.Arrays.stream(counts).sum());

        ProtoReader text = value(events.get(4));
        assertEquals("sample/text_summary", text.string(1));
        assertEquals("To be, or not", text.message(8).string(8));

        ProtoReader image = value(events.get(5)).message(4);
        assertEquals(2, image.varint(1, 0));
        assertEquals(3, image.varint(2, 0));
        assertEquals(3, image.varint(3, 0));
        BufferedImage back = ImageIO.read(new ByteArrayInputStream(image.bytes(4)));
        assertEquals(0xFF8000, back.getRGB(2, 1) & 0xFFFFFF);
        assertEquals(0, back.getRGB(0, 0) & 0xFFFFFF);
    }

    @Test
    void tensorImagesAreScaledAndTruncatedAsPyTorch() throws Exception {
        // (C=3, H=1, W=2): pixel 0 is (1.0, 0.5, 0), pixel 1 is (2.0 clipped, -1 clipped, 0.999).
        Tensor chw = Tensor.of(new float[] {1f, 2f, 0.5f, -1f, 0f, 0.999f}, 3, 1, 2);
        try (SummaryWriter tb = new SummaryWriter(dir)) {
            tb.addImage("img", chw, 0);
        }
        ProtoReader image = value(EventFiles.read(EventFiles.only(dir)).get(1)).message(4);
        BufferedImage back = ImageIO.read(new ByteArrayInputStream(image.bytes(4)));
        assertEquals(0xFF7F00, back.getRGB(0, 0) & 0xFFFFFF);
        assertEquals(0xFF00FE, back.getRGB(1, 0) & 0xFFFFFF);
        assertThrows(IllegalArgumentException.class, () -> {
            try (SummaryWriter tb = new SummaryWriter(dir.resolve("other"))) {
                tb.addImage("img", Tensor.zeros(2, 4, 4), 0);
            }
        });
    }

    @Test
    void scalarsOfOneChartGoToAFolderEachAsPyTorchWritesThem() throws Exception {
        Map<String, Double> losses = new LinkedHashMap<>();
        losses.put("train", 0.5);
        losses.put("val", 0.75);
        try (SummaryWriter tb = new SummaryWriter(dir)) {
            tb.addScalars("loss/both", losses, 10);
        }
        for (String key : List.of("train", "val")) {
            List<ProtoReader> events = EventFiles.read(EventFiles.only(dir.resolve("loss_both_" + key)));
            assertEquals("loss/both", value(events.get(1)).string(1));
            assertEquals(losses.get(key).floatValue(), value(events.get(1)).float32(2, Float.NaN));
            assertEquals(10, events.get(1).varint(2, 0));
        }
    }

    @Test
    void hparamsGoToTheirOwnFolderWithTheMetrics() throws Exception {
        Map<String, Object> hp = new LinkedHashMap<>();
        hp.put("lr", 0.003);
        hp.put("optimizer", "adamw");
        hp.put("compile", false);
        try (SummaryWriter tb = new SummaryWriter(dir)) {
            tb.addHparams(hp, Map.of("hparam/val_loss", 1.5), "hparams");
        }
        List<ProtoReader> events = EventFiles.read(EventFiles.only(dir.resolve("hparams")));
        assertEquals(List.of(Summaries.EXPERIMENT_TAG, Summaries.SESSION_START_TAG, Summaries.SESSION_END_TAG, "hparam/val_loss"),
                events.subList(1, 5).stream().map(e -> value(e).string(1)).toList());
        assertEquals(1.5f, value(events.get(4)).float32(2, Float.NaN));
        // The session start holds each value with its type: number, string, bool.
        ProtoReader start = ProtoReader.parse(value(events.get(2)).message(9).message(1).bytes(2)).message(3);
        List<Object> entries = start.all(1);
        assertEquals(3, entries.size());
        ProtoReader lr = ProtoReader.parse((byte[]) entries.get(0));
        assertEquals("lr", lr.string(1));
        assertEquals(0.003, lr.message(2).float64(2, 0));
        assertEquals("adamw", ProtoReader.parse((byte[]) entries.get(1)).message(2).string(3));
        assertEquals(0, ProtoReader.parse((byte[]) entries.get(2)).message(2).varint(4, 0));
    }

    @Test
    void aResumedWriterStartsWithTheRestartMarker() throws Exception {
        try (SummaryWriter tb = new SummaryWriter(dir, 41, System.err)) {
            tb.addScalar("loss/train", 1.0, 41);
        }
        List<ProtoReader> events = EventFiles.read(EventFiles.only(dir));
        assertEquals(Summaries.FILE_VERSION, events.get(0).string(3));
        assertEquals(41, events.get(1).varint(2, 0));
        assertEquals(1, events.get(1).message(7).varint(1, 0), "SessionLog.START");
        assertEquals(41, events.get(2).varint(2, 0));
    }

    @Test
    void aWriterThatLogsNothingLeavesNoFile() throws Exception {
        Path log = dir.resolve("tb");
        try (SummaryWriter tb = new SummaryWriter(log, 3, System.err)) {
            tb.flush();
        }
        assertFalse(Files.exists(log), "a run refused before its first step leaves no event file");
    }

    @Test
    void aFailedWriteStopsTheLoggingWithOneLineNeverTheCaller() throws Exception {
        Path notAFolder = dir.resolve("file");
        Files.writeString(notAFolder, "keep me");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (SummaryWriter tb = new SummaryWriter(notAFolder.resolve("tb"), -1, new PrintStream(err, true, StandardCharsets.UTF_8))) {
            for (int i = 0; i < 100; i++) {
                tb.addScalar("loss", i, i);
                tb.addHistogram("w", new float[] {i}, i);
            }
            tb.flush();
            assertTrue(tb.failed());
        }
        String lines = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, lines.lines().count(), lines);
        assertTrue(lines.contains("TensorBoard logging stopped") && lines.contains(notAFolder.toString()), lines);
        assertEquals("keep me", Files.readString(notAFolder));
    }

    @Test
    void flushMakesEverythingReadableWhileTheWriterStaysOpen() throws Exception {
        try (SummaryWriter tb = new SummaryWriter(dir)) {
            for (int i = 1; i <= 500; i++) {
                tb.addScalar("x", i, i);
            }
            tb.flush();
            assertEquals(501, EventFiles.read(EventFiles.only(dir)).size());
            assertFalse(tb.failed());
            assertEquals(0, tb.dropped());
        }
    }

    @Test
    void tagsAndFoldersAreChecked() throws Exception {
        Path log = dir.resolve("log");
        try (SummaryWriter tb = new SummaryWriter(log)) {
            assertThrows(IllegalArgumentException.class, () -> tb.addScalar("", 1, 0));
            tb.addScalars("../up", Map.of("x", 1), 0);
            tb.addHparams(Map.of("a", 1), Map.of("m", 1), "..");
        }
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of("log"), s.map(p -> p.getFileName().toString()).toList(), "nothing written outside the log folder");
        }
        assertTrue(Files.isDirectory(log.resolve(".._up_x")));
        assertTrue(Files.isDirectory(log.resolve("_..")));
    }

    @Test
    void valuesAreCopiedWhenAdded() throws Exception {
        float[] w = {1f, 1.25f};
        try (SummaryWriter tb = new SummaryWriter(dir)) {
            tb.addHistogram("w", w, 0);
            w[0] = 1e6f;
        }
        ProtoReader histo = value(EventFiles.read(EventFiles.only(dir)).get(1)).message(5);
        assertArrayEquals(new double[] {1.0, 1.25}, new double[] {histo.float64(1, 0), histo.float64(2, 0)});
    }
}
