package dev.jgrad.bench;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * Runs the JMH benchmarks and reports them under DESIGN.md's keys and units: W1 in GFLOP/s, W2-W6, W8 and W9 in
 * milliseconds, W7 in microseconds, plus the thread count and the JDK.
 */
public final class BenchRunner {
    /** Run lengths: quick (about 8 minutes per thread count) or full (several forks, for a usable error). */
    public enum Length { QUICK, FULL }

    private BenchRunner() {
    }

    /**
     * One benchmark method and the key it reports under, in DESIGN.md's units: W1 in GFLOP/s (its key
     * holds N), the others in milliseconds, W7 in microseconds.
     */
    private record Workload(String method, String key, Unit unit) {
        /** The key with W1's size filled in. */
        String key(RunResult r) {
            String k = unit == Unit.GFLOPS ? key.replace(".N.", "." + r.getParams().getParam("n") + ".") : key;
            for (String p : r.getParams().getParamsKeys()) {
                k = k.replace("{" + p + "}", r.getParams().getParam(p));
            }
            return k;
        }
    }

    private enum Unit { GFLOPS, MS, US }

    private static final List<Workload> WORKLOADS = List.of(
            new Workload("w1Matmul", "W1.matmul.N.gflops", Unit.GFLOPS),
            new Workload("w1MatmulScoped", "W1.matmul.N.scoped.gflops", Unit.GFLOPS),
            new Workload("w2BroadcastAdd", "W2.broadcast_add.1024x1024+1024.ms", Unit.MS),
            new Workload("w2OuterSub", "W2.outer_sub.256x1x64-1x256x64.ms", Unit.MS),
            new Workload("w2BroadcastAddScoped", "W2.broadcast_add.1024x1024+1024.scoped.ms", Unit.MS),
            new Workload("w2OuterSubScoped", "W2.outer_sub.256x1x64-1x256x64.scoped.ms", Unit.MS),
            new Workload("w3SumDim1Keepdim", "W3.sum_dim1_keepdim.1024x1024.ms", Unit.MS),
            new Workload("w4Softmax", "W4.softmax.256x1024.ms", Unit.MS),
            new Workload("w4SoftmaxScoped", "W4.softmax.256x1024.scoped.ms", Unit.MS),
            new Workload("w5MlpTrainStep", "W5.mlp_train_step.64-256-256-1.b64.ms", Unit.MS),
            new Workload("w5MlpTrainStepScoped", "W5.mlp_train_step.64-256-256-1.b64.scoped.ms", Unit.MS),
            new Workload("w6MhaFwdBwd", "W6.mha_fwd_bwd.B8.T64.E128.H4.ms", Unit.MS),
            new Workload("w6MhaFwdBwdScoped", "W6.mha_fwd_bwd.B8.T64.E128.H4.scoped.ms", Unit.MS),
            new Workload("w7TinyTrainStep", "W7.tiny_mlp_train_step.2-16-1.b16.us", Unit.US),
            new Workload("w8ConvFwdBwd", "W8.conv_relu_pool_conv_fwd_bwd.b64.1x28x28.ms", Unit.MS),
            new Workload("w8ConvFwdBwdScoped", "W8.conv_relu_pool_conv_fwd_bwd.b64.1x28x28.scoped.ms", Unit.MS),
            new Workload("w9LstmFwdBwd", "W9.lstm_fwd_bwd.64-128.T32.B32.ms", Unit.MS),
            new Workload("w9LstmFwdBwdScoped", "W9.lstm_fwd_bwd.64-128.T32.B32.scoped.ms", Unit.MS),
            new Workload("w10WganGpPenaltyGrad", "W10.wgan_gp_penalty_grad.64-256-1.b64.ms", Unit.MS),
            new Workload("w11MlpHvp", "W11.mlp_hvp.64-256-1.b64.ms", Unit.MS),
            new Workload("w12GptTrainStep", "W12.gpt_train_step.B12.T64.L4.H4.E128.ms", Unit.MS),
            new Workload("w12GptTrainStepScoped", "W12.gpt_train_step.B12.T64.L4.H4.E128.scoped.ms", Unit.MS),
            new Workload("w13GptGenerate256", "W13.gpt_generate.256_tokens.ms", Unit.MS),
            new Workload("d1RingAllReduce", "D1.ring_allreduce.N2.loopback.{mb}MB.ms", Unit.MS),
            new Workload("sSingleOp", "S1.{op}.us", Unit.US));

