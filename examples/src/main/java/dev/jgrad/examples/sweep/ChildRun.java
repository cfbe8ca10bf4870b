package dev.jgrad.examples.sweep;

import dev.jgrad.examples.UserError;
import dev.jgrad.examples.cli.Main;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A run of the command line in a child JVM with this JVM's flags and class path: how a sweep's engines (the local one,
 * Spark's executors) make each run, so that runs never share a process's threads, signals or output.
 */
public final class ChildRun {
    private ChildRun() {
    }

    /** Starts {@code jgrad args... --threads threads} with its output in {@code log}. */
    public static Process start(Engine.Job job, int threads) {
        return start(job.args(), job.log(), threads);
    }

    /** Starts {@code jgrad args... --threads threads} with its output in {@code log}. */
    public static Process start(List<String> args, Path log, int threads) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"));
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!a.startsWith("-agentlib") && !a.startsWith("-javaagent")) {
                cmd.add(a);
            }
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(Main.class.getName());
        cmd.addAll(args);
        cmd.add("--threads");
        cmd.add(Integer.toString(threads));
        try {
            Files.createDirectories(log.getParent());
            return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new UserError("cannot start a run of the sweep: " + e.getMessage(), e);
        }
    }

    /** The last line of a run's log that says something (not blank, not one of the JVM's warnings), for messages. */
    public static String lastLine(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (!lines.get(i).isBlank() && !lines.get(i).startsWith("WARNING")) {
                    return lines.get(i).strip();
                }
            }
            return "(no output)";
        } catch (IOException e) {
            return "(no log)";
        }
    }

    /** What a run's exit code means, for a sweep's progress lines. */
    public static String describe(int exit) {
        return exit == 0 ? "finished" : exit == 130 ? "interrupted (resume: run the sweep again)" : "failed (exit " + exit + ")";
    }

    /** Waits for the run; an interrupted wait stops it as Ctrl-C would (it saves at the end of its step) and waits for that. */
    public static int await(Process p) {
        try {
            return p.waitFor();
        } catch (InterruptedException e) {
            p.destroy();
            try {
                return p.waitFor();
            } catch (InterruptedException again) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                return 130;
            }
        }
    }
}
