package dev.jgrad.examples.train;

import dev.jgrad.examples.SparkModule;
import picocli.CommandLine.Model.CommandSpec;

import java.util.List;

/**
 * {@code jgrad train ... --data-parallel N --master URL}: the N workers as the tasks of a Spark barrier stage, run by the
 * jgrad-spark module (found by name: the CLI does not depend on Spark; {@code ./jgrad} puts it on the class path when a
 * command asks for Spark). This process is the driver: it trains nothing itself, and returns the stage's exit code.
 */
final class SparkWorkers {
    private SparkWorkers() {
    }

    static int run(CommandSpec spec, TrainOptions o) {
        Object launcher = SparkModule.construct("SparkTraining", new Class<?>[0]);
        List<String> own = DataParallelWorkers.ownArgs(spec);
        String run = (o.out != null ? o.out : o.resume).toAbsolutePath().normalize().toString();
        return (Integer) SparkModule.call(launcher, "run", new Class<?>[] {String.class, int.class, String.class, List.class, String.class,
            boolean.class}, o.master, o.dataParallel, spec.name(), own, run, o.overwrite);
    }
}
