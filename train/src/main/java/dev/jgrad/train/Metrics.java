package dev.jgrad.train;

import dev.jgrad.nn.io.BoundedFiles;
import dev.jgrad.nn.io.DecimalText;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Consumer;
import java.util.Locale;
import java.util.Set;

/** The logged losses of a run: one row per logged step, written as {@code metrics.csv} with header {@code step,epoch,series,split,loss}. */
public final class Metrics {
    /** The first line of metrics.csv. */
    public static final String HEADER = "step,epoch,series,split,loss";
    private static final List<String> COLUMNS = List.of("step", "epoch", "series", "split", "loss");

    /** One logged loss. */
    public record Row(long step, int epoch, String series, String split, double loss) {
    }

    private final List<Row> rows = new ArrayList<>();
    /** Told of each row added from now on (a run's TensorBoard log); null: nobody. */
    private volatile Consumer<Row> listener;

    /** Logs one loss: the step, the period (epoch), the series, the split ("train", "train_step", "val", "test"). */
    public void add(long step, int epoch, String series, String split, double loss) {
        Row r = new Row(step, epoch, series, split, loss);
        synchronized (this) {
            rows.add(r);
        }
        Consumer<Row> l = listener;
        if (l != null) {
            l.accept(r);
        }
    }

    /** Tells {@code l} of every row added from now on. */
    void onAdd(Consumer<Row> l) {
        this.listener = l;
    }

    /** Every logged loss, in the order logged. */
    public synchronized List<Row> rows() {
        return Collections.unmodifiableList(new ArrayList<>(rows));
    }

    /** The (series, split) pairs in the order they first appear, as "series/split". */
    public synchronized Set<String> curves() {
        Set<String> s = new LinkedHashSet<>();
        for (Row r : rows) {
            s.add(r.series() + "/" + r.split());
        }
        return s;
    }

    /** The last loss logged for a series and split, or NaN. */
    public synchronized double last(String series, String split) {
        for (int i = rows.size() - 1; i >= 0; i--) {
            Row r = rows.get(i);
            if (r.series().equals(series) && r.split().equals(split)) {
                return r.loss();
            }
        }
        return Double.NaN;
    }

    /** How many rows of which curves, as a printed {@link Fit.Result} shows them: {@code Metrics[640 rows: model/step, model/train]}. */
    @Override
    public synchronized String toString() {
        return "Metrics[" + rows.size() + " rows: " + String.join(", ", curves()) + "]";
    }

    /** The losses as metrics.csv's text. */
    public synchronized String toCsv() {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        for (Row r : rows) {
            sb.append(r.step()).append(',').append(r.epoch()).append(',').append(r.series()).append(',').append(r.split())
                    .append(',').append(format(r.loss())).append('\n');
        }
        return sb.toString();
    }

    private static String format(double loss) {
        return String.format(Locale.ROOT, "%.8g", loss);
    }

    /** {@code loss} as metrics.csv records it (8 significant digits), the value a resumed run reads back. */
    static double asLogged(double loss) {
        return Double.isFinite(loss) ? Double.parseDouble(format(loss)) : loss;
    }

    /** The largest metrics file read. */
    static final long MAX_BYTES = 256L << 20;

    /** A loss as written by jgrad, Java, NumPy or pandas: a decimal number, or nan, inf, -inf, NaN, Infinity in any case. */
    static double number(String s) {
        return DecimalText.parseDouble(s);
    }

    /**
     * Reads a metrics file; the columns may come in any order, but all five must be there. Problems are
     * {@link IllegalArgumentException}s that name the file, the line and what is wrong.
     */
    public static Metrics read(Path path) throws IOException {
        List<String> lines;
        try {
            lines = BoundedFiles.readUtf8(path, MAX_BYTES, "metrics file").lines().collect(java.util.stream.Collectors.toList());
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("metrics file not found: " + path);
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException(path + " is empty; expected the header " + HEADER);
        }
        String[] header = lines.get(0).trim().split(",", -1);
        int[] at = new int[COLUMNS.size()];
        List<String> missing = new ArrayList<>();
        for (int c = 0; c < COLUMNS.size(); c++) {
            at[c] = List.of(header).indexOf(COLUMNS.get(c));
            if (at[c] < 0) {
                missing.add(COLUMNS.get(c));
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(path + " lacks the column(s) " + String.join(", ", missing)
                    + "; expected the header " + HEADER + ", found " + lines.get(0).trim());
        }
        Metrics m = new Metrics();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split(",", -1);
            if (f.length != header.length) {
                throw new IllegalArgumentException(path + " line " + (i + 1) + " has " + f.length + " fields, the header " + header.length);
            }
            try {
                m.add(Long.parseLong(f[at[0]].trim()), Integer.parseInt(f[at[1]].trim()), f[at[2]].trim(), f[at[3]].trim(),
                        number(f[at[4]].trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(path + " line " + (i + 1) + ": " + e.getMessage());
            }
        }
        return m;
    }
}
