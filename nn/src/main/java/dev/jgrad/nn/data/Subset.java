package dev.jgrad.nn.data;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.List;

/**
 * Some samples of a dataset, by their indices in it ({@code torch.utils.data.Subset}); {@link #randomSplit} cuts a
 * dataset into such parts, a training set and a held-out one say.
 */
public final class Subset implements Dataset {
    private final Dataset dataset;
    private final long[] indices;

    /** The samples of {@code dataset} at {@code indices}, in that order (each from 0 to its size - 1). */
    public Subset(Dataset dataset, long[] indices) {
        for (long i : indices) {
            if (i < 0 || i >= dataset.size()) {
                throw new IndexOutOfBoundsException("Subset: index " + i + " is outside a dataset of " + dataset.size() + " samples");
            }
        }
        this.dataset = dataset;
        this.indices = indices.clone();
    }

    /**
     * {@code random_split(dataset, fractions, generator)}: the samples shuffled by {@code gen}, then cut into parts of
     * these fractions of the whole (summing to 1; the samples left over by rounding down go one each to the first parts,
     * as PyTorch gives them).
     */
    public static List<Subset> randomSplit(Dataset dataset, Generator gen, double... fractions) {
        double total = 0;
        for (double f : fractions) {
            if (!(f >= 0 && f <= 1)) {
                throw new IllegalArgumentException("randomSplit: a fraction must be from 0 to 1, got " + f);
            }
            total += f;
        }
        if (fractions.length == 0 || Math.abs(total - 1) > 1e-9) {
            throw new IllegalArgumentException("randomSplit: the fractions must sum to 1, got " + total);
        }
        int n = dataset.size();
        int[] lengths = new int[fractions.length];
        int given = 0;
        for (int i = 0; i < fractions.length; i++) {
            lengths[i] = (int) Math.floor(n * fractions[i]);
            given += lengths[i];
        }
        for (int i = 0; given < n; i = (i + 1) % lengths.length) {
            lengths[i]++;
            given++;
        }
        int[] order = gen.permutation(n);
        List<Subset> parts = new ArrayList<>();
        int at = 0;
        for (int len : lengths) {
            long[] idx = new long[len];
            for (int k = 0; k < len; k++) {
                idx[k] = order[at + k];
            }
            parts.add(new Subset(dataset, idx));
            at += len;
        }
        return parts;
    }

    @Override
    public int size() {
        return indices.length;
    }

    @Override
    public List<Tensor> get(long[] at) {
        long[] inner = new long[at.length];
        for (int k = 0; k < at.length; k++) {
            if (at[k] < 0 || at[k] >= indices.length) {
                throw new IndexOutOfBoundsException("Subset: index " + at[k] + " is outside a subset of " + indices.length + " samples");
            }
            inner[k] = indices[(int) at[k]];
        }
        return dataset.get(inner);
    }

    /** Every sample, one tensor per field: a held-out set evaluated whole. */
    public List<Tensor> all() {
        long[] every = new long[indices.length];
        for (int k = 0; k < every.length; k++) {
            every[k] = k;
        }
        return get(every);
    }
}
