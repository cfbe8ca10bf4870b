package dev.jgrad.examples.sweep;

import dev.jgrad.examples.UserError;
import dev.jgrad.examples.cli.Main;
import dev.jgrad.nn.io.AtomicFile;
import dev.jgrad.nn.io.Json;
import dev.jgrad.train.RunStatus;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Many runs of one trainer: a grid of option values (or random draws from it), every run an ordinary run folder under
 * the sweep's folder, ranked by held-out loss when they are done.
 * <pre>{@code
 * Sweep.of("mlp").args(List.of("--epochs", "3")).grid(Grid.parse(List.of("lr=0.01,0.05", "batch-size=16,32")))
 *         .run(Path.of("sweeps/mlp"), new LocalEngine(2));
 * }</pre>
 * The sweep's folder keeps its definition (sweep.json): running the same sweep again keeps the finished runs, resumes
 * the interrupted ones from their checkpoints and starts the rest; a folder that holds another sweep, or anything
 * else, is refused before anything starts.
 */
public final class Sweep {
    /** The sweep's definition in its folder. */
    public static final String FILE = "sweep.json";
    /** Options the sweep sets itself for each run. */
    static final Set<String> OWN = Set.of("--out", "--resume", "--overwrite", "--threads", "--dashboard", "--dashboard-port");

    /** One run of the sweep: its folder's name, the values it takes and the trainer's arguments (without --out). */
    public record Run(String name, Map<String, String> values, List<String> args) {
    }

    private final String trainer;
    private Grid grid = new Grid();
    private int random;
    private long seed;
    private List<String> args = List.of();

    private Sweep(String trainer) {
        this.trainer = trainer;
    }

    /** A sweep of {@code trainer} ({@code mlp}, {@code gpt}, ...). */
    public static Sweep of(String trainer) {
        return new Sweep(trainer);
    }

    /** The options varied and their values. */
    public Sweep grid(Grid g) {
        this.grid = g;
        return this;
    }

    /** {@code n} random draws from the grid's values and ranges instead of every combination. */
    public Sweep random(int n, long drawSeed) {
        this.random = n;
        this.seed = drawSeed;
        return this;
    }

    /** The trainer's own options, the same for every run ({@code --epochs 3}). */
    public Sweep args(List<String> trainerArgs) {
        this.args = List.copyOf(trainerArgs);
        return this;
    }

    /** The runs, each checked as the trainer's command line would take it (so a bad value is refused before any starts). */
    public List<Run> runs() {
        CommandLine cli = Main.commandLine();
        CommandLine train = cli.getSubcommands().get("train");
        CommandLine sub = train.getSubcommands().get(trainer);
        if (sub == null) {
            throw new UserError("no trainer '" + trainer + "': sweep takes " + String.join(", ", train.getSubcommands().keySet()));
        }
        if (grid.axes().isEmpty()) {
            throw new UserError("an empty grid: give the options to vary, e.g. --grid lr=1e-3,3e-3");
        }
        for (String a : args) {
            if (OWN.contains(a.split("=", 2)[0])) {
                throw new UserError(a.split("=", 2)[0] + " is set by the sweep for each run; leave it out");
            }
        }
        for (String key : grid.axes().keySet()) {
            String option = "--" + key;
            if (OWN.contains(option)) {
                throw new UserError("--grid " + key + ": the sweep sets " + option + " itself");
            }
            if (sub.getCommandSpec().findOption(option) == null) {
                List<String> names = new ArrayList<>();
                for (CommandLine.Model.OptionSpec o : sub.getCommandSpec().options()) {
                    if (!o.usageHelp() && !o.versionHelp() && !OWN.contains(o.longestName())) {
                        names.add(o.longestName().replaceFirst("^--", ""));
                    }
                }
                throw new UserError("--grid " + key + ": '" + trainer + "' has no option " + option + " (its options: "
                        + String.join(", ", names) + ")");
            }
        }
        List<Map<String, String>> points = random > 0 ? grid.draws(random, seed) : grid.combinations();
        List<Run> out = new ArrayList<>();
        int width = Integer.toString(points.size()).length();
        for (int i = 0; i < points.size(); i++) {
            Map<String, String> p = points.get(i);
            List<String> a = new ArrayList<>(args);
            StringBuilder name = new StringBuilder(String.format("%0" + Math.max(2, width) + "d", i + 1));
            for (Map.Entry<String, String> e : p.entrySet()) {
                a.add("--" + e.getKey());
                a.add(e.getValue());
                name.append('_').append(e.getKey()).append('=').append(e.getValue().replaceAll("[^A-Za-z0-9.+-]", "-"));
            }
            List<String> full = new ArrayList<>(List.of("train", trainer));
            full.addAll(a);
            try {
                Main.commandLine().parseArgs(full.toArray(new String[0]));
            } catch (CommandLine.ParameterException e) {
                throw new UserError("run " + name + ": " + e.getMessage());
            }
            out.add(new Run(name.toString(), p, a));
        }
        return out;
    }

