package dev.jgrad.examples.sweep;

import dev.jgrad.nn.io.AtomicFile;
import dev.jgrad.nn.io.Json;
import dev.jgrad.train.LossChart;
import dev.jgrad.train.Metrics;
import dev.jgrad.train.RunConfig;
import dev.jgrad.train.RunSummary;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A sweep's runs ranked by their best held-out loss (the lowest on the held-out split of the run's last series: the
 * fixed model of regression, the GPT's val), written as sweep.csv, a chart of every run's held-out curve (sweep.png)
 * and the best run's options (best.json).
 */
public final class Ranking {
    /** One run's place: its state, best held-out loss and step, last training loss, time, and the error of a failed run. */
    public record Entry(String run, Map<String, String> values, String state, double bestLoss, long bestStep, double trainLoss,
                        double seconds, String error) {
    }

    private final List<Entry> entries;
    private final Path dir;

    private Ranking(List<Entry> entries, Path dir) {
        this.entries = entries;
        this.dir = dir;
    }

    /** The entries, best first; runs with no held-out loss (failed, not run) last. */
    public List<Entry> entries() {
        return entries;
    }

    /** The best run, or null where none has a held-out loss. */
    public Entry best() {
        return entries.isEmpty() || Double.isNaN(entries.get(0).bestLoss()) ? null : entries.get(0);
    }

    /** Ranks the runs of the sweep in {@code dir} and writes sweep.csv, sweep.png and best.json there. */
    static Ranking of(String trainer, Path dir, List<Sweep.Run> runs, Map<String, Integer> exits) {
        List<Entry> out = new ArrayList<>();
        Metrics curves = new Metrics();
        for (Sweep.Run r : runs) {
            Path folder = dir.resolve(r.name());
            Integer exit = exits.get(r.name());
            String state = Sweep.finished(folder) ? "finished" : exit == null ? (Files.exists(folder) ? "interrupted" : "not run")
                    : exit == 130 ? "interrupted" : "failed";
            double best = Double.NaN;
            long bestStep = -1;
            double train = Double.NaN;
            try {
                Path csv = folder.resolve("metrics.csv");
                if (Files.isRegularFile(csv)) {
                    Metrics m = Metrics.read(csv);
                    String series = null;
                    for (Metrics.Row row : m.rows()) {
                        series = row.series();
                    }
                    for (Metrics.Row row : m.rows()) {
                        if (!row.series().equals(series)) {
                            continue;
                        }
                        if (row.split().equals("train")) {
                            train = row.loss();
                        } else if (!row.split().equals(LossChart.STEP_SPLIT) && Double.isFinite(row.loss())) {
                            curves.add(row.step(), row.epoch(), r.name(), "held-out", row.loss());
                            if (Double.isNaN(best) || row.loss() < best) {
                                best = row.loss();
                                bestStep = row.step();
                            }
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                state = "failed";
            }
            out.add(new Entry(r.name(), r.values(), state, best, bestStep, train, seconds(folder),
                    state.equals("failed") ? error(dir.resolve("logs").resolve(r.name() + ".log")) : ""));
        }
        out.sort(Comparator.comparingDouble((Entry e) -> Double.isNaN(e.bestLoss()) ? Double.POSITIVE_INFINITY : e.bestLoss()));
        Ranking ranking = new Ranking(out, dir);
        ranking.write(trainer, curves, runs);
        return ranking;
    }

    private static double seconds(Path folder) {
        return RunSummary.seconds(folder).orElse(Double.NaN);
    }

    /** The run's error: the last "jgrad: error:" line of its log, else its last line that is not blank. */
    private static String error(Path log) {
        try {
            String error = null;
            String last = "";
            for (String l : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                if (l.startsWith("jgrad: error:")) {
                    error = l;
                }
                if (!l.isBlank()) {
                    last = l;
                }
            }
            return (error != null ? error : last).strip();
        } catch (IOException e) {
            return "no log (" + log + ")";
        }
    }

    private void write(String trainer, Metrics curves, List<Sweep.Run> runs) {
        List<String> keys = runs.isEmpty() ? List.of() : new ArrayList<>(runs.get(0).values().keySet());
        StringBuilder csv = new StringBuilder("rank,run");
        keys.forEach(k -> csv.append(',').append(k));
        csv.append(",state,best_heldout_loss,best_step,train_loss,seconds,error\n");
        int rank = 1;
        for (Entry e : entries) {
            csv.append(rank++).append(',').append(e.run());
            for (String k : keys) {
                csv.append(',').append(e.values().get(k));
            }
            csv.append(',').append(e.state()).append(',').append(num(e.bestLoss())).append(',').append(e.bestStep() < 0 ? "" : e.bestStep())
                    .append(',').append(num(e.trainLoss())).append(',').append(num(e.seconds())).append(',').append(quote(e.error())).append('\n');
        }
        try {
            AtomicFile.writeString(dir.resolve("sweep.csv"), csv.toString());
            if (!curves.rows().isEmpty()) {
                LossChart.write(curves, "sweep of " + trainer + ": held-out loss of every run", entries.size() + " runs in " + dir, dir.resolve("sweep.png"));
            }
            Entry best = best();
            if (best != null) {
                Map<String, Object> b = new LinkedHashMap<>();
                b.put("run", best.run());
                b.put("values", best.values());
                b.put("best_heldout_loss", best.bestLoss());
                b.put("best_step", best.bestStep());
                RunConfig.read(dir.resolve(best.run())).ifPresent(c -> {
                    b.put("options", c.options());
                    b.put("command", command(trainer, c));
                });
                AtomicFile.writeString(dir.resolve("best.json"), Json.writePretty(b) + "\n");
            }
        } catch (IOException e) {
            throw new dev.jgrad.examples.UserError("cannot write the sweep's ranking in " + dir + ": " + AtomicFile.reason(e), e);
        }
    }

    /** The command that trains the best run's options alone. */
    static String command(String trainer, RunConfig c) {
        StringBuilder s = new StringBuilder("./jgrad train " + trainer);
        for (Map.Entry<String, Object> o : c.options().entrySet()) {
            if (o.getValue() instanceof Boolean flag) {
                if (flag) {
                    s.append(' ').append(o.getKey());
                }
            } else {
                s.append(' ').append(o.getKey()).append(' ').append(o.getValue());
            }
        }
        return s.toString();
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.6g", v);
    }

    private static String quote(String s) {
        return s.isEmpty() ? "" : "\"" + s.replace("\"", "\"\"") + "\"";
    }

    /** The folder ranked. */
    public Path dir() {
        return dir;
    }
}
