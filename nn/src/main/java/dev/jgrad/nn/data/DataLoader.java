package dev.jgrad.nn.data;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Batches of a {@link Dataset}, as {@code DataLoader}: each pass ({@code for (List<Tensor> batch : loader)})
 * is one epoch, shuffled with a seeded generator (the same seed gives the same batches), the last batch
 * smaller unless {@code dropLast}.
 */
public final class DataLoader implements Iterable<List<Tensor>> {
    private final Dataset dataset;
    private final int batchSize;
    private final boolean shuffle;
    private final boolean dropLast;
    private final Generator gen;

    /** Batches of {@code batchSize} from {@code dataset}, in an order drawn per epoch from {@code seed} when {@code shuffle}; a short last batch dropped when {@code dropLast}. */
    public DataLoader(Dataset dataset, int batchSize, boolean shuffle, long seed, boolean dropLast) {
        if (batchSize <= 0) {
            throw new IllegalArgumentException("batch_size should be a positive integer value, but got batch_size=" + batchSize);
        }
        this.dataset = dataset;
        this.batchSize = batchSize;
        this.shuffle = shuffle;
        this.dropLast = dropLast;
        this.gen = new Generator(seed);
    }

    /** Batches per epoch. */
    public int batches() {
        long n = dataset.size();
        return (int) (dropLast ? n / batchSize : (n + batchSize - 1) / batchSize);
    }

    @Override
    public Iterator<List<Tensor>> iterator() {
        return iterator(0);
    }

    /**
     * One epoch from batch {@code from} on: the epoch's order is drawn as by {@link #iterator()}, the first {@code from}
     * batches are passed over without being loaded (a run resumed in the middle of an epoch).
     */
    public Iterator<List<Tensor>> iterator(int from) {
        int n = dataset.size();
        int[] order = shuffle ? gen.permutation(n) : identity(n);
        int count = batches();
        return new Iterator<>() {
            private int b = Math.max(0, Math.min(from, count));

            @Override
            public boolean hasNext() {
                return b < count;
            }

            @Override
            public List<Tensor> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                int start = b * batchSize;
                int end = Math.min(n, start + batchSize);
                long[] idx = new long[end - start];
                for (int i = start; i < end; i++) {
                    idx[i - start] = order[i];
                }
                b++;
                return dataset.get(idx);
            }
        };
    }

    /** Passes over one epoch without loading it: its order is drawn, so the epochs after it get the orders they would have. */
    public void skipEpoch() {
        if (shuffle) {
            gen.permutation(dataset.size());
        }
    }

    private static int[] identity(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }
}
