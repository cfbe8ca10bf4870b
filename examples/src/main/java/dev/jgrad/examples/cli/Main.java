package dev.jgrad.examples.cli;

import picocli.CommandLine;

/** Entry point of the {@code jgrad} command line. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code: 0 success, 1 failure, 2 bad usage or bad input. */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new JgradCommand());
        cl.setExecutionExceptionHandler((ex, line, parsed) -> {
            if (ex instanceof UserError) {
                line.getErr().println("jgrad: error: " + ex.getMessage());
                return CommandLine.ExitCode.USAGE;
            }
            line.getErr().println("jgrad: internal error: " + ex);
            ex.printStackTrace(line.getErr());
            return CommandLine.ExitCode.SOFTWARE;
        });
        return cl;
    }
}
