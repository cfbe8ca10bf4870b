package dev.jgrad.examples.train;

import dev.jgrad.examples.UserError;
import dev.jgrad.tensor.Backend;
import dev.jgrad.train.parallel.Rendezvous;
import dev.jgrad.train.parallel.RingAllReduce;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * {@code jgrad train ... --data-parallel N} on this machine: this process is worker 0 and writes the run folder; it starts
 * workers 1..N-1 as child JVMs of the same command (each its share of the cores, its own scratch folder, its output in a
 * log there), the workers exchange their addresses through a folder and join a ring, and every step averages their
 * gradients ({@code Fit.dataParallel}). A worker that dies fails the others within the ring's timeout, naming it; the run
 * folder keeps its last whole checkpoint. A child started with {@code --worker RANK:N:DIR} is such a worker.
 */
public final class DataParallelWorkers implements AutoCloseable {
    /** How long a worker waits for the others, to start and at each exchange. */
    static final Duration TIMEOUT = Duration.ofSeconds(120);
    /** Options a worker does not take from worker 0's command line: it gets its own. */
    private static final Set<String> NOT_PASSED = Set.of("--out", "--resume", "--overwrite", "--data-parallel", "--dashboard",
            "--dashboard-port", "--threads", "--worker", "--master");

    private final RingAllReduce ring;
    private final List<Process> children;
    private final Path scratch;

    private DataParallelWorkers(RingAllReduce ring, List<Process> children, Path scratch) {
        this.ring = ring;
        this.children = children;
        this.scratch = scratch;
    }

    /** Joins (or, as worker 0, starts) the workers the options ask for; null for a run of one process. */
    static DataParallelWorkers start(CommandSpec spec, TrainOptions o) {
        try {
            if (o.worker != null) {
                return join(o);
            }
            if (o.dataParallel == null || o.dataParallel == 1) {
                return null;
            }
            return lead(spec, o);
        } catch (IOException e) {
            throw new UserError("--data-parallel: " + e.getMessage(), e);
        }
    }

