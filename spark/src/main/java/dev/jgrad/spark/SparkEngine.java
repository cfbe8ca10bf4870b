package dev.jgrad.spark;

import dev.jgrad.examples.UserError;
import dev.jgrad.examples.sweep.ChildRun;
import dev.jgrad.examples.sweep.Engine;
import dev.jgrad.train.Interrupt;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sweep's runs as Spark tasks, one run per task: each task starts the run in a child JVM of its executor (the
 * executor's own java and class path, so nothing is installed on the workers beyond what Spark ships) with
 * {@code spark.task.cpus} kernel threads, writing its run folder to the sweep's path, which every executor must reach (a
 * local folder with {@code local[N]}, a mounted one on a cluster). A run that fails is its task's exit code, not a failed
 * task, so Spark does not retry it and the sweep goes on.
 */
public final class SparkEngine implements Engine {
    private final String master;

    /** An engine on the Spark master {@code master} ({@code local[2]}, {@code spark://host:7077}). */
    public SparkEngine(String master) {
        this.master = master;
    }

    @Override
    public void check() {
        SparkMasters.check(master);
    }

    /** What a task needs of a job: plain strings, which Spark serialises. */
    record Task(String name, List<String> args, String log, int threads) implements Serializable {
    }

    @Override
    public Map<String, Integer> run(List<Job> jobs) {
        Map<String, Integer> exits = new LinkedHashMap<>();
        if (jobs.isEmpty()) {
            return exits;
        }
        SparkConf conf = new SparkConf().setMaster(master).setAppName("jgrad sweep")
                .set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false");
        long started = System.nanoTime();
        JavaSparkContext sc;
        try {
            sc = new JavaSparkContext(conf);
        } catch (RuntimeException e) {
            throw new UserError("cannot start Spark on --master " + master + ": " + firstLine(e), e);
        }
        Interrupt.install();
        Interrupt.inLoop(true);
        Thread watcher = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                if (Interrupt.requested()) {
                    // Cancelling interrupts the tasks' threads, which stop their runs as Ctrl-C would (ChildRun.await).
                    sc.cancelAllJobs();
                    return;
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "jgrad-sweep-interrupt");
        watcher.setDaemon(true);
        watcher.start();
        try {
            System.out.printf(java.util.Locale.ROOT, "jgrad sweep: Spark %s on %s up in %.1f s; %d runs, one per task%n", sc.version(), master,
                    (System.nanoTime() - started) / 1e9, jobs.size());
            int threads = Math.max(1, sc.getConf().getInt("spark.task.cpus", 1));
            List<Task> tasks = new ArrayList<>();
            for (Job j : jobs) {
                tasks.add(new Task(j.name(), List.copyOf(j.args()), j.log().toString(), threads));
            }
            List<String> results = sc.parallelize(tasks, tasks.size()).map(SparkEngine::runTask).collect();
            for (String r : results) {
                int at = r.indexOf('\t');
                exits.put(r.substring(at + 1), Integer.parseInt(r.substring(0, at)));
            }
            for (Job j : jobs) {
                Integer exit = exits.get(j.name());
                System.out.println("jgrad sweep: " + j.name() + " " + (exit == null ? "not run" : exit == 0 ? "finished"
                        : exit == 130 ? "interrupted (resume: run the sweep again)" : "failed (exit " + exit + ")"));
            }
        } catch (RuntimeException e) {
            if (!Interrupt.requested()) {
                throw new UserError("the sweep's Spark job failed: " + firstLine(e), e);
            }
        } finally {
            watcher.interrupt();
            sc.stop();
            Interrupt.inLoop(false);
        }
        return exits;
    }

    /** One task: the run in a child JVM; its exit code and name. */
    static String runTask(Task t) {
        Process p = ChildRun.start(t.args(), Path.of(t.log()), t.threads());
        return ChildRun.await(p) + "\t" + t.name();
    }

    private static String firstLine(Throwable e) {
        String m = String.valueOf(e.getMessage());
        return m.split("\n")[0];
    }
}
