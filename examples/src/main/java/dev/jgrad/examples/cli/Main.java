package dev.jgrad.examples.cli;

import dev.jgrad.train.RunException;
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

    /**
     * "; did you mean --epochs?" for a mistyped option, "; did you mean gpt?" for a mistyped command: picocli's closest
     * match for an option, the command within two edits for a command; else nothing.
     */
    static String suggestion(CommandLine.ParameterException ex) {
        if (!(ex instanceof CommandLine.UnmatchedArgumentException)) {
            return "";
        }
        CommandLine.UnmatchedArgumentException u = (CommandLine.UnmatchedArgumentException) ex;
        Object command = ex.getCommandLine().getCommand();
        if (command instanceof dev.jgrad.examples.train.TrainCommand.Example && !u.getUnmatched().isEmpty()) {
            String instead = ((dev.jgrad.examples.train.TrainCommand.Example) command).insteadOf(u.getUnmatched().get(0));
            if (instead != null) {
                return "; " + instead;
            }
        }
        java.util.Set<String> commands = ex.getCommandLine().getSubcommands().keySet();
        if (!commands.isEmpty() && !u.getUnmatched().isEmpty() && !u.getUnmatched().get(0).startsWith("-")) {
            String typed = u.getUnmatched().get(0);
            String best = null;
            int distance = 3;
            for (String c : commands) {
                int d = editDistance(typed.toLowerCase(java.util.Locale.ROOT), c);
                if (d < distance) {
                    best = c;
                    distance = d;
                }
            }
            return best == null ? "; choose one of " + String.join(", ", commands) : "; did you mean " + best + "?";
        }
        java.util.List<String> close = u.getSuggestions();
        return close.isEmpty() ? "" : "; did you mean " + close.get(0) + "?";
    }

    /** Levenshtein's distance, with a swap of two neighbours counted as one edit ("gtp" is one edit from "gpt"). */
    static int editDistance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            for (int j = 0; j <= b.length(); j++) {
                if (i == 0 || j == 0) {
                    d[i][j] = i + j;
                    continue;
                }
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    /**
     * Messages longer than this are cut: an error is one line a person can read, and with "jgrad: error: " before it and
     * the help hint after it the whole line stays under 300 characters.
     */
    static final int MAX_MESSAGE = 240;

    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new JgradCommand());
        dev.jgrad.examples.train.TrainCommand.dropOptionsNotTaken(cl.getSubcommands().get("train"));
        // --model CNN as well as cnn, as people type them.
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // A usage error is one line with a pointer to the help, not the whole usage text.
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine at = ex.getCommandLine();
            at.getErr().println("jgrad: error: " + oneLine(ex.getMessage() + suggestion(ex)) + " (see '" + at.getCommandSpec().qualifiedName() + " --help')");
            return CommandLine.ExitCode.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, line, parsed) -> {
            if (ex instanceof RunException) {
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