    /**
     * The benchmark methods whose name or key contains a match of {@code regex}, ignoring case
     * ({@code W2}, {@code softmax}, {@code w1Matmul|W4}); for null, the workloads W1-W13 (D1, the all-reduce of
     * data-parallel training, and S1, the single ops of {@link SingleOps}, run only when named).
     *
     * @throws IllegalArgumentException naming the choices when the regex is malformed or matches nothing
     */
    public static List<String> select(String regex) {
        if (regex == null) {
            return WORKLOADS.stream().filter(w -> w.key.startsWith("W")).map(Workload::method).collect(Collectors.toList());
        }
        Pattern p;
        try {
            p = Pattern.compile(regex, Pattern.CASE_INSENSITIVE);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("--only '" + regex + "' is not a regular expression: " + e.getDescription());
        }
        List<String> chosen = WORKLOADS.stream().filter(w -> p.matcher(w.method).find() || p.matcher(w.key).find())
                .map(Workload::method).collect(Collectors.toList());
        if (chosen.isEmpty()) {
            throw new IllegalArgumentException("--only '" + regex + "' matches no benchmark; they are: "
                    + WORKLOADS.stream().map(w -> w.method + " (" + w.key + ")").collect(Collectors.joining(", ")));
        }
        return chosen;
    }

    /**
     * The benchmarks that need a longer warm-up than the rest: the GPT step runs much of its code (the optimizer, the
     * autograd's bookkeeping, the loss) once a step, a few dozen times a second, so the JIT reaches it last and the
     * step keeps getting faster for about twenty seconds. PyTorch's figure is its steady state, so jgrad's is too; the
     * warm-up of a whole run is in the nanoGPT run's time (docs/performance.md).
     */
    static final List<String> SLOW_TO_WARM = List.of("w12GptTrainStep", "w12GptTrainStepScoped");

    /**
     * The single large ops, which run at the speed of the caches the machine's tenants share and of where the heap put
     * their arrays: from one JVM to the next, forks of the same op settle at speeds as far as 2x apart (both threads'
     * shares slower alike, in the same compiled code; docs/performance.md, "W2's add from one JVM to the next"). So in a
     * quick run each gets three short forks and its figure is the median of their iterations, where one fork would give
     * whichever speed it drew.
     */
    static final List<String> MEMORY_BOUND = List.of("w2BroadcastAdd", "w2OuterSub", "w2BroadcastAddScoped",
            "w2OuterSubScoped", "w3SumDim1Keepdim", "w4Softmax", "w4SoftmaxScoped");

    /** How a group of benchmarks is run: its warm-up and, in a quick run, its forks. */
    enum Group { USUAL, SLOW_TO_WARM, MEMORY_BOUND }

    /** The group {@code method} runs in. */
    static Group group(String method) {
        return SLOW_TO_WARM.contains(method) ? Group.SLOW_TO_WARM : MEMORY_BOUND.contains(method) ? Group.MEMORY_BOUND : Group.USUAL;
    }

    /** Runs the benchmark methods {@link #select} chose and reports them under DESIGN.md's keys. */
    public static Map<String, Object> run(Length length, int threads, List<String> chosen, boolean verbose) throws RunnerException {
        List<RunResult> results = new ArrayList<>();
        for (Group g : Group.values()) {
            List<String> methods = chosen.stream().filter(m -> group(m) == g).collect(Collectors.toList());
            if (!methods.isEmpty()) {
                results.addAll(runJmh(length, threads, methods, g, verbose));
            }
        }
        return report(results, threads, length);
    }

