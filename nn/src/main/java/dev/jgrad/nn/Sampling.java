package dev.jgrad.nn;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.ValuesIndices;

/** Drawing tokens: {@code torch.topk} and {@code torch.multinomial} over the last dim, with a {@link Generator}. */
public final class Sampling {
    private Sampling() {
    }

    /**
     * The {@code k} largest values along the last dim, largest first, and their int64 indices (ties: the lower index
     * first, NaN the largest), as {@code torch.topk(x, k)}: {@link Tensor#topk(int)}.
     */
    public static ValuesIndices<Tensor> topk(Tensor x, int k) {
        return x.topk(k);
    }

    /**
     * One draw per row from the categorical distribution whose probabilities (non-negative, not necessarily summing to
     * one) are the last dim of {@code probs}: int64 of {@code probs}' shape without its last dim, as
     * {@code torch.multinomial(probs, 1)} squeezed. The same generator state gives the same draws.
     */
    public static Tensor multinomial(Tensor probs, Generator gen) {
        int n = probs.size(-1);
        int rows = n == 0 ? 0 : probs.numel() / n;
        double[] p = probs.contiguous().toDoubleArray();
        long[] out = new long[rows];
        for (int r = 0; r < rows; r++) {
            double total = 0;
            for (int i = 0; i < n; i++) {
                double w = p[r * n + i];
                if (!(w >= 0) || Double.isInfinite(w)) {
                    throw new IllegalArgumentException("multinomial: probability tensor contains either inf, nan or element < 0 (row "
                            + r + ", index " + i + ": " + w + ")");
                }
                total += w;
            }
            if (total <= 0) {
                throw new IllegalArgumentException("multinomial: invalid multinomial distribution (sum of probabilities <= 0) in row " + r);
            }
            double u = gen.nextDouble() * total;
            int pick = n - 1;
            double acc = 0;
            for (int i = 0; i < n; i++) {
                acc += p[r * n + i];
                if (u < acc && p[r * n + i] > 0) {
                    pick = i;
                    break;
                }
            }
            while (p[r * n + pick] == 0) {
                pick--;
            }
            out[r] = pick;
        }
        int[] shape = java.util.Arrays.copyOf(probs.shape(), probs.dim() - 1);
        return Tensor.of(out, shape);
    }
}
