package dev.jgrad.bench;

import picocli.CommandLine;

/**
 * Entry point of the benchmarks' jar ({@code java -jar bench/target/jgrad-bench.jar}, or {@code ./jgrad bench}). Bad
 * usage gets what the rest of the command line gives: one line on stderr with a pointer to the help, and exit code 2.
 */
public final class BenchMain {
    private BenchMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs {@code jgrad bench} with these arguments and returns its exit code: 0 success, 1 failure, 2 bad usage. */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new BenchCommand()).setCommandName("jgrad bench");
        cl.setParameterExceptionHandler((ex, given) -> {
            String message = String.valueOf(ex.getMessage()).replaceAll("\\s*[\\r\\n]+\\s*", "; ").trim();
            ex.getCommandLine().getErr().println("jgrad: error: " + message + " (see 'jgrad bench --help')");
            return CommandLine.ExitCode.USAGE;
        });
        return cl.execute(args);
    }
}
