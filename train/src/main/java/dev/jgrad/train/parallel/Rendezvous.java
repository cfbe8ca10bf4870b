package dev.jgrad.train.parallel;

import dev.jgrad.nn.io.AtomicFile;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The workers' addresses exchanged once, through a folder all of them see (the local processes of one machine): each
 * writes {@code worker-RANK} holding its host and port, atomically, then waits for the others'. (On Spark the barrier
 * stage's allGather does the same.)
 */
public final class Rendezvous {
    private Rendezvous() {
    }

    /** Publishes {@code mine} as worker {@code rank} of {@code n} in {@code dir} and returns every worker's address, in rank order. */
    public static List<InetSocketAddress> viaFolder(Path dir, int rank, int n, InetSocketAddress mine, Duration timeout) throws IOException {
        return viaFolder(dir, rank, n, mine, timeout, () -> { });
    }

    /** As {@link #viaFolder(Path, int, int, InetSocketAddress, Duration)}, running {@code whileWaiting} (which may throw) as it waits. */
    public static List<InetSocketAddress> viaFolder(Path dir, int rank, int n, InetSocketAddress mine, Duration timeout,
                                                    Runnable whileWaiting) throws IOException {
        Files.createDirectories(dir);
        AtomicFile.writeString(dir.resolve("worker-" + rank), mine.getHostString() + ":" + mine.getPort() + "\n");
        long end = System.nanoTime() + timeout.toNanos();
        List<InetSocketAddress> out = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            Path f = dir.resolve("worker-" + r);
            while (!Files.isRegularFile(f)) {
                whileWaiting.run();
                if (System.nanoTime() > end) {
                    throw new IOException("worker " + r + " did not start within " + timeout.toSeconds() + " s (no " + f + ")");
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for worker " + r, e);
                }
            }
            String text = Files.readString(f).strip();
            int colon = text.lastIndexOf(':');
            out.add(new InetSocketAddress(text.substring(0, colon), Integer.parseInt(text.substring(colon + 1))));
        }
        return out;
    }
}
