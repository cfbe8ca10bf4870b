package dev.jgrad.examples.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code jgrad}: the top-level command; it only dispatches to its subcommands. */
@Command(name = "jgrad", mixinStandardHelpOptions = true, version = "jgrad 0.1.0",
        description = "Train small models with jgrad, chart their loss, and check jgrad against PyTorch.",
        subcommands = {dev.jgrad.examples.train.TrainCommand.class, PlotCommand.class, ConformanceCommand.class},
        footer = {"", "./jgrad bench runs the JMH benchmarks of the workloads W1-W9 from their own jar (bench/target/jgrad-bench.jar)."})
public final class JgradCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "a command is required: "
                + String.join(", ", spec.subcommands().keySet()));
    }
}
