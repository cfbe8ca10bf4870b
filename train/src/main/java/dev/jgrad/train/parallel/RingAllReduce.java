package dev.jgrad.train.parallel;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The sum (or mean) of a float array over N workers, each holding its own, as data-parallel training averages its
 * gradients every step: a ring all-reduce over TCP (java.nio), in two passes of N - 1 steps, each worker sending a
 * 1/N chunk to the next worker while it receives one from the previous: a reduce-scatter (after it each worker holds the
 * whole sum of one chunk) then an all-gather (each passes the finished chunks on). Each worker sends and receives
 * 2 (N - 1) / N of the array in all, whatever N.
 *
 * <p>The order of the additions is fixed by N alone (chunk c is summed starting at worker c + 1 around the ring), and
 * each chunk's sum is computed on one worker and copied to the others, so every worker ends with the same bits, and the
 * same inputs give the same bits on every run.
 *
 * <p>A worker that dies or stops answering fails the others within {@code timeout} with an {@link IOException} that
 * names it.
 */
public final class RingAllReduce implements AutoCloseable {
    private final int rank;
    private final int size;
    private final SocketChannel next;
    private final SocketChannel previous;
    private final Selector selector;
    private final Duration timeout;
    private final ExecutorService sender;
    private ByteBuffer sendBuffer = ByteBuffer.allocateDirect(0);
    private ByteBuffer receiveBuffer = ByteBuffer.allocateDirect(0);

