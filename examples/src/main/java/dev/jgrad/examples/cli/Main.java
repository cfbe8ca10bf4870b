package dev.jgrad.examples.cli;

import dev.jgrad.examples.UserError;
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
        try {
            return commandLine().execute(args);
        } catch (OutOfMemoryError e) {
            // Inputs are bounded before they are read; this is the net under what a bound missed, and under a model or
            // batch too large for the heap.
            System.err.println(outOfMemory(e.getMessage()));
            return CommandLine.ExitCode.USAGE;
        } catch (StackOverflowError e) {
            System.err.println("jgrad: error: the input is nested too deeply to process");
            return CommandLine.ExitCode.SOFTWARE;
        }
    }

    /** One line for a heap too small for the work: the heap's size and the setting that raises it. */
    static String outOfMemory(String detail) {
        long mb = Runtime.getRuntime().maxMemory() >> 20;
        long more = Math.max(1, 2 * mb / 1024 + 1);
        String advice = "give it more with JGRAD_JAVA_OPTS=-Xmx" + more + "g, or use a smaller model or batch";
        String what = detail == null ? "" : detail.replaceAll("\\s*[\\r\\n]+\\s*", "; ").trim();
        int room = MAX_MESSAGE - advice.length() - 60;
        if (what.length() > room) {
            what = what.substring(0, Math.max(0, room - 3)) + "...";
        }
        return "jgrad: error: out of memory (" + what + ", with a Java heap of " + mb + " MB); " + advice;
    }

    /** "; did you mean --epochs?" for a mistyped option or command: picocli's closest match, else nothing. */
    static String suggestion(CommandLine.ParameterException ex) {
        if (ex instanceof CommandLine.UnmatchedArgumentException) {
            java.util.List<String> close = ((CommandLine.UnmatchedArgumentException) ex).getSuggestions();
            if (!close.isEmpty()) {
                return "; did you mean " + close.get(0) + "?";
            }
        }
        return "";
    }

    /**
     * Messages longer than this are cut: an error is one line a person can read, and with "jgrad: error: " before it and
     * the help hint after it the whole line stays under 300 characters.
     */
    static final int MAX_MESSAGE = 240;

    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new JgradCommand());
        // --model CNN as well as cnn, as people type them.
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // A usage error is one line with a pointer to the help, not the whole usage text.
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine at = ex.getCommandLine();
            at.getErr().println("jgrad: error: " + oneLine(ex.getMessage() + suggestion(ex)) + " (see '" + at.getCommandSpec().qualifiedName() + " --help')");
            return CommandLine.ExitCode.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, line, parsed) -> {
            if (ex instanceof UserError) {
                line.getErr().println("jgrad: error: " + oneLine(ex.getMessage()));
                return CommandLine.ExitCode.USAGE;
            }
            if (ex instanceof dev.jgrad.tensor.OutOfMemoryException) {
                line.getErr().println(outOfMemory(ex.getMessage()));
                return CommandLine.ExitCode.USAGE;
            }
            line.getErr().println("jgrad: internal error: " + ex);
            ex.printStackTrace(line.getErr());
            return CommandLine.ExitCode.SOFTWARE;
        });
        return cl;
    }

    /** The message on one line, cut to {@link #MAX_MESSAGE} characters. */
    static String oneLine(String message) {
        String m = message == null ? "(no message)" : message.replaceAll("\\s*[\\r\\n]+\\s*", "; ").trim();
        return m.length() <= MAX_MESSAGE ? m : m.substring(0, MAX_MESSAGE - 3) + "...";
    }
}
