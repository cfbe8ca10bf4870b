package dev.jgrad.train.parallel;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ring all-reduce on loopback: workers as threads and as processes, every size of ring and array, a worker that dies. */
class RingAllReduceTest {
    @TempDir
    Path tmp;

    /** Worker r's input: values of several magnitudes, so the order of the additions shows in the low bits. */
    static float[] input(int rank, int length) {
        Random r = new Random(1000L * rank + length);
        float[] a = new float[length];
        for (int i = 0; i < length; i++) {
            a[i] = (float) (r.nextGaussian() * Math.pow(10, r.nextInt(7) - 3));
        }
        return a;
    }

    /** Runs {@code n} workers as threads, each reducing its input {@code rounds} times; returns each worker's result. */
    static float[][] threads(int n, int length, boolean mean, int rounds) throws Exception {
        List<ServerSocketChannel> servers = new ArrayList<>();
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            ServerSocketChannel s = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            servers.add(s);
            addresses.add((InetSocketAddress) s.getLocalAddress());
        }
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<float[]>> out = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                out.add(pool.submit(() -> {
                    try (RingAllReduce ring = RingAllReduce.join(rank, addresses, servers.get(rank), Duration.ofSeconds(20))) {
                        float[] a = input(rank, length);
                        for (int k = 0; k < rounds; k++) {
                            a = input(rank, length);
                            if (mean) {
                                ring.mean(a);
                            } else {
                                ring.sum(a);
                            }
                        }
                        return a;
                    }
                }));
            }
            float[][] results = new float[n][];
            for (int r = 0; r < n; r++) {
                results[r] = out.get(r).get();
            }
            return results;
        } finally {
            pool.shutdownNow();
            for (ServerSocketChannel s : servers) {
                s.close();
            }
        }
    }

    @Test
    void everyWorkerGetsTheSameBitsAndTheSumForEveryRingAndLength() throws Exception {
        for (int n = 1; n <= 5; n++) {
            for (int length : new int[] {0, 1, 3, 7, 1000, 100_003}) {
                float[][] got = threads(n, length, false, 2);
                double[] exact = new double[length];
                double[] magnitude = new double[length];
                for (int r = 0; r < n; r++) {
                    float[] in = input(r, length);
                    for (int i = 0; i < length; i++) {
                        exact[i] += in[i];
                        magnitude[i] += Math.abs(in[i]);
                    }
                }
                for (int r = 1; r < n; r++) {
                    assertArrayEquals(got[0], got[r], n + " workers, " + length + " floats: worker " + r + " differs from worker 0");
                }
                for (int i = 0; i < length; i++) {
                    assertEquals(exact[i], got[0][i], 1e-6 * magnitude[i] + 1e-30, n + " workers, " + length + " floats, element " + i);
                }
                assertArrayEquals(got[0], threads(n, length, false, 1)[0], "the same bits on every run");
            }
        }
    }

    @Test
    void theMeanIsTheSumOverTheWorkers() throws Exception {
        float[][] sum = threads(3, 101, false, 1);
        float[][] mean = threads(3, 101, true, 1);
        for (int i = 0; i < 101; i++) {
            assertEquals(sum[0][i] * (1f / 3), mean[0][i]);
        }
    }

    @Test
    void workersInProcessesGetWhatThreadsGet() throws Exception {
        int n = 2;
        int length = 50_001;
        Path dir = tmp.resolve("rendezvous");
        List<Process> ps = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            ps.add(new ProcessBuilder(javaCommand(Worker.class.getName(), dir.toString(), Integer.toString(r), Integer.toString(n),
                    Integer.toString(length), tmp.resolve("out-" + r).toString())).redirectErrorStream(true)
                    .redirectOutput(tmp.resolve("log-" + r).toFile()).start());
        }
        for (int r = 0; r < n; r++) {
            assertEquals(0, ps.get(r).waitFor(), Files.readString(tmp.resolve("log-" + r)));
        }
        float[] threaded = threads(n, length, false, 1)[0];
        for (int r = 0; r < n; r++) {
            assertArrayEquals(threaded, read(tmp.resolve("out-" + r)), "process " + r);
        }
    }

    @Test
    void aWorkerThatDiesFailsTheOthersWithinTheTimeoutNamingIt() throws Exception {
        ServerSocketChannel s0 = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        ServerSocketChannel s1 = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        List<InetSocketAddress> addresses = List.of((InetSocketAddress) s0.getLocalAddress(), (InetSocketAddress) s1.getLocalAddress());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<RingAllReduce> one = pool.submit(() -> RingAllReduce.join(1, addresses, s1, Duration.ofSeconds(5)));
            try (RingAllReduce zero = RingAllReduce.join(0, addresses, s0, Duration.ofMillis(800))) {
                one.get().close();
                IOException e = assertThrows(IOException.class, () -> zero.sum(new float[1000]));
                assertTrue(e.getMessage().contains("worker 1"), e.getMessage());
            }
            // A worker that never comes: joining fails within the timeout, naming it.
            Callable<RingAllReduce> alone = () -> RingAllReduce.join(0, addresses, s0, Duration.ofMillis(500));
            s1.close();
            Exception e = assertThrows(Exception.class, alone::call);
            assertTrue(e.getMessage().contains("worker 1"), e.getMessage());
        } finally {
            pool.shutdownNow();
            s0.close();
        }
    }

    private static List<String> javaCommand(String main, String... args) {
        // The tests may run on the module path: the child takes it, and these test classes, as its class path.
        String sep = java.io.File.pathSeparator;
        String cp = String.join(sep, System.getProperty("java.class.path", ""), System.getProperty("jdk.module.path", ""),
                Path.of(java.net.URI.create(Worker.class.getProtectionDomain().getCodeSource().getLocation().toString())).toString());
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-cp", cp, main));
        cmd.addAll(Arrays.asList(args));
        return cmd;
    }

    private static float[] read(Path p) throws IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(Files.readAllBytes(p));
        float[] f = new float[b.remaining() / 4];
        b.asFloatBuffer().get(f);
        return f;
    }

    /** A worker process: joins through the folder, sums its input, writes the result. */
    public static final class Worker {
        public static void main(String[] a) throws Exception {
            int rank = Integer.parseInt(a[1]);
            int n = Integer.parseInt(a[2]);
            int length = Integer.parseInt(a[3]);
            try (ServerSocketChannel own = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
                List<InetSocketAddress> all = Rendezvous.viaFolder(Path.of(a[0]), rank, n, (InetSocketAddress) own.getLocalAddress(),
                        Duration.ofSeconds(30));
                try (RingAllReduce ring = RingAllReduce.join(rank, all, own, Duration.ofSeconds(30))) {
                    float[] data = input(rank, length);
                    ring.sum(data);
                    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4 * length);
                    b.asFloatBuffer().put(data);
                    Files.write(Path.of(a[4]), b.array());
                }
            }
        }
    }
}