    /** Runs (or resumes) the sweep into {@code dir} on {@code engine} and ranks it. */
    public Ranking run(Path dir, Engine engine) {
        List<Run> runs = runs();
        engine.check();
        claim(dir);
        List<Engine.Job> jobs = new ArrayList<>();
        for (Run r : runs) {
            Path folder = dir.resolve(r.name());
            if (finished(folder)) {
                continue;
            }
            List<String> a = new ArrayList<>(List.of("train", trainer));
            if (Files.isRegularFile(folder.resolve("model.safetensors")) && Files.isRegularFile(folder.resolve("config.json"))) {
                a.addAll(List.of("--resume", folder.toString()));
            } else {
                a.addAll(r.args());
                a.addAll(List.of("--out", folder.toString()));
                if (Files.exists(folder)) {
                    a.add("--overwrite");
                }
            }
            jobs.add(new Engine.Job(r.name(), a, dir.resolve("logs").resolve(r.name() + ".log")));
        }
        Map<String, Integer> exits = engine.run(jobs);
        return Ranking.of(trainer, dir, runs, exits);
    }

    static boolean finished(Path folder) {
        return RunStatus.read(folder).map(s -> "finished".equals(s.get("state"))).orElse(false)
                && Files.isRegularFile(folder.resolve("summary.json"));
    }

    /** The sweep's definition as sweep.json holds it. */
    Map<String, Object> definition() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("trainer", trainer);
        m.put("grid", new LinkedHashMap<>(grid.axes()));
        m.put("random", random);
        m.put("seed", seed);
        m.put("args", args);
        return m;
    }

    /** Takes the folder for this sweep: a new or empty one, or one this same sweep started; anything else is refused. */
    void claim(Path dir) {
        Path file = dir.resolve(FILE);
        String mine = Json.writePretty(definition());
        try {
            if (Files.isRegularFile(file)) {
                String theirs = Files.readString(file);
                if (!Json.writePretty(Json.parse(theirs)).equals(mine)) {
                    throw new UserError(dir + " holds another sweep (" + file + " differs: " + oneLine(theirs)
                            + "); give another --out, or the same options to resume it");
                }
                return;
            }
            if (Files.exists(dir) && !Files.isDirectory(dir)) {
                throw new UserError(dir + " is a file, not a folder for the sweep");
            }
            if (Files.isDirectory(dir)) {
                try (var entries = Files.list(dir)) {
                    if (entries.findAny().isPresent()) {
                        throw new UserError(dir + " holds something else (no " + FILE + "): give an empty or new folder for the sweep");
                    }
                }
            }
            Files.createDirectories(dir.resolve("logs"));
            AtomicFile.writeString(file, mine + "\n");
        } catch (IOException e) {
            throw new UserError("cannot use " + dir + " for the sweep: " + AtomicFile.reason(e), e);
        } catch (IllegalArgumentException e) {
            throw new UserError(file + " is not a sweep's definition: " + e.getMessage());
        }
    }

    private static String oneLine(String s) {
        String t = s.replaceAll("\\s+", " ").trim();
        return t.length() > 160 ? t.substring(0, 157) + "..." : t;
    }

    /** The trainer swept. */
    public String trainer() {
        return trainer;
    }
}