    private RingAllReduce(int rank, int size, SocketChannel next, SocketChannel previous, Duration timeout) throws IOException {
        this.rank = rank;
        this.size = size;
        this.next = next;
        this.previous = previous;
        this.timeout = timeout;
        this.selector = previous == null ? null : Selector.open();
        if (previous != null) {
            previous.configureBlocking(false);
            previous.register(selector, SelectionKey.OP_READ);
        }
        this.sender = size == 1 ? null : Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "jgrad-allreduce-send-" + rank);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Joins the ring as worker {@code rank} of {@code addresses.size()}: {@code own} is this worker's listening channel (bound
     * at {@code addresses.get(rank)}), and every worker's address is known (exchanged once, through the folder of a local
     * run or Spark's barrier allGather). Connects to the next worker and accepts the previous one.
     */
    public static RingAllReduce join(int rank, List<InetSocketAddress> addresses, ServerSocketChannel own, Duration timeout)
            throws IOException {
        int n = addresses.size();
        if (rank < 0 || rank >= n) {
            throw new IllegalArgumentException("rank " + rank + " of " + n + " workers");
        }
        if (n == 1) {
            return new RingAllReduce(0, 1, null, null, timeout);
        }
        SocketChannel next = connect(addresses.get((rank + 1) % n), (rank + 1) % n, timeout);
        ByteBuffer hello = ByteBuffer.allocate(4).putInt(rank).flip();
        while (hello.hasRemaining()) {
            next.write(hello);
        }
        SocketChannel previous = accept(own, timeout, rank);
        ByteBuffer who = ByteBuffer.allocate(4);
        readFully(previous, who, timeout, (rank + n - 1) % n);
        int from = who.flip().getInt();
        if (from != (rank + n - 1) % n) {
            throw new IOException("worker " + rank + " expected worker " + ((rank + n - 1) % n) + " before it in the ring, but worker " + from
                    + " connected");
        }
        return new RingAllReduce(rank, n, next, previous, timeout);
    }

    private static SocketChannel connect(InetSocketAddress to, int who, Duration timeout) throws IOException {
        long end = System.nanoTime() + timeout.toNanos();
        IOException last = null;
        while (System.nanoTime() < end) {
            try {
                SocketChannel c = SocketChannel.open(to);
                c.socket().setTcpNoDelay(true);
                return c;
            } catch (IOException e) {
                last = e;
                try {
                    Thread.sleep(20);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        throw new IOException("cannot reach worker " + who + " at " + to + " within " + timeout.toSeconds() + " s"
                + (last == null ? "" : ": " + last.getMessage()), last);
    }

    private static SocketChannel accept(ServerSocketChannel own, Duration timeout, int rank) throws IOException {
        own.configureBlocking(false);
        try (Selector s = Selector.open()) {
            own.register(s, SelectionKey.OP_ACCEPT);
            if (s.select(Math.max(1, timeout.toMillis())) == 0) {
                throw new SocketTimeoutException("worker " + rank + ": the worker before it in the ring did not connect within "
                        + timeout.toSeconds() + " s");
            }
            SocketChannel c = own.accept();
            c.socket().setTcpNoDelay(true);
            return c;
        }
    }

    /** This worker's place in the ring. */
    public int rank() {
        return rank;
    }

    /** How many workers. */
    public int size() {
        return size;
    }

    /** Replaces {@code data} on every worker by the element-wise mean over the workers. */
    public void mean(float[] data) throws IOException {
        sum(data);
        if (size > 1) {
            float inv = 1f / size;
            for (int i = 0; i < data.length; i++) {
                data[i] *= inv;
            }
        }
    }

    /** Replaces {@code data} on every worker by the element-wise sum over the workers (all must pass the same length). */
    public void sum(float[] data) throws IOException {
        if (size == 1) {
            return;
        }
        int n = size;
        int[] start = new int[n + 1];
        for (int c = 0; c <= n; c++) {
            start[c] = (int) ((long) data.length * c / n);
        }
        int largest = 0;
        for (int c = 0; c < n; c++) {
            largest = Math.max(largest, start[c + 1] - start[c]);
        }
        ensureBuffers(4 * largest);
        // Reduce-scatter: at step s, send chunk (rank - s) and add the received chunk (rank - s - 1) into ours.
        for (int s = 0; s < n - 1; s++) {
            int send = Math.floorMod(rank - s, n);
            int receive = Math.floorMod(rank - s - 1, n);
            exchange(data, start[send], start[send + 1] - start[send], start[receive], start[receive + 1] - start[receive], true);
        }
        // All-gather: chunk (rank + 1) is now whole here; pass the whole chunks around, copying what arrives.
        for (int s = 0; s < n - 1; s++) {
            int send = Math.floorMod(rank + 1 - s, n);
            int receive = Math.floorMod(rank - s, n);
            exchange(data, start[send], start[send + 1] - start[send], start[receive], start[receive + 1] - start[receive], false);
        }
    }

    private void ensureBuffers(int bytes) {
        if (sendBuffer.capacity() < bytes) {
            sendBuffer = ByteBuffer.allocateDirect(bytes).order(ByteOrder.LITTLE_ENDIAN);
            receiveBuffer = ByteBuffer.allocateDirect(bytes).order(ByteOrder.LITTLE_ENDIAN);
        }
    }

    /** Sends one chunk to the next worker while receiving one from the previous, then adds (or copies) it in. */
    private void exchange(float[] data, int sendFrom, int sendLength, int receiveFrom, int receiveLength, boolean add) throws IOException {
        sendBuffer.clear();
        sendBuffer.asFloatBuffer().put(data, sendFrom, sendLength);
        sendBuffer.limit(4 * sendLength);
        Future<?> sent = sender.submit(() -> {
            while (sendBuffer.hasRemaining()) {
                next.write(sendBuffer);
            }
            return null;
        });
        receiveBuffer.clear().limit(4 * receiveLength);
        read(previous, receiveBuffer, selector, timeout, (rank + size - 1) % size);
        receiveBuffer.flip();
        java.nio.FloatBuffer in = receiveBuffer.asFloatBuffer();
        if (add) {
            for (int i = 0; i < receiveLength; i++) {
                data[receiveFrom + i] += in.get(i);
            }
        } else {
            in.get(data, receiveFrom, receiveLength);
        }
        try {
            sent.get();
        } catch (ExecutionException e) {
            throw new IOException("worker " + rank + " cannot send to worker " + ((rank + 1) % size) + ": " + e.getCause().getMessage(),
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("worker " + rank + ": interrupted while sending", e);
        }
    }

    /** Fills {@code buf} from a channel not yet registered for reading, waiting at most {@code timeout} for each read. */
    private static void readFully(SocketChannel c, ByteBuffer buf, Duration timeout, int from) throws IOException {
        c.configureBlocking(false);
        try (Selector s = Selector.open()) {
            c.register(s, SelectionKey.OP_READ);
            read(c, buf, s, timeout, from);
        }
    }

    /** Fills {@code buf} from a non-blocking channel registered with {@code s}, waiting at most {@code timeout} for each read. */
    private static void read(SocketChannel c, ByteBuffer buf, Selector s, Duration timeout, int from) throws IOException {
        while (buf.hasRemaining()) {
            int got = c.read(buf);
            if (got < 0) {
                throw new IOException("worker " + from + " closed its connection (it stopped or died)");
            }
            if (got == 0) {
                s.selectedKeys().clear();
                if (s.select(Math.max(1, timeout.toMillis())) == 0) {
                    throw new SocketTimeoutException("worker " + from + " sent nothing for " + timeout.toSeconds() + " s (it stopped or died)");
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        if (sender != null) {
            sender.shutdownNow();
        }
        if (selector != null) {
            selector.close();
        }
        if (next != null) {
            next.close();
        }
        if (previous != null) {
            previous.close();
        }
    }
}
