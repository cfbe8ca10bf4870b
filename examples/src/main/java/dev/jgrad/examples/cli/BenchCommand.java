package dev.jgrad.examples.cli;

import dev.jgrad.bench.BenchRunner;
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

/** {@code jgrad bench [--quick] [--json FILE] [--threads N]}: the JMH benchmarks of the workloads W1-W7. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Run the JMH benchmarks of the workloads W1-W7 (DESIGN.md): W1 in GFLOP/s, W2-W6 in ms, W7 in µs.",
            "Compare with: python3 bench/pytorch/workloads.py > P.json"})
public final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "one fork and short iterations: the whole run in under 3 minutes")
    boolean quick;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON")
    Path json;

    @Option(names = "--threads", paramLabel = "N", description = "kernel threads (default: all cores)")
    Integer threads;

    @Option(names = "--only", paramLabel = "REGEX",
            description = "benchmarks whose method or key matches, ignoring case, e.g. 'W2|softmax' (default: all)")
    String only;

    @Option(names = "--verbose", description = "show JMH's own output")
    boolean verbose;

    @Override
    public Integer call() throws Exception {
        int t = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
        if (t < 1) {
            throw new ParameterException(spec.commandLine(), "--threads must be at least 1, got " + t);
        }
        List<String> chosen;
        try {
            chosen = BenchRunner.select(only);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        System.err.println("jgrad bench: running " + (quick ? "quick" : "full") + " JMH benchmarks with " + t + " thread(s)...");
        Map<String, Object> results = BenchRunner.run(quick ? BenchRunner.Length.QUICK : BenchRunner.Length.FULL, t, chosen, verbose);
        for (Map.Entry<String, Object> e : results.entrySet()) {
            if (e.getValue() instanceof Double) {
                System.out.printf(Locale.ROOT, "%-40s %12.4f%n", e.getKey(), (Double) e.getValue());
            }
        }
        if (json != null) {
            try {
                AtomicFile.writeString(json, Json.writePretty(results));
            } catch (IOException e) {
                throw new UserError("cannot write " + json + ": " + e.getMessage(), e);
            }
            System.err.println("Wrote " + json);
        }
        return 0;
    }
}
