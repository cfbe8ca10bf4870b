package dev.jgrad.examples.train;

import dev.jgrad.examples.UserError;
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
        Object launcher;
        try {
            launcher = Class.forName("dev.jgrad.spark.SparkTraining").getConstructor().newInstance();
        } catch (ClassNotFoundException notBuilt) {
            throw new UserError("--master: the Spark module is not on the class path: run the command with ./jgrad, which builds the"
                    + " jgrad-spark module (mvn -Pspark package) and adds Spark's jars when a command asks for Spark");
        } catch (ReflectiveOperationException | LinkageError broken) {
            throw new UserError("--master: cannot load the Spark module: " + broken);
        }
        List<String> own = DataParallelWorkers.ownArgs(spec);
        String run = (o.out != null ? o.out : o.resume).toAbsolutePath().normalize().toString();
        try {
            return (Integer) launcher.getClass().getMethod("run", String.class, int.class, String.class, List.class, String.class, boolean.class)
                    .invoke(launcher, o.master, o.dataParallel, spec.name(), own, run, o.overwrite);
        } catch (java.lang.reflect.InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw new UserError("--master: " + cause, cause);
        } catch (ReflectiveOperationException e) {
            throw new UserError("--master: the Spark module does not match this jgrad: " + e);
        }
    }
}
