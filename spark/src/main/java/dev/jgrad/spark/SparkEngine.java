package dev.jgrad.spark;

import dev.jgrad.examples.UserError;
import dev.jgrad.examples.sweep.ChildRun;
import dev.jgrad.examples.sweep.Engine;
import dev.jgrad.train.Interrupt;
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
    /** The sweep's folder on a Hadoop file system, or null where the sweep's folder is local or mounted. */
    private final String remote;
    /** The local copy of {@link #remote} the sweep reads and ranks. */
    private final String staging;

    /** An engine on the Spark master {@code master} ({@code local[2]}, {@code spark://host:7077}). */
    public SparkEngine(String master) {
        this(master, null, null);
    }

    /**
     * An engine whose runs are kept at {@code remote}, a Hadoop path: each task makes its run in a folder of its executor
     * (from the copy kept there, when it resumes one) and copies the run and its log there; the sweep's own files are in
     * {@code staging}, a local copy the driver refreshes after the runs.
     */
    SparkEngine(String master, String remote, String staging) {
        this.master = master;
        this.remote = remote;
        this.staging = staging;
    }

    @Override
    public void check() {
        SparkMasters.check(master);
    }

    /** What a task needs of a job: plain strings, which Spark serialises. */
    record Task(String name, List<String> args, String log, int threads, String remote, String staging) implements Serializable {
    }

    @Override
    public Map<String, Integer> run(List<Job> jobs) {
        Map<String, Integer> exits = new LinkedHashMap<>();
        if (jobs.isEmpty()) {
            return exits;
        }
        long started = System.nanoTime();
        JavaSparkContext sc = SparkMasters.start(master, "jgrad sweep");
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
                tasks.add(new Task(j.name(), List.copyOf(j.args()), j.log().toString(), threads, remote, staging));
            }
            List<String> results = sc.parallelize(tasks, tasks.size()).map(SparkEngine::runTask).collect();
            for (String r : results) {
                int at = r.indexOf('\t');
                exits.put(r.substring(at + 1), Integer.parseInt(r.substring(0, at)));
            }
            if (remote != null) {
                // The runs as the tasks left them, for the ranking.
                for (Job j : jobs) {
                    HadoopFolder.download(HadoopFolder.child(remote, j.name()), Path.of(staging).resolve(j.name()));
                    String log = HadoopFolder.child(HadoopFolder.child(remote, "logs"), j.name() + ".log");
                    if (HadoopFolder.exists(log)) {
                        java.nio.file.Files.deleteIfExists(j.log());
                        HadoopFolder.downloadFile(log, j.log());
                    }
                }
            }
            for (Job j : jobs) {
                Integer exit = exits.get(j.name());
                System.out.println("jgrad sweep: " + j.name() + " " + (exit == null ? "not run" : ChildRun.describe(exit)));
            }
        } catch (java.io.IOException e) {
            throw new UserError("cannot read the runs back from " + remote + ": " + e.getMessage(), e);
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

    /** One task: the run in a child JVM; its exit code and name. With a Hadoop folder, made locally and copied there. */
    static String runTask(Task t) throws java.io.IOException {
        if (t.remote() == null) {
            Process p = ChildRun.start(t.args(), Path.of(t.log()), t.threads());
            return ChildRun.await(p) + "\t" + t.name();
        }
        Path local = java.nio.file.Files.createTempDirectory("jgrad-sweep-run-");
        try {
            String kept = HadoopFolder.child(t.remote(), t.name());
            HadoopFolder.download(kept, local.resolve(t.name()));
            List<String> args = new ArrayList<>();
            for (String a : t.args()) {
                args.add(a.startsWith(t.staging()) ? local.toString() + a.substring(t.staging().length()) : a);
            }
            Path log = local.resolve(t.name() + ".log");
            int exit = ChildRun.await(ChildRun.start(args, log, t.threads()));
            if (java.nio.file.Files.isDirectory(local.resolve(t.name()))) {
                HadoopFolder.upload(local.resolve(t.name()), kept);
            }
            HadoopFolder.upload(log, HadoopFolder.child(HadoopFolder.child(t.remote(), "logs"), t.name() + ".log"));
            return exit + "\t" + t.name();
        } finally {
            HadoopFolder.deleteLocal(local);
        }
    }

    private static String firstLine(Throwable e) {
        String m = String.valueOf(e.getMessage());
        return m.split("\n")[0];
    }
}
