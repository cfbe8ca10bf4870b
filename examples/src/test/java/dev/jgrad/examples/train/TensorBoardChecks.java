package dev.jgrad.examples.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jgrad.nn.io.ProtoReader;
import dev.jgrad.train.Metrics;
import dev.jgrad.train.tensorboard.EventReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What a trainer's tb/ folder must hold, read back with {@link EventReader}. */
final class TensorBoardChecks {
    private TensorBoardChecks() {
    }

    /** The tag a metrics row is logged under. */
    static String tag(Metrics.Row r, boolean oneSeries) {
        return oneSeries ? "loss/" + r.split() : "loss/" + r.series() + "/" + r.split();
    }

    /**
     * Every row of the run's metrics.csv is a scalar of its tb/ at its step, once, and no loss scalar is not a row. The
     * values agree to metrics.csv's 8 significant digits (TensorBoard keeps the float32 of the loss itself).
     */
    static void assertMatchesMetrics(Path run) throws IOException {
        Map<String, List<float[]>> logged = new TreeMap<>();
        EventReader.scalars(run.resolve("tb")).forEach((tag, list) -> {
            if (tag.startsWith("loss/")) {
                logged.put(tag, list.stream().map(s -> new float[] {s.step(), s.value()}).toList());
            }
        });
        assertSameLosses(run, logged);
        Map<String, List<EventReader.Scalar>> all = EventReader.scalars(run.resolve("tb"));
        assertTrue(all.containsKey("lr") && all.containsKey("grad_norm") && all.containsKey("speed/steps_per_s"), all.keySet().toString());
    }

    /** {@code logged}, the loss scalars by tag as (step, value) pairs, are the rows of the run's metrics.csv. */
    static void assertSameLosses(Path run, Map<String, List<float[]>> logged) throws IOException {
        List<Metrics.Row> rows = Metrics.read(run.resolve("metrics.csv")).rows();
        boolean one = rows.stream().map(Metrics.Row::series).distinct().count() == 1;
        Map<String, List<Metrics.Row>> expected = new TreeMap<>();
        for (Metrics.Row r : rows) {
            expected.computeIfAbsent(tag(r, one), t -> new ArrayList<>()).add(r);
        }
        assertEquals(expected.keySet(), logged.keySet(), run + "/tb: the loss tags against metrics.csv");
        for (Map.Entry<String, List<Metrics.Row>> e : expected.entrySet()) {
            List<float[]> got = logged.get(e.getKey());
            assertEquals(e.getValue().stream().map(Metrics.Row::step).toList(), got.stream().map(p -> (long) p[0]).toList(),
                    run + "/tb: the steps of " + e.getKey());
            for (int i = 0; i < got.size(); i++) {
                double want = e.getValue().get(i).loss();
                assertEquals(want, got.get(i)[1], 2e-7 * Math.abs(want), run + "/tb: " + e.getKey() + " at step " + (long) got.get(i)[0]);
            }
        }
    }

    /** The steps at which each non-scalar summary (texts, images, histograms) was logged, by tag, from the run's tb/. */
    static Map<String, List<Long>> otherSummaries(Path run) throws IOException {
        Map<String, List<Long>> m = new TreeMap<>();
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(run.resolve("tb"))) {
            for (Path f : files.filter(EventReader::isEventFile).sorted().toList()) {
                for (ProtoReader e : EventReader.events(f)) {
                    for (Object v : e.message(5).all(1)) {
                        ProtoReader value = ProtoReader.parse((byte[]) v);
                        if (value.has(4) || value.has(5) || value.has(8)) {
                            m.computeIfAbsent(value.string(1), t -> new ArrayList<>()).add(e.varint(2, 0));
                        }
                    }
                }
            }
        }
        return m;
    }

    /**
     * Two runs of the same options (one stopped and resumed) show the same scalars at the same steps, bit for bit, but
     * for the speed, which is the machine's.
     */
    static void assertSameStream(Path whole, Path resumed) throws IOException {
        assertEquals(comparable(whole), comparable(resumed), "the resumed run's TensorBoard log against the uninterrupted one's");
    }

    private static Map<String, List<String>> comparable(Path run) throws IOException {
        Map<String, List<String>> m = new TreeMap<>();
        EventReader.scalars(run.resolve("tb")).forEach((tag, list) -> {
            if (!tag.startsWith("speed/")) {
                m.put(tag, list.stream().map(s -> s.step() + " " + Float.floatToRawIntBits(s.value())).toList());
            }
        });
        return m;
    }
}
