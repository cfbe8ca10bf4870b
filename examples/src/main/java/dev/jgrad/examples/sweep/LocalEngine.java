package dev.jgrad.examples.sweep;

import dev.jgrad.train.Interrupt;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a sweep's runs in child JVMs of this machine, {@code parallel} at a time, each with its share of the cores
 * ({@code --threads cores / parallel}) and its output in its log file. Ctrl-C (or SIGTERM) stops launching and
 * passes the stop on to the running children, which save their checkpoint at the end of their step; running the sweep
 * again resumes them.
 */
public final class LocalEngine implements Engine {
    private final int parallel;

    /** {@code parallel} runs at once (at least 1). */
    public LocalEngine(int parallel) {
        if (parallel < 1) {
            throw new IllegalArgumentException("--parallel must be at least 1, got " + parallel);
        }
        this.parallel = parallel;
    }

    @Override
    public Map<String, Integer> run(List<Job> jobs) {
        Interrupt.install();
        Interrupt.inLoop(true);
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors() / parallel);
        Map<String, Integer> exits = new LinkedHashMap<>();
        List<Process> running = new ArrayList<>();
        List<Job> runningJobs = new ArrayList<>();
        int next = 0;
        boolean forwarded = false;
        try {
            while (next < jobs.size() || !running.isEmpty()) {
                if (Interrupt.requested() && !forwarded) {
                    forwarded = true;
                    // The children stop at the end of their step, as a run stopped by Ctrl-C does.
                    running.forEach(Process::destroy);
                }
                while (!Interrupt.requested() && next < jobs.size() && running.size() < parallel) {
                    Job job = jobs.get(next++);
                    System.out.println("jgrad sweep: starting " + job.name() + " (log: " + job.log() + ")");
                    running.add(ChildRun.start(job, threads));
                    runningJobs.add(job);
                }
                if (Interrupt.requested() && next < jobs.size()) {
                    next = jobs.size();
                }
                for (int i = running.size() - 1; i >= 0; i--) {
                    Process p = running.get(i);
                    if (!p.isAlive()) {
                        Job job = runningJobs.get(i);
                        exits.put(job.name(), p.exitValue());
                        System.out.println("jgrad sweep: " + job.name() + " " + ChildRun.describe(p.exitValue()));
                        running.remove(i);
                        runningJobs.remove(i);
                    }
                }
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running.forEach(Process::destroy);
        } finally {
            Interrupt.inLoop(false);
        }
        return exits;
    }

}
