package dev.jgrad.bench;

import dev.jgrad.nn.io.AtomicFile;
import dev.jgrad.nn.io.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code jgrad bench [--quick] [--json FILE] [--threads 1,2]}: the JMH benchmarks of the workloads W1-W13. It lives in the
 * benchmarks' own jar (with JMH), which the {@code ./jgrad} launcher runs for this one command, so the CLI jar carries no JMH.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Run the JMH benchmarks of the workloads W1-W13 (W1-W9 of DESIGN.md; W10-W11 of higher order; W12-W13 nanoGPT's baby GPT):",
            "W1 in GFLOP/s, W7 in µs, the others in ms.",
            "Each workload runs at each --threads count and is reported at its best.",
            "D1, run by --only D1: the ring all-reduce of data-parallel training (two workers on loopback; 1, 3.2 and 32 MB).",
            "S1, run by --only S1: 40 single ops on a (768, 512) float32 tensor (transposed copy, logsumexp, nonzero, ...), in µs.",
            "Compare with: python3 bench/pytorch/workloads.py > P.json; python3 bench/compare.py B.json P.json",
            "(for S1: python3 bench/pytorch/workloads.py --ops > P.json)"})
public final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "short iterations, one fork (three for the single large ops W2-W4): about 8 minutes per thread count")
    boolean quick;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON")
    Path json;

    @Option(names = "--threads", paramLabel = "N[,N...]", split = ",", hideParamSyntax = true,
            description = "kernel thread counts to run at, one after the other (default: 1 and all cores)")
    List<Integer> threads;

    @Option(names = "--only", paramLabel = "REGEX",
            description = "benchmarks whose method or key matches, ignoring case, e.g. 'W2|softmax' (default: all)")
    String only;

    @Option(names = "--verbose", description = "show JMH's own output")
    boolean verbose;

    @Option(names = "--peak", description = "measure this processor's limits instead: its FMA peak (GFLOP/s) and memory bandwidth"
            + " (STREAM triad, GB/s), on one core and on all")
    boolean peak;

    @Override
    public Integer call() throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        if (peak) {
            if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
                // Peak's FMA loops are Vector API code: without the module its classes do not load at all.
                throw new ParameterException(spec.commandLine(), "--peak measures with the Vector API, which this JVM was started without:"
                        + " run ./jgrad bench --peak, or java --add-modules jdk.incubator.vector -jar jgrad-bench.jar --peak");
            }
            System.err.println("jgrad bench --peak: " + dev.jgrad.tensor.Backend.processor() + "; about half a minute");
            Map<String, Double> limits = Peak.measure(cores);
            limits.forEach((k, v) -> System.out.printf(Locale.ROOT, "%-48s %12.1f%n", k, v));
            return writeJson(new java.util.LinkedHashMap<>(limits));
        }
        List<Integer> counts = threads == null ? (cores == 1 ? List.of(1) : List.of(1, cores)) : List.copyOf(new java.util.LinkedHashSet<>(threads));
        for (int t : counts) {
            if (t < 1 || t > dev.jgrad.tensor.Backend.maxThreads()) {
                throw new ParameterException(spec.commandLine(), "--threads must be from 1 to " + dev.jgrad.tensor.Backend.maxThreads()
                        + ", got " + t);
            }
        }
        List<String> chosen;
        try {
            chosen = BenchRunner.select(only);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        System.err.println("jgrad bench: running " + (quick ? "quick" : "full") + " JMH benchmarks with " + counts + " thread(s)...");
        Map<String, Object> results = BenchRunner.runAtEach(quick ? BenchRunner.Length.QUICK : BenchRunner.Length.FULL, counts, chosen, verbose);
        @SuppressWarnings("unchecked")
        Map<String, Object> bestThreads = (Map<String, Object>) results.get("best_threads");
        for (Map.Entry<String, Object> e : results.entrySet()) {
            if (e.getValue() instanceof Double) {
                System.out.printf(Locale.ROOT, "%-48s %12.4f  (%s thread(s))%n", e.getKey(), (Double) e.getValue(), bestThreads.get(e.getKey()));
            }
        }
        return writeJson(results);
    }

    /** Writes {@code results} to {@code --json FILE} where one was given: 0, or 2 where it cannot be written. */
    private int writeJson(Map<String, Object> results) {
        if (json != null) {
            try {
                AtomicFile.writeString(json, Json.writePretty(results));
            } catch (IOException e) {
                System.err.println("jgrad: error: cannot write " + json + ": " + e.getMessage());
                return 2;
            }
            System.err.println("Wrote " + json);
        }
        return 0;
    }
}