    private static DataParallelWorkers join(TrainOptions o) throws IOException {
        String[] f = o.worker.split(":", 3);
        int rank = Integer.parseInt(f[0]);
        int n = Integer.parseInt(f[1]);
        ServerSocketChannel own;
        List<InetSocketAddress> all;
        if (f[2].startsWith("@")) {
            // A Spark task's worker: every address given (the barrier's allGather), this one's port to listen on.
            all = new ArrayList<>();
            for (String hostPort : f[2].substring(1).split(",")) {
                int colon = hostPort.lastIndexOf(':');
                all.add(new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))));
            }
            own = ServerSocketChannel.open().bind(new InetSocketAddress(all.get(rank).getPort()));
        } else {
            own = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            all = Rendezvous.viaFolder(Path.of(f[2]), rank, n, (InetSocketAddress) own.getLocalAddress(), TIMEOUT);
        }
        o.ring = RingAllReduce.join(rank, all, own, TIMEOUT);
        own.close();
        return new DataParallelWorkers(o.ring, List.of(), null);
    }

    private static DataParallelWorkers lead(CommandSpec spec, TrainOptions o) throws IOException {
        int n = o.dataParallel;
        int threads = o.threads != null ? o.threads : Math.max(1, Backend.threads() / n);
        Backend.setThreads(threads);
        Path scratch = Files.createTempDirectory("jgrad-data-parallel-");
        Path rendezvous = Files.createDirectories(scratch.resolve("rendezvous"));
        List<String> own = ownArgs(spec);
        List<Process> children = new ArrayList<>();
        ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        try {
            for (int r = 1; r < n; r++) {
                List<String> args = otherWorker(spec.name(), own, o.resume, scratch.resolve("worker-" + r));
                args.addAll(List.of("--worker", r + ":" + n + ":" + rendezvous));
                children.add(dev.jgrad.examples.sweep.ChildRun.start(args, scratch.resolve("worker-" + r + ".log"), threads));
            }
            List<InetSocketAddress> all = Rendezvous.viaFolder(rendezvous, 0, n, (InetSocketAddress) server.getLocalAddress(), TIMEOUT,
                    () -> {
                        for (int r = 0; r < children.size(); r++) {
                            if (!children.get(r).isAlive()) {
                                throw new UserError("--data-parallel: worker " + (r + 1) + " stopped before joining: "
                                        + dev.jgrad.examples.sweep.ChildRun.lastLine(scratch.resolve("worker-" + (r + 1) + ".log")));
                            }
                        }
                    });
            o.ring = RingAllReduce.join(0, all, server, TIMEOUT);
            System.out.println("jgrad: data-parallel over " + n + " workers (this process and " + (n - 1) + " more, " + threads
                    + " thread(s) each; their logs in " + scratch + ")");
        } catch (IOException | RuntimeException e) {
            children.forEach(Process::destroyForcibly);
            delete(scratch);
            throw e;
        } finally {
            server.close();
        }
        return new DataParallelWorkers(o.ring, children, scratch);
    }

    /**
     * The command line of a worker other than 0, writing to {@code folder}: resuming a copy of the run folder {@code resume}
     * (the same weights, optimizer state and position as worker 0), or starting there (from a model file {@code resume}, if
     * given), with the options {@code own} given on worker 0's command line.
     */
    public static List<String> otherWorker(String trainer, List<String> own, Path resume, Path folder) throws IOException {
        List<String> args = new ArrayList<>(List.of("train", trainer));
        if (resume != null && Files.isDirectory(resume)) {
            copyRun(resume, folder);
            args.addAll(List.of("--resume", folder.toString()));
            args.addAll(own);
        } else {
            args.addAll(own);
            if (resume != null) {
                args.addAll(List.of("--resume", resume.toString()));
            }
            args.addAll(List.of("--out", folder.toString()));
        }
        return args;
    }

    /** The command line's own arguments, less those a worker gets its own of. */
    static List<String> ownArgs(CommandSpec spec) {
        List<String> all = spec.commandLine().getParseResult().originalArgs();
        // The whole command line: what follows the trainer's name is its own.
        int from = all.indexOf(spec.name()) + 1;
        List<String> given = all.subList(from, all.size());
        List<String> out = new ArrayList<>();
        for (int i = 0; i < given.size(); i++) {
            String a = given.get(i);
            String name = a.split("=", 2)[0];
            if (NOT_PASSED.contains(name)) {
                boolean takesValue = !a.contains("=") && spec.findOption(name) != null && spec.findOption(name).arity().max() > 0;
                if (takesValue) {
                    i++;
                }
                continue;
            }
            out.add(a);
        }
        return out;
    }

    /** A copy of a run folder for another worker to resume: all but its lock and its TensorBoard files. */
    private static void copyRun(Path from, Path to) throws IOException {
        try (var paths = Files.walk(from)) {
            for (Path p : paths.toList()) {
                String rel = from.relativize(p).toString();
                // Not the run's lock (worker 0 holds it) nor its TensorBoard files (a worker writes none of its own).
                if (rel.equals(".jgrad.lock") || rel.equals("tb") || rel.startsWith("tb/")) {
                    continue;
                }
                Path target = to.resolve(rel);
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    /** After a run that ended well: the other workers end with it. */
    void finish() {
        for (Process p : children) {
            try {
                if (!p.waitFor(TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)) {
                    p.destroy();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Closes the ring (the other workers then fail or stop at their next exchange) and removes the scratch folders. */
    @Override
    public void close() {
        try {
            ring.close();
        } catch (IOException e) {
            // Closing a ring whose peers are gone.
        }
        for (Process p : children) {
            if (p.isAlive()) {
                p.destroy();
            }
        }
        if (scratch != null) {
            for (int r = 0; r < children.size(); r++) {
                Process p = children.get(r);
                try {
                    if (p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() != 0 && p.exitValue() != 130) {
                        System.err.println("jgrad: worker " + (r + 1) + " failed: " + dev.jgrad.examples.sweep.ChildRun.lastLine(scratch.resolve("worker-" + (r + 1) + ".log")));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            delete(scratch);
        }
    }

    private static void delete(Path scratch) {
        try (var paths = Files.walk(scratch)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("jgrad: could not remove the workers' scratch folder " + scratch + ": " + e.getMessage());
        }
    }
}