    /** One JMH run of {@code methods}, with the warm-up and forks their group needs. */
    private static Collection<RunResult> runJmh(Length length, int threads, List<String> methods, Group group, boolean verbose)
            throws RunnerException {
        ChainedOptionsBuilder b = new OptionsBuilder()
                .include(Pattern.quote(Benchmarks.class.getName() + ".") + "(" + String.join("|", methods) + ")$")
                .jvmArgsPrepend(jvmArgs(threads))
                .threads(1)
                .shouldFailOnError(true)
                .verbosity(verbose ? VerboseMode.NORMAL : VerboseMode.SILENT)
                // Bytes allocated per call (every thread's, as the JVM counts them): W2 shows that only
                // the result is allocated, W7 what a whole training step costs the collector.
                .addProfiler(GCProfiler.class);
        boolean slowToWarm = group == Group.SLOW_TO_WARM;
        if (length == Length.QUICK && group == Group.MEMORY_BOUND) {
            // One kernel each, at speed after two or three of these iterations; the forks are what the figure needs.
            b.forks(3).warmupIterations(6).warmupTime(TimeValue.milliseconds(800))
                    .measurementIterations(5).measurementTime(TimeValue.milliseconds(500));
        } else if (length == Length.QUICK) {
            // The Vector API kernels need a few seconds of JIT before they run at speed: a training step (W5) still got
            // faster through the measurement after six warm-up iterations of 0.8 s, and has settled after ten.
            b.forks(1).warmupIterations(slowToWarm ? 30 : 10).warmupTime(TimeValue.milliseconds(800))
                    .measurementIterations(5).measurementTime(TimeValue.milliseconds(500));
        } else {
            b.forks(3).warmupIterations(slowToWarm ? 24 : 5).warmupTime(TimeValue.seconds(1))
                    .measurementIterations(5).measurementTime(TimeValue.seconds(1));
        }
        return new Runner(b.build()).run();
    }

    private static String[] forks;

    /**
     * The forks' {jdk, kernels}, asked once per run: they depend on the java and its flags, not on the thread count, which
     * is the one flag that differs between a run's forks.
     */
    private static synchronized String[] forks() {
        if (forks == null) {
            forks = ForkJvm.describe(jvmArgs(1));
        }
        return forks;
    }

    /** The results under DESIGN.md's keys, with the thread count, the forks' JDK and kernels, and the run's length. */
    private static Map<String, Object> report(Collection<RunResult> results, int threads, Length length) {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Double> byKey = new TreeMap<>(REPORT_ORDER);
        Map<String, Double> errors = new TreeMap<>(REPORT_ORDER);
        Map<String, Double> allocated = new TreeMap<>(REPORT_ORDER);
        for (RunResult r : results) {
            String method = r.getParams().getBenchmark();
            method = method.substring(method.lastIndexOf('.') + 1);
            double us = typicalMicros(r.getPrimaryResult());
            double err = r.getPrimaryResult().getScoreError();
            for (Workload w : WORKLOADS) {
                if (!w.method.equals(method)) {
                    continue;
                }
                String key = w.key(r);
                Result<?> bytes = r.getSecondaryResults().get("gc.alloc.rate.norm");
                if (bytes != null) {
                    // The same key less its unit: the value is in bytes.
                    allocated.put(key.substring(0, key.lastIndexOf('.')), bytes.getScore());
                }
                if (w.unit == Unit.GFLOPS) {
                    int n = Integer.parseInt(r.getParams().getParam("n"));
                    double gflops = 2.0 * n * n * n / (us * 1e-6) / 1e9;
                    byKey.put(key, gflops);
                    errors.put(key, Double.isNaN(err) ? Double.NaN : gflops * err / us);
                } else {
                    double perUnit = w.unit == Unit.MS ? 1e3 : 1;
                    byKey.put(key, us / perUnit);
                    errors.put(key, err / perUnit);
                }
            }
        }
        out.putAll(byKey);
        out.put("threads", threads);
        String[] fork = forks();
        out.put("jdk", fork[0]);
        out.put("kernels", fork[1]);
        out.put("mode", length.name().toLowerCase(java.util.Locale.ROOT));
        Map<String, Object> err = new LinkedHashMap<>();
        errors.forEach((k, e) -> {
            if (Double.isFinite(e)) {
                err.put(k, e);
            }
        });
        out.put("error_99pct", err);
        out.put("allocated_bytes_per_call", allocated);
        return out;
    }

    /**
     * A benchmark's figure: the median of its measurement iterations (over every fork), the statistic
     * {@code bench/pytorch/workloads.py} reports for PyTorch, rather than JMH's mean, so the two sides are read alike
     * and an iteration that the shared machine slowed does not move the figure.
     */
    static double typicalMicros(Result<?> primary) {
        return primary.getStatistics().getN() > 0 ? primary.getStatistics().getPercentile(50) : primary.getScore();
    }

    /**
     * Runs the chosen benchmarks at each thread count, one count after the other, so each workload can be
     * quoted at its best: the top-level keys hold the best value (highest GFLOP/s, lowest time),
     * {@code best_threads} the count that gave it, and {@code by_threads} every run in full.
     */
    public static Map<String, Object> runAtEach(Length length, List<Integer> threadCounts, List<String> chosen, boolean verbose)
            throws RunnerException {
        Map<String, Object> byThreads = new LinkedHashMap<>();
        for (int t : threadCounts) {
            byThreads.put(Integer.toString(t), run(length, t, chosen, verbose));
        }
        return best(byThreads);
    }

