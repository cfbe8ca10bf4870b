package dev.jgrad.train.dashboard;

import dev.jgrad.nn.io.Json;
import dev.jgrad.train.Metrics;
import dev.jgrad.train.RunConfig;
import dev.jgrad.train.RunStatus;
import dev.jgrad.train.tensorboard.EventReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The runs of a folder, as the dashboard shows them: each subfolder that holds a run's files (config.json, metrics.csv,
 * tb/, status.json), with its trainer, its state, its best held-out loss and its time, and on demand its curves, texts
 * and options. A run is only ever found by its name in the listing, and only folders whose real path lies inside the runs
 * folder are listed, so no request reaches a file outside it ({@code ..}, absolute paths, symbolic links out).
 */
final class RunsFolder {
    /** The file names the dashboard serves from a run folder: its charts. */
    private static final Pattern SERVED_FILE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,100}\\.png");
    /** The most runs listed, newest first. */
    static final int MAX_RUNS = 500;
    /** The most points of one curve sent to the page (evenly thinned beyond, the last one always kept). */
    static final int MAX_POINTS = 5000;

    private final Path root;
    private final Path realRoot;
    /** Each run's read curves with the signature of the files they came from: unchanged files are not read again. */
    private final Map<Path, Cached> cache = new ConcurrentHashMap<>();

    private record Cached(String signature, Map<String, Object> data) {
    }

    RunsFolder(Path root) throws IOException {
        this.root = root;
        this.realRoot = root.toRealPath();
    }

    Path root() {
        return root;
    }

    /** The run folders, newest first: those whose real path is inside the runs folder and that hold a run's files. */
    List<Path> runs() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> children = Files.list(root)) {
            for (Path p : (Iterable<Path>) children::iterator) {
                if (isRun(p)) {
                    out.add(p);
                }
            }
        }
        out.sort(Comparator.comparingLong(RunsFolder::modified).reversed().thenComparing(p -> p.getFileName().toString()));
        return out.size() > MAX_RUNS ? out.subList(0, MAX_RUNS) : out;
    }

    private boolean isRun(Path p) {
        try {
            if (!Files.isDirectory(p) || p.getFileName().toString().startsWith(".") || !p.toRealPath().startsWith(realRoot)
                    || p.toRealPath().equals(realRoot)) {
                return false;
            }
        } catch (IOException e) {
            return false;
        }
        for (String f : List.of(RunConfig.FILE, "metrics.csv", RunStatus.FILE, "summary.json", "tb")) {
            if (Files.exists(p.resolve(f))) {
                return true;
            }
        }
        return false;
    }

    /** The run of this name, if the listing holds it. */
    Optional<Path> run(String name) throws IOException {
        if (name == null) {
            return Optional.empty();
        }
        return runs().stream().filter(p -> p.getFileName().toString().equals(name)).findFirst();
    }

    /** A chart of a listed run: a plain PNG name, a regular file (not a link) directly in the run's folder. */
    Optional<Path> file(String run, String name) throws IOException {
        if (name == null || !SERVED_FILE.matcher(name).matches()) {
            return Optional.empty();
        }
        Optional<Path> dir = run(run);
        if (dir.isEmpty()) {
            return Optional.empty();
        }
        Path f = dir.get().resolve(name);
        if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) || !f.toRealPath().startsWith(dir.get().toRealPath())) {
            return Optional.empty();
        }
        return Optional.of(f);
    }

    private static long modified(Path p) {
        long t = 0;
        for (String f : List.of("", RunStatus.FILE, "metrics.csv", "summary.json")) {
            try {
                t = Math.max(t, Files.getLastModifiedTime(f.isEmpty() ? p : p.resolve(f)).toMillis());
            } catch (IOException e) {
                // Not there: the folder's own time stands.
            }
        }
        return t;
    }

    /** One line of the run list: name, trainer, state, best held-out loss, times; or the error that kept it from being read. */
    Map<String, Object> summary(Path run) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", run.getFileName().toString());
        try {
            m.put("trainer", RunConfig.read(run).map(RunConfig::trainer).orElse(null));
            Map<String, Object> status = RunStatus.read(run).orElse(Map.of());
            Map<String, Object> summary = readJson(run.resolve("summary.json"));
            m.put("state", state(status, summary));
            if (status.get("step") instanceof Number step) {
                m.put("step", step);
                m.put("total_steps", status.get("total_steps"));
            }
            Object started = status.get("started");
            Object updated = status.get("updated");
            if (started instanceof Number s && updated instanceof Number u) {
                long end = "running".equals(m.get("state")) ? System.currentTimeMillis() : u.longValue();
                m.put("seconds", Math.max(0, (end - s.longValue()) / 1000.0));
            } else if (summary.get("seconds") instanceof Number s) {
                m.put("seconds", s);
            }
            m.put("modified", modified(run));
            Map<String, Object> data = data(run);
            m.putAll(best(data));
        } catch (IOException | RuntimeException e) {
            m.put("error", message(run, e));
        }
        return m;
    }

    /** The state: status.json's (a "running" one whose process is gone was killed), else summary.json's. */
    static String state(Map<String, Object> status, Map<String, Object> summary) {
        Object s = status.get("state");
        if ("running".equals(s)) {
            boolean alive = status.get("pid") instanceof Number pid && ProcessHandle.of(pid.longValue()).map(ProcessHandle::isAlive).orElse(false);
            return alive ? "running" : "interrupted";
        }
        if (s instanceof String state) {
            return state;
        }
        if (summary.get("interrupted") instanceof Boolean b) {
            return b ? "interrupted" : "finished";
        }
        return "unknown";
    }

    /** The lowest held-out loss and its step, from the curves (loss/val or loss/test, or the first series' where there are several). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> best(Map<String, Object> data) {
        Map<String, Object> m = new LinkedHashMap<>();
        Map<String, List<double[]>> scalars = (Map<String, List<double[]>>) data.get("scalars");
        for (String tag : scalars.keySet()) {
            if (tag.startsWith("loss/") && (tag.endsWith("/val") || tag.endsWith("/test"))) {
                double best = Double.POSITIVE_INFINITY;
                double step = -1;
                for (double[] p : scalars.get(tag)) {
                    if (p[1] < best) {
                        best = p[1];
                        step = p[0];
                    }
                }
                if (step >= 0) {
                    m.put("best", best);
                    m.put("best_step", (long) step);
                    m.put("best_tag", tag);
                }
                break;
            }
        }
        return m;
    }

    /**
     * A run's curves ({@code scalars}: tag to [step, value] pairs, from tb/ or else metrics.csv), its latest texts
     * ({@code texts}: tag to [step, text], the last 5 of each), its options and its charts, read again only when its files
     * changed.
     */
    Map<String, Object> data(Path run) throws IOException {
        String signature = signature(run);
        Cached c = cache.get(run);
        if (c != null && c.signature().equals(signature)) {
            return c.data();
        }
        Map<String, Object> d = new LinkedHashMap<>();
        Map<String, List<double[]>> scalars = new LinkedHashMap<>();
        Map<String, List<Object[]>> texts = new LinkedHashMap<>();
        Path tb = run.resolve("tb");
        if (Files.isDirectory(tb)) {
            EventReader.Log log = EventReader.read(tb);
            log.scalars().forEach((tag, list) -> scalars.put(tag, thin(list.stream().map(s -> new double[] {s.step(), s.value()}).toList())));
            log.texts().forEach((tag, list) -> texts.put(tag, list.subList(Math.max(0, list.size() - 5), list.size()).stream()
                    .map(t -> new Object[] {t.step(), t.text()}).toList()));
        } else if (Files.exists(run.resolve("metrics.csv"))) {
            List<Metrics.Row> rows;
            try {
                rows = Metrics.read(run.resolve("metrics.csv")).rows();
            } catch (IllegalArgumentException e) {
                throw new IOException(run.resolve("metrics.csv") + ": " + e.getMessage(), e);
            }
            boolean one = rows.stream().map(Metrics.Row::series).distinct().count() <= 1;
            Map<String, List<double[]>> raw = new LinkedHashMap<>();
            for (Metrics.Row r : rows) {
                raw.computeIfAbsent(one ? "loss/" + r.split() : "loss/" + r.series() + "/" + r.split(), t -> new ArrayList<>())
                        .add(new double[] {r.step(), r.loss()});
            }
            raw.forEach((tag, list) -> scalars.put(tag, thin(list)));
        }
        d.put("scalars", scalars);
        d.put("texts", texts);
        d.put("options", RunConfig.read(run).map(RunConfig::options).orElse(Map.of()));
        List<String> charts = new ArrayList<>();
        try (Stream<Path> files = Files.list(run)) {
            files.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).map(p -> p.getFileName().toString())
                    .filter(n -> SERVED_FILE.matcher(n).matches()).sorted().forEach(charts::add);
        }
        d.put("charts", charts);
        cache.put(run, new Cached(signature, d));
        return d;
    }

    /** At most {@link #MAX_POINTS} points, evenly spaced, the last kept: a long run's curve stays cheap to send and draw. */
    static List<double[]> thin(List<double[]> points) {
        if (points.size() <= MAX_POINTS) {
            return points;
        }
        List<double[]> out = new ArrayList<>(MAX_POINTS);
        double stride = (points.size() - 1) / (double) (MAX_POINTS - 1);
        for (int i = 0; i < MAX_POINTS; i++) {
            out.add(points.get((int) Math.round(i * stride)));
        }
        return out;
    }

    /** The names, sizes and times of the files a run's data comes from. */
    private static String signature(Path run) throws IOException {
        StringBuilder sb = new StringBuilder();
        List<Path> files = new ArrayList<>(List.of(run.resolve("metrics.csv"), run.resolve(RunConfig.FILE)));
        Path tb = run.resolve("tb");
        if (Files.isDirectory(tb)) {
            try (Stream<Path> s = Files.list(tb)) {
                s.filter(EventReader::isEventFile).sorted().forEach(files::add);
            }
        }
        for (Path f : files) {
            try {
                BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
                sb.append(f.getFileName()).append(':').append(a.size()).append(':').append(a.lastModifiedTime().toMillis()).append(';');
            } catch (IOException e) {
                sb.append(f.getFileName()).append(":-;");
            }
        }
        return sb.toString();
    }

    private static Map<String, Object> readJson(Path f) {
        try {
            if (Files.isRegularFile(f) && Files.size(f) < 1 << 20 && Json.parse(Files.readString(f)) instanceof Map<?, ?> m) {
                @SuppressWarnings("unchecked")
                Map<String, Object> map = (Map<String, Object>) m;
                return map;
            }
        } catch (IOException | RuntimeException e) {
            // A summary that cannot be read says nothing about the state.
        }
        return Map.of();
    }

    /** An error for the page: what went wrong, with the run folder's name rather than the machine's paths. */
    static String message(Path run, Exception e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.replace(run.toAbsolutePath().toString(), run.getFileName().toString()).replace(run.toString(), run.getFileName().toString());
    }
}
