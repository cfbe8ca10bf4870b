package dev.jgrad.bench;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.Aggregator;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.util.ListStatistics;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchRunnerTest {
    @Test
    void resultsComeInDesignOrderWhateverOrderJmhReportsThem() {
        List<String> design = List.of(
                "W1.matmul.128.gflops", "W1.matmul.128.scoped.gflops", "W1.matmul.256.gflops", "W1.matmul.256.scoped.gflops",
                "W1.matmul.512.gflops", "W1.matmul.512.scoped.gflops", "W1.matmul.1024.gflops", "W1.matmul.1024.scoped.gflops",
                "W2.broadcast_add.1024x1024+1024.ms", "W2.broadcast_add.1024x1024+1024.scoped.ms", "W2.outer_sub.256x1x64-1x256x64.ms",
                "W2.outer_sub.256x1x64-1x256x64.scoped.ms", "W3.sum_dim1_keepdim.1024x1024.ms",
                "W4.softmax.256x1024.ms", "W4.softmax.256x1024.scoped.ms", "W5.mlp_train_step.64-256-256-1.b64.ms",
                "W5.mlp_train_step.64-256-256-1.b64.scoped.ms", "W6.mha_fwd_bwd.B8.T64.E128.H4.ms", "W6.mha_fwd_bwd.B8.T64.E128.H4.scoped.ms",
                "W7.tiny_mlp_train_step.2-16-1.b16.us", "W8.conv_relu_pool_conv_fwd_bwd.b64.1x28x28.ms",
                "W8.conv_relu_pool_conv_fwd_bwd.b64.1x28x28.scoped.ms", "W9.lstm_fwd_bwd.64-128.T32.B32.ms",
                "W9.lstm_fwd_bwd.64-128.T32.B32.scoped.ms", "W10.wgan_gp_penalty_grad.64-256-1.b64.ms", "W11.mlp_hvp.64-256-1.b64.ms",
                "W12.gpt_train_step.B12.T64.L4.H4.E128.ms", "W12.gpt_train_step.B12.T64.L4.H4.E128.scoped.ms",
                "W13.gpt_generate.256_tokens.ms");
        List<String> jmhOrder = new ArrayList<>(design);
        jmhOrder.sort(String::compareTo);
        assertEquals("W1.matmul.1024.gflops", jmhOrder.get(0));
        List<String> sorted = new ArrayList<>(jmhOrder);
        sorted.sort(BenchRunner.REPORT_ORDER);
        assertEquals(design, sorted);
    }

    /** A benchmark's primary result made of given iteration times, as JMH hands it over. */
    private static final class Iterations extends Result<Iterations> {
        Iterations(double... micros) {
            super(ResultRole.PRIMARY, "w", new ListStatistics(micros), "us/op", AggregationPolicy.AVG);
        }

        @Override
        protected Aggregator<Iterations> getThreadAggregator() {
            throw new UnsupportedOperationException();
        }

        @Override
        protected Aggregator<Iterations> getIterationAggregator() {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void aFigureIsTheMedianOfItsIterationsAsPyTorchsIs() {
        // Five iterations, one slowed by the machine: JMH's mean says 17.2 us, workloads.py's statistic 12.
        Iterations primary = new Iterations(11, 13, 10, 40, 12);
        assertEquals(17.2, primary.getScore(), 1e-9);
        assertEquals(12.0, BenchRunner.typicalMicros(primary), 1e-9);
    }

    @Test
    void onlyMatchesMethodsOrKeysIgnoringCase() {
        assertEquals(List.of("w2BroadcastAdd", "w2OuterSub", "w2BroadcastAddScoped", "w2OuterSubScoped", "w4Softmax", "w4SoftmaxScoped"),
                BenchRunner.select("W2|softmax"));
        assertEquals(List.of("w1Matmul", "w1MatmulScoped"), BenchRunner.select("w1matmul"));
        assertEquals(List.of("w6MhaFwdBwd", "w6MhaFwdBwdScoped"), BenchRunner.select("mha_fwd"));
        assertEquals(23, BenchRunner.select(null).size());
        assertEquals(List.of("d1RingAllReduce"), BenchRunner.select("D1"));
        assertEquals(List.of("sSingleOp"), BenchRunner.select("S1"));
        assertEquals(List.of("w8ConvFwdBwd", "w8ConvFwdBwdScoped", "w9LstmFwdBwd", "w9LstmFwdBwdScoped"), BenchRunner.select("W8|lstm"));
    }

    @Test
    void onlyThatMatchesNothingOrIsNoRegexNamesTheChoices() {
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> BenchRunner.select("conv3d"));
        assertTrue(none.getMessage().contains("'conv3d' matches no benchmark") && none.getMessage().contains("w4Softmax (W4.softmax.256x1024.ms)"),
                none.getMessage());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> BenchRunner.select("W2("));
        assertTrue(bad.getMessage().contains("not a regular expression"), bad.getMessage());
    }

    @Test
    void everyBenchmarkMethodHasAKey() {
        List<String> methods = new ArrayList<>();
        for (java.lang.reflect.Method m : Benchmarks.class.getMethods()) {
            if (m.isAnnotationPresent(org.openjdk.jmh.annotations.Benchmark.class)) {
                methods.add(m.getName());
            }
        }
        methods.sort(String::compareTo);
        List<String> known = new ArrayList<>(BenchRunner.select(null));
        known.addAll(BenchRunner.select("D1"));
        known.addAll(BenchRunner.select("S1"));
        known.sort(String::compareTo);
        assertEquals(known, methods, "a benchmark without a key would run and never be reported");
        assertTrue(known.containsAll(BenchRunner.SLOW_TO_WARM), "a misspelt slow-to-warm benchmark would get the short warm-up");
        assertTrue(known.containsAll(BenchRunner.MEMORY_BOUND), "a misspelt memory-bound benchmark would get one fork");
    }

    /** The forks compile the kernels as the launcher's runs do: its JIT_FLAGS line (docs/performance.md, "JVM flags"). */
    @Test
    void forksPassTheLaunchersJitFlags() throws Exception {
        java.nio.file.Path launcher = java.nio.file.Path.of("..", "jgrad");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^JIT_FLAGS=\"([^\"]+)\"$").matcher(java.nio.file.Files.readString(launcher));
        assertTrue(m.find(), "the launcher " + launcher + " has no JIT_FLAGS=\"...\" line");
        for (int jdk : new int[] {17, 25}) {
            List<String> args = List.of(BenchRunner.jvmArgs(1, null, jdk));
            for (String flag : m.group(1).trim().split("\\s+")) {
                assertTrue(args.contains(flag), "the forks of a JDK " + jdk + " run lack the launcher's " + flag + ": " + args);
            }
        }
    }

    @Test
    void forksOfJdk23AndLaterAllowJmhsUnsafeWithoutWarningsAndJdk17ForksStart() {
        String flag = "--sun-misc-unsafe-memory-access=allow";
        assertTrue(List.of(BenchRunner.jvmArgs(2, null, 25)).contains(flag));
        assertFalse(List.of(BenchRunner.jvmArgs(2, null, 17)).contains(flag), "JDK 17 refuses to start with " + flag);
        List<String> extra = List.of(BenchRunner.jvmArgs(2, "-XX:UseAVX=2", 17));
        assertEquals("-XX:UseAVX=2", extra.get(extra.size() - 1), "the experiment's flags come last, so they win");
        assertTrue(extra.contains("-Djgrad.threads=2"));
    }

    @Test
    void eachBenchmarkRunsInOneGroupWithTheWarmUpItNeeds() {
        assertEquals(BenchRunner.Group.SLOW_TO_WARM, BenchRunner.group("w12GptTrainStepScoped"));
        assertEquals(BenchRunner.Group.MEMORY_BOUND, BenchRunner.group("w2BroadcastAddScoped"));
        assertEquals(BenchRunner.Group.MEMORY_BOUND, BenchRunner.group("w4Softmax"));
        assertEquals(BenchRunner.Group.USUAL, BenchRunner.group("w1Matmul"));
        assertEquals(BenchRunner.Group.USUAL, BenchRunner.group("w9LstmFwdBwdScoped"));
        for (String m : BenchRunner.SLOW_TO_WARM) {
            assertFalse(BenchRunner.MEMORY_BOUND.contains(m), m + " is in two groups");
        }
    }

    @Test
    void bestKeepsTheHighestGflopsAndTheLowestTimeWithTheThreadCountThatGaveIt() {
        java.util.Map<String, Object> one = new java.util.LinkedHashMap<>();
        one.put("W1.matmul.128.gflops", 90.0);
        one.put("W6.mha_fwd_bwd.B8.T64.E128.H4.ms", 7.0);
        one.put("threads", 1);
        one.put("mode", "quick");
        java.util.Map<String, Object> two = new java.util.LinkedHashMap<>();
        two.put("W1.matmul.128.gflops", 150.0);
        two.put("W6.mha_fwd_bwd.B8.T64.E128.H4.ms", 9.0);
        two.put("threads", 2);
        two.put("mode", "quick");
        java.util.Map<String, Object> runs = new java.util.LinkedHashMap<>();
        runs.put("1", one);
        runs.put("2", two);
        java.util.Map<String, Object> best = BenchRunner.best(runs);
        assertEquals(150.0, best.get("W1.matmul.128.gflops"));
        assertEquals(7.0, best.get("W6.mha_fwd_bwd.B8.T64.E128.H4.ms"));
        assertEquals(java.util.Map.of("W1.matmul.128.gflops", 2L, "W6.mha_fwd_bwd.B8.T64.E128.H4.ms", 1L), best.get("best_threads"));
        assertEquals(List.of(1L, 2L), best.get("threads"));
        assertEquals(runs, best.get("by_threads"));
        assertEquals("quick", best.get("mode"));
    }

    /** Every single op the benchmark names builds and runs, and the PyTorch script times the same names under the same keys. */
    @Test
    void everySingleOpRunsAndHasItsPyTorchTwin() throws Exception {
        String[] names = SingleOps.class.getField("op").getAnnotation(org.openjdk.jmh.annotations.Param.class).value();
        String script = java.nio.file.Files.readString(java.nio.file.Path.of("pytorch/workloads.py"));
        for (String name : names) {
            assertTrue(SingleOps.of(name).get().numel() > 0, name);
            assertTrue(script.contains("\"" + name + "\": lambda"), "workloads.py --ops lacks " + name);
        }
        assertEquals(40, names.length);
        assertThrows(IllegalArgumentException.class, () -> SingleOps.of("conv3d"));
    }
}
