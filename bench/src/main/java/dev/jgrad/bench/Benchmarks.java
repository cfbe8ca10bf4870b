package dev.jgrad.bench;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Memory;
import dev.jgrad.tensor.Tensor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;

/**
 * JMH benchmarks of the workloads W1-W9 of DESIGN.md, shapes and steps exactly as written there, of W10-W11 (higher
 * order) and W12-W13 (nanoGPT's baby GPT: a training step, 256 tokens generated), with
 * seeded inputs. Each returns its result so JMH sinks it (no dead-code elimination). Forks, warm-up and
 * measurement are set by {@link BenchRunner} (quick or full), with a fixed heap.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class Benchmarks {
    /** A call in a Memory.scope() of its own, as a training step runs: its tensors' arrays are recycled. */
    private static int scoped(IntSupplier call) {
        try (Memory.Scope scope = Memory.scope()) {
            return call.getAsInt();
        }
    }

    private static double scoped(DoubleSupplier call) {
        try (Memory.Scope scope = Memory.scope()) {
            return call.getAsDouble();
        }
    }

    /** W1: float32 (N,N) @ (N,N). */
    @State(Scope.Benchmark)
    public static class Matmul {
        @Param({"128", "256", "512", "1024"})
        public int n;
        Tensor a;
        Tensor b;

        @Setup
        public void setUp() {
            Generator g = new Generator(1);
            a = Tensor.randn(g, n, n);
            b = Tensor.randn(g, n, n);
        }
    }

    @Benchmark
    public Tensor w1Matmul(Matmul s) {
        return s.a.matmul(s.b);
    }

    /**
     * W1 as a training step runs it: one Memory.scope() per call, so the product is written into a recycled array
     * instead of a new one the JVM zeroes first.
     */
    @Benchmark
    public int w1MatmulScoped(Matmul s) {
        return scoped(() -> s.a.matmul(s.b).storageOffset());
    }

    /** W2-W4 inputs. */
    @State(Scope.Benchmark)
    public static class Arrays {
        Tensor x;
        Tensor v;
        Tensor p;
        Tensor q;
        Tensor logits;

        @Setup
        public void setUp() {
            Generator g = new Generator(2);
            x = Tensor.randn(g, 1024, 1024);
            v = Tensor.randn(g, 1024);
            p = Tensor.randn(g, 256, 1, 64);
            q = Tensor.randn(g, 1, 256, 64);
            logits = Tensor.randn(g, 256, 1024);
        }
    }

    @Benchmark
    public Tensor w2BroadcastAdd(Arrays s) {
        return s.x.add(s.v);
    }

    @Benchmark
    public Tensor w2OuterSub(Arrays s) {
        return s.p.sub(s.q);
    }

    /** W2 as a training step would run it: one Memory.scope() per call, so the result's array is recycled. */
    @Benchmark
    public int w2BroadcastAddScoped(Arrays s) {
        return scoped(() -> s.x.add(s.v).storageOffset());
    }

    @Benchmark
    public int w2OuterSubScoped(Arrays s) {
        return scoped(() -> s.p.sub(s.q).storageOffset());
    }

    @Benchmark
    public Tensor w3SumDim1Keepdim(Arrays s) {
        return s.x.sum(1, true);
    }

    @Benchmark
    public Tensor w4Softmax(Arrays s) {
        return s.logits.softmax(-1);
    }

    @Benchmark
    public int w4SoftmaxScoped(Arrays s) {
        return scoped(() -> s.logits.softmax(-1).storageOffset());
    }

    @State(Scope.Benchmark)
    public static class Mlp {
        Workloads.MlpStep w;

        @Setup
        public void setUp() {
            w = new Workloads.MlpStep(5);
        }
    }

    @Benchmark
    public double w5MlpTrainStep(Mlp s) {
        return s.w.step();
    }

    /** W5 as Trainer.fit runs it: the step in a Memory.scope() of its own. */
    @Benchmark
    public double w5MlpTrainStepScoped(Mlp s) {
        return scoped(s.w::step);
    }

    @State(Scope.Benchmark)
    public static class Mha {
        Workloads.MhaStep w;

        @Setup
        public void setUp() {
            w = new Workloads.MhaStep(6);
        }
    }

    @Benchmark
    public double w6MhaFwdBwd(Mha s) {
        return s.w.step();
    }

    @Benchmark
    public double w6MhaFwdBwdScoped(Mha s) {
        return scoped(s.w::step);
    }

    @State(Scope.Benchmark)
    public static class Tiny {
        Workloads.TinyStep w;

        @Setup
        public void setUp() {
            w = new Workloads.TinyStep(7);
        }
    }

    @Benchmark
    public double w7TinyTrainStep(Tiny s) {
        return s.w.step();
    }

    @State(Scope.Benchmark)
    public static class Conv {
        Workloads.ConvStep w;

        @Setup
        public void setUp() {
            w = new Workloads.ConvStep(8);
        }
    }

    @Benchmark
    public double w8ConvFwdBwd(Conv s) {
        return s.w.step();
    }

    @Benchmark
    public double w8ConvFwdBwdScoped(Conv s) {
        return scoped(s.w::step);
    }

    @State(Scope.Benchmark)
    public static class Lstm {
        Workloads.LstmStep w;

        @Setup
        public void setUp() {
            w = new Workloads.LstmStep(9);
        }
    }

    @Benchmark
    public double w9LstmFwdBwd(Lstm s) {
        return s.w.step();
    }

    @Benchmark
    public double w9LstmFwdBwdScoped(Lstm s) {
        return scoped(s.w::step);
    }

    @State(Scope.Benchmark)
    public static class WganGp {
        Workloads.WganGpStep w;

        @Setup
        public void setUp() {
            w = new Workloads.WganGpStep(10);
        }
    }

    @Benchmark
    public double w10WganGpPenaltyGrad(WganGp s) {
        return s.w.step();
    }

    @State(Scope.Benchmark)
    public static class Hvp {
        Workloads.HvpStep w;

        @Setup
        public void setUp() {
            w = new Workloads.HvpStep(11);
        }
    }

    @Benchmark
    public double w11MlpHvp(Hvp s) {
        return s.w.step();
    }

    @State(Scope.Benchmark)
    public static class Gpt {
        Workloads.GptTrainStep train;
        Workloads.GptGenerate sample;

        @Setup
        public void setUp() {
            train = new Workloads.GptTrainStep(12);
            sample = new Workloads.GptGenerate(13);
        }
    }

    @Benchmark
    public double w12GptTrainStep(Gpt s) {
        return s.train.step();
    }

    @Benchmark
    public double w12GptTrainStepScoped(Gpt s) {
        return scoped(s.train::step);
    }

    @Benchmark
    public Object w13GptGenerate256(Gpt s) {
        return s.sample.generate();
    }

    /** D1: the ring all-reduce of data-parallel training, two workers on loopback, each summing an array of {@code mb} MB. */
    @State(Scope.Benchmark)
    public static class AllReduce {
        @Param({"1", "3.2", "32"})
        public String mb;
        dev.jgrad.train.parallel.RingAllReduce zero;
        dev.jgrad.train.parallel.RingAllReduce one;
        float[] a;
        float[] b;
        final java.util.concurrent.Semaphore go = new java.util.concurrent.Semaphore(0);
        final java.util.concurrent.Semaphore done = new java.util.concurrent.Semaphore(0);
        Thread partner;

        @Setup
        public void setUp() throws Exception {
            int floats = (int) (Double.parseDouble(mb) * (1 << 20) / 4);
            a = new float[floats];
            b = new float[floats];
            java.nio.channels.ServerSocketChannel s0 = java.nio.channels.ServerSocketChannel.open()
                    .bind(new java.net.InetSocketAddress("127.0.0.1", 0));
            java.nio.channels.ServerSocketChannel s1 = java.nio.channels.ServerSocketChannel.open()
                    .bind(new java.net.InetSocketAddress("127.0.0.1", 0));
            java.util.List<java.net.InetSocketAddress> at = java.util.List.of((java.net.InetSocketAddress) s0.getLocalAddress(),
                    (java.net.InetSocketAddress) s1.getLocalAddress());
            java.time.Duration t = java.time.Duration.ofSeconds(60);
            java.util.concurrent.FutureTask<dev.jgrad.train.parallel.RingAllReduce> second = new java.util.concurrent.FutureTask<>(
                    () -> dev.jgrad.train.parallel.RingAllReduce.join(1, at, s1, t));
            new Thread(second).start();
            zero = dev.jgrad.train.parallel.RingAllReduce.join(0, at, s0, t);
            one = second.get();
            partner = new Thread(() -> {
                try {
                    while (true) {
                        go.acquire();
                        one.sum(b);
                        done.release();
                    }
                } catch (Exception e) {
                    // Stopped by the teardown.
                }
            });
            partner.setDaemon(true);
            partner.start();
        }

        @TearDown
        public void tearDown() throws Exception {
            partner.interrupt();
            zero.close();
            one.close();
        }
    }

    /** A single op of {@link SingleOps} in a scope of its own. */
    @Benchmark
    public int sSingleOp(SingleOps s) {
        return scoped(() -> s.call.get().storageOffset());
    }

    @Benchmark
    public float[] d1RingAllReduce(AllReduce s) throws Exception {
        s.go.release();
        s.zero.sum(s.a);
        s.done.acquire();
        return s.a;
    }
}
