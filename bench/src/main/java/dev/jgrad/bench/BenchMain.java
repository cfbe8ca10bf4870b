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
            ex.getCommandLine().getErr().println("jgrad: error: " + oneLine(ex.getMessage()) + " (see 'jgrad bench --help')");
            return CommandLine.ExitCode.USAGE;
        });
        return cl.execute(args);
    }

    /**
     * Messages longer than this are cut: an error is one line a person can read, and with "jgrad: error: " before it and
     * the help hint after it the whole line stays under 300 characters.
     */
    static final int MAX_MESSAGE = 240;

    /**
     * The message on one line, cut to {@link #MAX_MESSAGE} characters: the rule of the CLI's {@code Main.oneLine}, kept
     * here because the benchmarks' jar does not carry the CLI.
     */
    static String oneLine(String message) {
        String m = message == null ? "(no message)" : message.replaceAll("\\s*[\\r\\n]+\\s*", "; ").trim();
        return m.length() <= MAX_MESSAGE ? m : m.substring(0, MAX_MESSAGE - 3) + "...";
    }
}
