package dev.jgrad.examples.cli;

import dev.jgrad.tensor.Backend;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code jgrad}: the top-level command; it only dispatches to its subcommands. */
@Command(name = "jgrad", mixinStandardHelpOptions = true, versionProvider = JgradCommand.Version.class,
        description = "Train small models with jgrad, chart their loss, and check jgrad against PyTorch.",
        subcommands = {dev.jgrad.examples.train.TrainCommand.class, SampleCommand.class, PlotCommand.class, DashboardCommand.class, ConformanceCommand.class, TuneCommand.class, ExportCommand.class, SweepCommand.class,
            CommandLine.HelpCommand.class},
        footer = {"", "./jgrad bench runs the JMH benchmarks of the workloads W1-W13 from their own jar (bench/target/jgrad-bench.jar)."})
public final class JgradCommand implements Callable<Integer> {
    /** jgrad's version. */
    static final String VERSION = "0.1.0";

    /** The version, and which kernels this JVM runs (the Vector API ones need --add-modules jdk.incubator.vector). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"jgrad " + VERSION, "kernels: " + Backend.kernels() + ", " + Backend.threads() + " thread(s)",
                "processor: " + Backend.processor(), "tuning: " + Backend.tuning(),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ", " + System.getProperty("java.home") + ")"};
        }
    }

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "a command is required: "
                + String.join(", ", spec.subcommands().keySet()));
    }
}
