package dev.jgrad.train;

import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.BatchNorm2d;
import dev.jgrad.nn.Conv2d;
import dev.jgrad.nn.Flatten;
import dev.jgrad.nn.Linear;
import dev.jgrad.nn.MaxPool2d;
import dev.jgrad.nn.ReLU;
import dev.jgrad.nn.Losses;
import dev.jgrad.nn.Module;
import dev.jgrad.nn.Parameter;
import dev.jgrad.nn.Sequential;
import dev.jgrad.nn.Tanh;
import dev.jgrad.nn.data.DataLoader;
import dev.jgrad.nn.data.TensorDataset;
import dev.jgrad.nn.gpt.GPT;
import dev.jgrad.nn.gpt.GPTConfig;
import dev.jgrad.nn.optim.Adam;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.train.parallel.RingAllReduce;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Data-parallel training: N workers (threads here) with equal shards end 100 steps or more with the parameters of one process
 * trained on the whole batch, to float32 summation-order tolerance, identical to each other and from run to run.
 */
class DataParallelTest {
    @TempDir
    Path tmp;

    private static final PrintStream QUIET = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @AfterEach
    void forgetStops() {
        Interrupt.reset();
    }

    /** A model, its training, and the parameters after it: built afresh for each worker, from the same seeds. */
    interface Trainer {
        Map<String, Parameter> train(Path dir, RingAllReduce ring);
    }

    private static Map<String, Parameter> mlp(Path dir, RingAllReduce ring) {
        Generator gen = new Generator(3);
        Tensor x = Tensor.randn(gen, 256, 5);
        Tensor y = x.matmul(Tensor.randn(gen, 5, 1)).tanh();
        Sequential net = new Sequential(new Linear(5, 16, true, gen), new Tanh(), new Linear(16, 1, true, gen));
        Fit fit = Fit.of(net, new Adam(net.parameters(), 0.01), new DataLoader(new TensorDataset(x, y), 16, true, 5, false))
                .loss(b -> Losses.mseLoss(net.forward(Variable.of(b.get(0))), Variable.of(b.get(1))))
                .epochs(7).name("mlp").tensorboard(false).out(dir).progress(QUIET, false);
        if (ring != null) {
            fit.dataParallel(ring);
        }
        fit.run(QUIET);
        return net.namedParameters();
    }

    /** Fashion-MNIST's small CNN shape: conv, batch norm (statistics over the whole batch), ReLU, pooling, dropout (the whole batch's mask), linear. */
    private static Map<String, Parameter> cnn(Path dir, RingAllReduce ring) {
        Generator gen = new Generator(5);
        Tensor x = Tensor.randn(gen, 96, 1, 12, 12);
        Tensor labels = x.mean(new int[] {1, 2, 3}, false).gt(0).to(dev.jgrad.tensor.DType.INT64);
        int[] k3 = {3, 3};
        int[] one = {1, 1};
        Sequential net = new Sequential(new Conv2d(1, 4, k3, one, one, one, 1, false, gen), new BatchNorm2d(4), new ReLU(), new MaxPool2d(2),
                new Flatten(), new dev.jgrad.nn.Dropout(0.3, gen), new Linear(4 * 6 * 6, 2, true, gen));
        Fit fit = Fit.of(net, new Adam(net.parameters(), 3e-3), new DataLoader(new TensorDataset(x, labels), 16, true, 5, false))
                .loss(b -> Losses.crossEntropy(net.forward(Variable.of(b.get(0))), b.get(1)))
                .epochs(17).name("cnn").tensorboard(false).out(dir).progress(QUIET, false);
        if (ring != null) {
            fit.dataParallel(ring);
        }
        fit.run(QUIET);
        Map<String, Parameter> p = new java.util.LinkedHashMap<>(net.namedParameters());
        // The running statistics too: they must follow the whole batch's, as one process's do.
        for (Map.Entry<String, Tensor> b : net.namedBuffers().entrySet()) {
            if (b.getValue().isFloatingPoint()) {
                p.put(b.getKey(), new Parameter(b.getValue()));
            }
        }
        return p;
    }

