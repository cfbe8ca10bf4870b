package dev.jgrad.examples.train;

import dev.jgrad.tensor.Backend;
import dev.jgrad.train.Fit;
import dev.jgrad.train.RunConfig;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.nio.file.Path;

/**
 * The flags the trainers share. Absent values fall back to the trainer's own defaults, which it writes back here as it
 * reads them ({@link #epochs(int)}), so that the run's config.json holds the values it ran with.
 */
public final class TrainOptions {
    @Option(names = "--out", paramLabel = "DIR", description = "where the run's files go (default: a new folder under runs/)")
    Path out;

    @Option(names = "--epochs", paramLabel = "N", description = "passes over the training data")
    Integer epochs;

    @Option(names = "--batch-size", paramLabel = "N", description = "samples per step")
    Integer batchSize;

    @Option(names = "--lr", paramLabel = "RATE", description = "learning rate")
    Double lr;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "0", description = "seed for data, initialisation and shuffling (default: ${DEFAULT-VALUE}); the same seed gives the same numbers")
    long seed;

    @Option(names = "--threads", paramLabel = "N", description = "threads for the kernels (default: all cores)")
    Integer threads;

    @Option(names = "--allow-nan", description = "go on when the loss turns NaN or infinite (default: stop, exit 2, save nothing)")
    boolean allowNan;

    @Option(names = "--log-every", paramLabel = "N", defaultValue = "10",
            description = "also log the training loss every N steps (the mean of those steps; split 'train_step' in metrics.csv), 0 for per epoch only (default: ${DEFAULT-VALUE})")
    int logEvery = 10;

    @Option(names = "--save-every", paramLabel = "N", defaultValue = "0",
            description = "also checkpoint every N steps, 0 for after epochs only (default: ${DEFAULT-VALUE})")
    int saveEvery;

    @Option(names = "--early-stop", paramLabel = "N",
            description = "end the run once the held-out loss has not improved for N epochs (rounds for gpt) in a row (default: never)")
    Integer earlyStop;

    @Option(names = "--no-tensorboard", description = "write no TensorBoard event files (default: the run's tb/ folder holds them)")
    boolean noTensorboard;

    @Option(names = "--histogram-every", paramLabel = "N", defaultValue = "100",
            description = "histograms of the weights and gradients in TensorBoard every N steps, 0 for none (default: ${DEFAULT-VALUE})")
    int histogramEvery = 100;

    @Option(names = "--dashboard", description = "serve the live page of the runs beside this one (./jgrad dashboard) while it trains, and print its address")
    boolean dashboard;

    @Option(names = "--dashboard-port", paramLabel = "N", defaultValue = "6006",
            description = "the page's port with --dashboard (default: ${DEFAULT-VALUE}; another free one if it is taken)")
    int dashboardPort = 6006;

    @Option(names = "--data-parallel", paramLabel = "N", description = "train as N data-parallel workers, N processes here: each computes "
            + "1/N of every batch and the gradients are averaged every step, so the run's numbers are one process's to float rounding; "
            + "N must divide the batch size (default: 1)")
    Integer dataParallel;

    @Option(names = "--master", paramLabel = "URL", description = "with --data-parallel: the N workers are the tasks of a Spark barrier stage"
            + " on this master (local[2], spark://host:7077) instead of processes here; needs --out (or --resume), a folder every executor"
            + " reaches")
    String master;

    /** A data-parallel worker: RANK:N:RENDEZVOUS_FOLDER (started by worker 0 here), or RANK:N:@HOST:PORT,... (by a Spark task). */
    @Option(names = "--worker", hidden = true, paramLabel = "RANK:N:DIR")
    String worker;

    /** The ring this run averages its gradients with, when it is one of several data-parallel workers. */
    dev.jgrad.train.parallel.RingAllReduce ring;

    @Option(names = "--overwrite", description = "replace the run already in --out (default: refuse, so that a good run is never replaced by accident)")
    boolean overwrite;

    @Option(names = "--resume", paramLabel = "RUN|CHECKPOINT", description = "continue a run folder where it stopped (epochs, data order, curves; in"
            + " that folder unless --out), or start from a saved model.safetensors (and the optimizer.safetensors beside it)")
    Path resume;

    /** Refuses values no run can use, as a usage error (exit code 2). */
    void validate(CommandSpec spec) {
        if (out != null && out.toString().isBlank()) {
            throw new ParameterException(spec.commandLine(), "--out must name a folder, got an empty path");
        }
        if (epochs != null && epochs < 0) {
            throw new ParameterException(spec.commandLine(), "--epochs must be 0 or more, got " + epochs);
        }
        if (epochs != null && epochs == 0 && resume == null) {
            throw new ParameterException(spec.commandLine(), "--epochs 0 trains nothing; pair it with --resume CHECKPOINT to evaluate a saved model");
        }
        if (saveEvery < 0) {
            throw new ParameterException(spec.commandLine(), "--save-every must be 0 or more, got " + saveEvery);
        }
        if (dashboardPort < 0 || dashboardPort > 65535) {
            throw new ParameterException(spec.commandLine(), "--dashboard-port must be from 0 to 65535, got " + dashboardPort);
        }
        if (histogramEvery < 0) {
            throw new ParameterException(spec.commandLine(), "--histogram-every must be 0 or more, got " + histogramEvery);
        }
        if (logEvery < 0) {
            throw new ParameterException(spec.commandLine(), "--log-every must be 0 or more, got " + logEvery);
        }
        if (earlyStop != null && earlyStop < 1) {
            throw new ParameterException(spec.commandLine(), "--early-stop must be at least 1, got " + earlyStop);
        }
        if (batchSize != null && batchSize < 1) {
            throw new ParameterException(spec.commandLine(), "--batch-size must be at least 1, got " + batchSize);
        }
        if (lr != null && !(lr > 0 && Double.isFinite(lr))) {
            throw new ParameterException(spec.commandLine(), "--lr must be a positive number, got " + lr);
        }
        if (dataParallel != null && (dataParallel < 1 || dataParallel > 64)) {
            throw new ParameterException(spec.commandLine(), "--data-parallel must be from 1 to 64, got " + dataParallel);
        }
        if (master != null && dataParallel == null) {
            throw new ParameterException(spec.commandLine(), "--master runs data-parallel workers on Spark: give --data-parallel N too");
        }
        if (master != null && out == null && resume == null) {
            throw new ParameterException(spec.commandLine(), "--master needs --out (or --resume): the run folder, on a path every Spark"
                    + " executor reaches");
        }
        if (threads != null && (threads < 1 || threads > Backend.maxThreads())) {
            throw new ParameterException(spec.commandLine(), "--threads must be from 1 to " + Backend.maxThreads()
                    + " (4 per available processor), got " + threads);
        }
    }

    /** The epochs, the trainer's default where none was given (kept as the value the run runs with). */
    int epochs(int dflt) {
        if (epochs == null) {
            epochs = dflt;
        }
        return epochs;
    }

    int batchSize(int dflt) {
        if (batchSize == null) {
            batchSize = dflt;
        }
        return batchSize;
    }

    double lr(double dflt) {
        if (lr == null) {
            lr = dflt;
        }
        return lr;
    }

    /** The trainer's command whose options (its own and these) a run keeps; null for a run started from code. */
    Object command;
    /** Options of these that the trainer does not take (the GPT counts iterations, not epochs). */
    java.util.Set<String> notTaken = java.util.Set.of();

    /** The options this run keeps in its config.json: the command's, with the trainer's defaults filled in. */
    RunConfig config(String trainer) {
        return RunConfig.of(trainer, OptionValues.values(OptionValues.fields(command != null ? command : this, notTaken)));
    }

    /** {@code fit} with the run's name, its folder, resume, seed, logging and checkpoint settings and options from these flags. */
    Fit applyTo(Fit fit, String trainer) {
        fit.name(trainer).seed(seed).logEvery(logEvery).saveEvery(saveEvery).config(config(trainer))
                .tensorboard(!noTensorboard).histogramEvery(histogramEvery);
        if (out != null) {
            fit.out(out);
        }
        if (resume != null) {
            fit.resume(resume);
        }
        if (overwrite) {
            fit.overwrite();
        }
        if (allowNan) {
            fit.allowNan();
        }
        if (earlyStop != null) {
            fit.earlyStop(earlyStop, 0);
        }
        if (ring != null) {
            fit.dataParallel(ring);
        }
        return fit;
    }

    public long seed() {
        return seed;
    }

    public boolean allowNan() {
        return allowNan;
    }

    /** The run folder or model file to resume from, as given. */
    public Path resume() {
        return resume;
    }

    /** Where the run goes, as given (null: a new folder under runs/, or the folder it resumes). */
    Path out() {
        return out;
    }

    public boolean overwrite() {
        return overwrite;
    }

    /** The folder of runs this run goes into: --out's parent, the resumed run's, or runs/. */
    Path runsFolder() {
        Path dir = out != null ? out : resume != null ? resume : null;
        Path parent = dir == null ? null : dir.toAbsolutePath().normalize().getParent();
        return parent != null ? parent : Path.of("runs");
    }

    /** Options for tests and programs: {@code TrainOptions.of(out, epochs, seed)}. */
    public static TrainOptions of(Path out, Integer epochs, long seed) {
        TrainOptions o = new TrainOptions();
        o.out = out;
        o.epochs = epochs;
        o.seed = seed;
        return o;
    }
}
