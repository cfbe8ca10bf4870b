package dev.jgrad.examples.train;

import dev.jgrad.train.RunConfig;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code --resume RUN} continues a run with the options it was started with, read from the folder's config.json: an
 * option not given on the command line takes the run's value; one given with the run's value is accepted; one given with
 * another value is refused, naming both, unless it is one a run may change as it goes on ({@link #MAY_CHANGE}).
 */
final class ResumeOptions {
    /**
     * What may change when a run continues: its length (to extend it, or end it early), how often it logs and checkpoints,
     * and whether it goes on through NaN. None of these changes the numbers of the steps already taken.
     */
    static final Set<String> MAY_CHANGE = Set.of("--epochs", "--max-iters", "--log-every", "--save-every", "--allow-nan",
            "--no-tensorboard", "--histogram-every", "--early-stop");

    private ResumeOptions() {
    }

    /**
     * Fills {@code command}'s option fields from the run folder's config.json when the command continues that run
     * ({@code --resume RUN} without another {@code --out}); does nothing for a new run, or a folder without one.
     */
    static void apply(Object command, CommandSpec spec, TrainOptions options, Set<String> notTaken) {
        Path run = options.resume;
        if (run == null || !Files.isDirectory(run) || (options.out != null && !same(options.out, run))) {
            return;
        }
        Optional<RunConfig> kept;
        try {
            kept = RunConfig.read(run);
        } catch (RuntimeException e) {
            throw new ParameterException(spec.commandLine(), "--resume: " + e.getMessage());
        }
        if (kept.isEmpty()) {
            return;
        }
        String trainer = spec.name();
        if (!kept.get().trainer().equals(trainer) && !kept.get().trainer().startsWith(trainer + "-")) {
            throw new ParameterException(spec.commandLine(), "--resume: " + run + " holds a run of " + kept.get().trainer()
                    + ", not of " + trainer + ": resume it with ./jgrad train " + kept.get().trainer().replaceFirst("-.*", "")
                    + " --resume " + run);
        }
        Map<String, OptionValues.OptionField> fields = OptionValues.fields(command, notTaken);
        for (OptionValues.OptionField f : fields.values()) {
            String text = kept.get().text(f.name());
            if (text == null) {
                continue;
            }
            Object value;
            try {
                value = OptionValues.convert(text, f.field().getType());
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--resume: " + run.resolve(RunConfig.FILE) + " gives " + f.name() + " "
                        + e.getMessage());
            }
            boolean given = spec.commandLine().getParseResult() != null && spec.commandLine().getParseResult().hasMatchedOption(f.name());
            if (!given) {
                f.set(value);
            } else if (!OptionValues.same(f.get(), value) && !MAY_CHANGE.contains(f.name())) {
                throw new ParameterException(spec.commandLine(), f.name() + " " + OptionValues.show(f.get()) + " differs from "
                        + OptionValues.show(value) + ", which " + run + " was started with (its " + RunConfig.FILE + "): a run goes on"
                        + " with its own options, but for " + String.join(", ", new java.util.TreeSet<>(MAY_CHANGE))
                        + "; to train with another, start a new run from its weights with --out NEW_FOLDER");
            }
        }
    }

    private static boolean same(Path a, Path b) {
        return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }
}