    private static Map<String, Parameter> gpt(Path dir, RingAllReduce ring) {
        GPT model = new GPT(new GPTConfig(16, 11, 2, 2, 16, 0.0, false), new Generator(4));
        // A text with structure to learn: on random tokens the gradients are noise around zero, and Adam, which divides each
        // by its own running size, turns the last bits of that noise (which the order of a sum sets) into whole steps.
        long[] text = new long[4000];
        for (int i = 0; i < text.length; i++) {
            text[i] = (i * 3 + i / 7) % 11;
        }
        Function<Generator, List<Tensor>> draw = g -> {
            long[] x = new long[8 * 16];
            long[] yy = new long[8 * 16];
            for (int r = 0; r < 8; r++) {
                int at = g.nextInt(text.length - 17);
                System.arraycopy(text, at, x, r * 16, 16);
                System.arraycopy(text, at + 1, yy, r * 16, 16);
            }
            return List.of(Tensor.of(x, 8, 16), Tensor.of(yy, 8, 16));
        };
        Fit fit = Fit.of(model, new Adam(model.parameters(), 1e-3), Batches.drawn(new Generator(7), draw))
                .loss(b -> model.loss(b.get(0), b.get(1))).clipGradNorm(1.0)
                .steps(100).evaluateEvery(50).name("gpt").tensorboard(false).out(dir).progress(QUIET, false);
        if (ring != null) {
            fit.dataParallel(ring);
        }
        fit.run(QUIET);
        return model.namedParameters();
    }

    /** Trains {@code n} workers as threads joined in a ring; returns each worker's parameters. */
    private List<Map<String, Parameter>> workers(Trainer t, int n, String tag) throws Exception {
        List<ServerSocketChannel> servers = new ArrayList<>();
        List<InetSocketAddress> at = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            ServerSocketChannel s = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            servers.add(s);
            at.add((InetSocketAddress) s.getLocalAddress());
        }
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<Map<String, Parameter>>> out = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                out.add(pool.submit(() -> {
                    try (RingAllReduce ring = RingAllReduce.join(rank, at, servers.get(rank), Duration.ofSeconds(60))) {
                        return t.train(tmp.resolve(tag + "-worker-" + rank), ring);
                    }
                }));
            }
            List<Map<String, Parameter>> params = new ArrayList<>();
            for (Future<Map<String, Parameter>> f : out) {
                params.add(f.get());
            }
            return params;
        } finally {
            pool.shutdownNow();
            for (ServerSocketChannel s : servers) {
                s.close();
            }
        }
    }

    private void equivalent(Trainer t, String name) throws Exception {
        Map<String, Parameter> alone = t.train(tmp.resolve(name + "-alone"), null);
        List<Map<String, Parameter>> two = workers(t, 2, name + "-a");
        List<Map<String, Parameter>> again = workers(t, 2, name + "-b");
        for (Map.Entry<String, Parameter> e : alone.entrySet()) {
            float[] want = e.getValue().data().toFloatArray();
            float[] got = two.get(0).get(e.getKey()).data().toFloatArray();
            assertArrayEquals(got, two.get(1).get(e.getKey()).data().toFloatArray(), name + " " + e.getKey() + ": the replicas differ");
            assertArrayEquals(got, again.get(0).get(e.getKey()).data().toFloatArray(), name + " " + e.getKey() + ": not the same bits again");
            double scale = 0;
            for (float v : want) {
                scale = Math.max(scale, Math.abs(v));
            }
            for (int i = 0; i < want.length; i++) {
                assertEquals(want[i], got[i], 1e-6 * scale + 1e-7, name + " " + e.getKey() + "[" + i + "]: two workers against one process");
            }
        }
    }

    @Test
    void twoWorkersTrainAnMlpAsOneProcessOnTheWholeBatch() throws Exception {
        equivalent(DataParallelTest::mlp, "mlp");
    }

    @Test
    void twoWorkersTrainACnnWithBatchNormAsOneProcessOnTheWholeBatch() throws Exception {
        equivalent(DataParallelTest::cnn, "cnn");
    }

    @Test
    void twoWorkersTrainAGptAsOneProcessOnTheWholeBatch() throws Exception {
        equivalent(DataParallelTest::gpt, "gpt");
    }

    @Test
    void aBatchTheWorkersDoNotDivideIsRefused() throws Exception {
        Exception e = assertThrows(Exception.class, () -> workers((dir, ring) -> {
            Generator gen = new Generator(1);
            Tensor x = Tensor.randn(gen, 30, 2);
            Module net = new Linear(2, 1, true, gen);
            Fit.of(net, new Adam(net.parameters(), 0.01), new DataLoader(new TensorDataset(x, x.narrow(1, 0, 1)), 15, false, 1, false))
                    .loss(b -> Losses.mseLoss(((Linear) net).forward(Variable.of(b.get(0))), Variable.of(b.get(1))))
                    .epochs(1).name("odd").tensorboard(false).out(dir).progress(QUIET, false).dataParallel(ring).run(QUIET);
            return net.namedParameters();
        }, 2, "odd"));
        assertTrue(String.valueOf(e.getMessage()).contains("--data-parallel 2 must divide the batch, which has 15 rows"), e.getMessage());
    }
}
