package dev.jgrad.examples.cli;

import dev.jgrad.examples.SparkModule;
import dev.jgrad.examples.sweep.Engine;
import dev.jgrad.examples.sweep.Grid;
import dev.jgrad.examples.sweep.LocalEngine;
import dev.jgrad.examples.sweep.Ranking;
import dev.jgrad.examples.sweep.Sweep;
import dev.jgrad.train.Interrupt;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code jgrad sweep TRAINER --grid KEY=V1,V2 ... --out DIR}: many runs of a trainer, ranked by held-out loss. */
@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Train TRAINER once for every combination of the --grid values (or --random N draws from them), each run an "
            + "ordinary run folder under --out, --parallel K at a time in child processes with their share of the cores; then rank the runs "
            + "by their best held-out loss: sweep.csv, sweep.png (every run's held-out curve) and best.json (the best run's options and the "
            + "command that trains them). The trainer's own options on the same line hold for every run. Running the same sweep again keeps "
            + "the finished runs and resumes the interrupted ones.",
            "With --engine spark (or --master URL) each run is a Spark task (spark.task.cpus threads each) writing to SWEEP_DIR, a folder "
                + "every executor reaches or a Hadoop path (hdfs://, s3a://, file://); ./jgrad builds the Spark module on first use. Without "
                + "--master, Spark runs local[K].",
            "Example: ./jgrad sweep mlp --epochs 3 --grid lr=0.01,0.05 --grid batch-size=16,32 --parallel 2 --out sweeps/mlp"})
public final class SweepCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "TRAINER", description = "regression, attention, mlp, fashion, pinn or gpt")
    String trainer;
    @Option(names = "--grid", paramLabel = "OPTION=V1,V2", required = true,
            description = "an option of the trainer (without its dashes) and its values; LO:HI with --random draws from a range "
                + "(log-uniform for decimals); repeat for more options")
    List<String> grid = new ArrayList<>();
    @Option(names = "--random", paramLabel = "N", description = "N random draws from the grid instead of every combination")
    Integer random;
    @Option(names = "--seed", paramLabel = "S", defaultValue = "0", description = "the draws' seed with --random (default: ${DEFAULT-VALUE}); "
            + "to vary the trainer's seed, --grid seed=0,1,2")
    long seed;
    @Option(names = "--parallel", paramLabel = "K", defaultValue = "1", description = "runs at once (default: ${DEFAULT-VALUE})")
    int parallel;
    @Option(names = "--engine", paramLabel = "local|spark", description = "where the runs run: child processes of this machine (local, "
            + "the default) or Spark tasks (spark, on --master)")
    String engine;
    @Option(names = "--master", paramLabel = "URL", description = "the Spark master (local[2], spark://host:7077); implies --engine spark")
    String master;
    @Option(names = "--out", paramLabel = "SWEEP_DIR", required = true, description = "the sweep's folder: new, empty, or this sweep's own;"
            + " with Spark also a Hadoop path (hdfs://, s3a://, file://) where the runs are kept")
    String out;
    @Unmatched
    List<String> trainerArgs = new ArrayList<>();

    private String in(String name) {
        return out.endsWith("/") ? out + name : out + "/" + name;
    }

    /** A sweep kept on a Hadoop path: Spark's engine only (jgrad-spark's RemoteSweep). */
    private Ranking remote(Sweep sweep) {
        if ("local".equals(engine) || master == null && engine == null) {
            throw new ParameterException(spec.commandLine(), "--out " + out + " is a Hadoop path: it needs the Spark engine (--master URL)");
        }
        String url = master == null ? "local[" + parallel + "]" : master;
        return (Ranking) SparkModule.call("RemoteSweep", "run", new Class<?>[] {Sweep.class, String.class, String.class}, sweep, out, url);
    }

    /** The engine asked for: the local one, or Spark's from the jgrad-spark module (built by ./jgrad when asked for). */
    private Engine engine() {
        String e = engine == null ? (master != null ? "spark" : "local") : engine;
        if (e.equals("local")) {
            if (master != null) {
                throw new ParameterException(spec.commandLine(), "--master is for --engine spark; the local engine runs on this machine");
            }
            return new LocalEngine(parallel);
        }
        if (!e.equals("spark")) {
            throw new ParameterException(spec.commandLine(), "--engine must be local or spark, got " + e);
        }
        String url = master == null ? "local[" + parallel + "]" : master;
        return (Engine) SparkModule.construct("SparkEngine", new Class<?>[] {String.class}, url);
    }

    @Override
    public Integer call() {
        if (parallel < 1 || parallel > 256) {
            throw new ParameterException(spec.commandLine(), "--parallel must be from 1 to 256, got " + parallel);
        }
        if (random != null && random < 1) {
            throw new ParameterException(spec.commandLine(), "--random must be at least 1, got " + random);
        }
        Sweep sweep = Sweep.of(trainer).grid(Grid.parse(grid)).args(trainerArgs);
        if (random != null) {
            sweep.random(random, seed);
        }
        boolean hadoop = out.matches("[a-zA-Z][a-zA-Z0-9+.-]*://.*");
        Engine chosen = hadoop ? null : engine();
        Ranking r = hadoop ? remote(sweep) : sweep.run(Path.of(out), chosen);
        System.out.println();
        System.out.println("rank  held-out  step  run");
        int rank = 1;
        long failed = 0;
        for (Ranking.Entry e : r.entries()) {
            System.out.printf(Locale.ROOT, "%4d  %8s  %4s  %s%s%n", rank++, Double.isNaN(e.bestLoss()) ? "-" : String.format(Locale.ROOT, "%.4f", e.bestLoss()),
                    e.bestStep() < 0 ? "-" : Long.toString(e.bestStep()), e.run(), e.state().equals("finished") ? "" : "  (" + e.state()
                            + (e.error().isEmpty() ? "" : ": " + e.error()) + ")");
            failed += e.state().equals("failed") ? 1 : 0;
        }
        System.out.println("Wrote " + in("sweep.csv") + ", " + in("sweep.png") + (r.best() != null ? ", " + in("best.json") + " (best: "
                + r.best().run() + ")" : ""));
        if (Interrupt.requested()) {
            System.err.println("jgrad: sweep interrupted; run the same command again to resume it");
            return 130;
        }
        if (failed > 0) {
            System.err.println("jgrad: " + failed + " run(s) of the sweep failed; their errors are in sweep.csv and " + in("logs"));
            return 1;
        }
        return 0;
    }
}
