package dev.jgrad.spark;

import dev.jgrad.examples.UserError;
import dev.jgrad.examples.sweep.ChildRun;
import dev.jgrad.train.Interrupt;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.api.java.JavaSparkContext;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code jgrad train ... --data-parallel N --master URL}: the N workers as the tasks of one Spark barrier stage, which
 * starts them together. Each task picks a port, the tasks exchange their addresses once with the barrier's allGather,
 * and each starts its worker in a child JVM of its executor ({@code spark.task.cpus} threads): worker 0 writes the run
 * folder (on a path every executor reaches), the others a scratch folder of their executor, and every step the workers
 * average their gradients over TCP between themselves (the ring all-reduce), not through Spark. A worker that fails
 * fails its task and so the stage, naming it; a retried stage (Spark's, or the user's re-run) resumes every worker from the
 * run folder's last checkpoint, never from replicas that differ.
 */
public final class SparkTraining {
    /** Runs the stage; returns worker 0's exit code (0, or 130 when stopped). */
    public int run(String master, int n, String trainer, List<String> own, String runDir, boolean overwrite) {
        SparkMasters.check(master);
        long started = System.nanoTime();
        JavaSparkContext sc = SparkMasters.start(master, "jgrad train " + trainer + " --data-parallel " + n);
        Interrupt.install();
        Interrupt.inLoop(true);
        try {
            int cpus = Math.max(1, sc.getConf().getInt("spark.task.cpus", 1));
            System.out.printf(java.util.Locale.ROOT, "jgrad: data-parallel over %d Spark tasks on %s (Spark %s up in %.1f s, %d thread(s) each);"
                    + " worker 0 writes %s%n", n, master, sc.version(), (System.nanoTime() - started) / 1e9, cpus, runDir);
            List<Integer> ranks = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                ranks.add(r);
            }
            Worker w = new Worker(trainer, List.copyOf(own), runDir, overwrite, n, cpus);
            scala.reflect.ClassTag<String> tag = scala.reflect.ClassTag$.MODULE$.apply(String.class);
            List<String> results = sc.parallelize(ranks, n).rdd().barrier().mapPartitions(w, false, tag).toJavaRDD().collect();
            int exit = 0;
            for (String r : results) {
                if (r.startsWith("0\t")) {
                    exit = Integer.parseInt(r.substring(2));
                }
            }
            return exit;
        } catch (Exception e) {
            // Spark's own failures are checked exceptions thrown through Scala.
            if (e instanceof UserError u) {
                throw u;
            }
            throw new UserError("the data-parallel stage failed: " + rootMessage(e) + "; " + runDir + " keeps its last checkpoint, and the same"
                    + " command resumes from it", e);
        } finally {
            awaitLocalWorkers();
            sc.stop();
            Interrupt.inLoop(false);
        }
    }

    /** How long the driver waits for the workers in its own JVM to end once the stage is over. */
    static final long LOCAL_WORKERS_WAIT_NANOS = 30_000_000_000L;

    /**
     * Waits until the workers running in this JVM have ended, their scratch folders removed. A local master runs the
     * tasks here, and when one worker fails, Spark fails the stage at once and kills the others afterwards: without
     * the wait this JVM could stop (and exit) while a killed worker was still removing its folder, and leave it behind.
     * Executors of a cluster are other JVMs, which finish their tasks' cleanup whatever the driver does.
     */
    private static void awaitLocalWorkers() {
        long deadline = System.nanoTime() + LOCAL_WORKERS_WAIT_NANOS;
        while (Worker.RUNNING_HERE.get() > 0 && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The failed worker's line where Spark's messages carry it, else the first line of the innermost message. */
    private static String rootMessage(Throwable e) {
        Throwable t = e;
        String last = String.valueOf(e.getMessage());
        for (int depth = 0; t != null && depth < 20; depth++, t = t.getCause()) {
            String m = String.valueOf(t.getMessage());
            int at = m.indexOf("jgrad worker ");
            if (at >= 0) {
                return m.substring(at).split("\n")[0];
            }
            last = m;
        }
        return last.split("\n")[0];
    }

    /** A barrier task: one worker. Serialised to the executors with what it needs. */
    static final class Worker extends scala.runtime.AbstractFunction1<scala.collection.Iterator<Integer>, scala.collection.Iterator<String>>
            implements java.io.Serializable {
        /** The workers running in this JVM now: the tasks of a local master, which the driver waits for ({@link #awaitLocalWorkers}). */
        static final java.util.concurrent.atomic.AtomicInteger RUNNING_HERE = new java.util.concurrent.atomic.AtomicInteger();

        private static final long serialVersionUID = 1L;
        private final String trainer;
        private final List<String> own;
        private final String runDir;
        private final boolean overwrite;
        private final int n;
        private final int cpus;

        Worker(String trainer, List<String> own, String runDir, boolean overwrite, int n, int cpus) {
            this.trainer = trainer;
            this.own = own;
            this.runDir = runDir;
            this.overwrite = overwrite;
            this.n = n;
            this.cpus = cpus;
        }

        @Override
        public scala.collection.Iterator<String> apply(scala.collection.Iterator<Integer> partition) {
            return scala.jdk.javaapi.CollectionConverters.asScala(List.of(work()).iterator());
        }

        private String work() {
            RUNNING_HERE.incrementAndGet();
            BarrierTaskContext ctx = BarrierTaskContext.get();
            int rank = ctx.partitionId();
            Path scratch = null;
            try {
                int port;
                try (ServerSocket s = new ServerSocket(0)) {
                    port = s.getLocalPort();
                }
                String[] all = ctx.allGather(InetAddress.getLocalHost().getHostAddress() + ":" + port);
                Path run = Path.of(runDir);
                boolean resuming = Files.isRegularFile(run.resolve("model.safetensors")) && Files.isRegularFile(run.resolve("config.json"));
                // The worker's log, and for workers other than 0 their copy of the run: the executor's, removed when the task ends.
                scratch = Files.createTempDirectory("jgrad-worker-" + rank + "-");
                Path log = scratch.resolve("worker.log");
                List<String> args;
                if (rank == 0) {
                    args = new ArrayList<>(List.of("train", trainer));
                    if (resuming) {
                        args.addAll(List.of("--resume", runDir));
                        args.addAll(own);
                    } else {
                        args.addAll(own);
                        args.addAll(List.of("--out", runDir));
                        if (overwrite) {
                            args.add("--overwrite");
                        }
                    }
                } else {
                    args = dev.jgrad.examples.train.DataParallelWorkers.otherWorker(trainer, own, resuming ? run : null, scratch.resolve("run"));
                }
                args.addAll(List.of("--worker", rank + ":" + n + ":@" + String.join(",", all)));
                int exit = ChildRun.await(ChildRun.start(args, log, cpus));
                if (exit != 0 && exit != 130) {
                    throw new IllegalStateException("jgrad worker " + rank + " failed (exit " + exit + "): " + ChildRun.lastLine(log));
                }
                if (rank == 0) {
                    // Worker 0's output is the run's: shown where the driver prints.
                    System.out.print(Files.readString(log));
                }
                return rank + "\t" + exit;
            } catch (IOException e) {
                throw new IllegalStateException("jgrad worker " + rank + ": " + e.getMessage(), e);
            } finally {
                try {
                    if (scratch != null) {
                        HadoopFolder.deleteLocal(scratch);
                    }
                } catch (IOException e) {
                    System.err.println("jgrad: could not remove worker " + rank + "'s scratch folder " + scratch + ": " + e.getMessage());
                } finally {
                    RUNNING_HERE.decrementAndGet();
                }
            }
        }

    }
}
