package dev.jgrad.examples.sweep;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Where a sweep's runs run: child processes of this machine ({@link LocalEngine}), or, later, Spark's executors. */
public interface Engine {
    /** One run to make: its name, the command line's arguments ({@code train mlp ... --out DIR}) and its log file. */
    record Job(String name, List<String> args, Path log) {
    }

    /** Runs the jobs and gives each one's exit code (0 done, 130 interrupted, 2 refused, else failed). */
    Map<String, Integer> run(List<Job> jobs);

    /** Refuses, before the sweep touches its folder, what cannot work (an unreachable master). */
    default void check() {
    }
}