    /** Merges runs at several thread counts (keyed by the count) into the best of each workload. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> best(Map<String, Object> byThreads) {
        Map<String, Double> best = new TreeMap<>(REPORT_ORDER);
        Map<String, Object> bestThreads = new TreeMap<>(REPORT_ORDER);
        Map<String, Object> any = null;
        for (Map.Entry<String, Object> run : byThreads.entrySet()) {
            Map<String, Object> r = (Map<String, Object>) run.getValue();
            any = r;
            for (Map.Entry<String, Object> e : r.entrySet()) {
                if (!(e.getValue() instanceof Double) || !(e.getKey().startsWith("W") || e.getKey().startsWith("S1."))) {
                    continue;
                }
                double v = (Double) e.getValue();
                Double old = best.get(e.getKey());
                boolean higherIsBetter = e.getKey().endsWith(".gflops");
                if (old == null || (higherIsBetter ? v > old : v < old)) {
                    best.put(e.getKey(), v);
                    bestThreads.put(e.getKey(), Long.parseLong(run.getKey()));
                }
            }
        }
        Map<String, Object> out = new LinkedHashMap<>(best);
        out.put("threads", byThreads.keySet().stream().map(Long::parseLong).collect(Collectors.toList()));
        out.put("best_threads", bestThreads);
        if (any != null) {
            out.put("jdk", any.get("jdk"));
            out.put("kernels", any.get("kernels"));
            out.put("mode", any.get("mode"));
        }
        out.put("by_threads", byThreads);
        return out;
    }

    /**
     * The forks' JVM flags: the Vector API, the trap limit and the young generation the launcher sets (docs/performance.md,
     * "JVM flags"), a fixed heap, the kernel threads, and JGRAD_BENCH_JVM_ARGS for experiments.
     */
    static String[] jvmArgs(int threads) {
        return jvmArgs(threads, System.getenv("JGRAD_BENCH_JVM_ARGS"));
    }

    /** {@link #jvmArgs(int)} with {@code extra} (flags separated by spaces, or null) in place of JGRAD_BENCH_JVM_ARGS. */
    static String[] jvmArgs(int threads, String extra) {
        return jvmArgs(threads, extra, Runtime.version().feature());
    }

    /**
     * {@link #jvmArgs(int, String)} for forks run by a JDK of this feature release (they run the runner's java). From
     * JDK 24 on, JMH's own use of sun.misc.Unsafe makes every fork print three lines of warnings unless the flag that
     * JDK 23 introduced allows it; JDK 17 refuses to start with that flag.
     */
    static String[] jvmArgs(int threads, String extra, int jdkFeature) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("--add-modules", "jdk.incubator.vector",
                "-XX:PerMethodTrapLimit=10000", "-XX:Tier3DelayOn=100000", "-Xms2g", "-Xmx2g", "-Xmn128m", "-XX:+UseParallelGC",
                "-Djgrad.threads=" + threads));
        if (jdkFeature >= 23) {
            args.add("--sun-misc-unsafe-memory-access=allow");
        }
        if (extra != null && !extra.isBlank()) {
            args.addAll(java.util.List.of(extra.trim().split("\\s+")));
        }
        return args.toArray(new String[0]);
    }

    /**
     * DESIGN.md's order of the result keys: by workload, and W1's sizes from small to large (JMH reports
     * them sorted as strings, 1024 before 128).
     */
    static final Comparator<String> REPORT_ORDER = Comparator.comparingInt(BenchRunner::workloadNumber)
            .thenComparing((String k) -> k.substring(0, Math.max(0, k.indexOf('.'))))
            .thenComparingInt(k -> k.startsWith("W1.") ? Integer.parseInt(k.split("\\.")[2]) : 0)
            .thenComparing(Comparator.naturalOrder());

    /** The n of a key "Wn.…" (W10 after W9, not after W1); keys of another form sort last. */
    private static int workloadNumber(String key) {
        int dot = key.indexOf('.');
        if (!key.startsWith("W") || dot < 2) {
            return Integer.MAX_VALUE;
        }
        try {
            return Integer.parseInt(key.substring(1, dot));
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }
}
