package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.BinaryOp;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.Parallel;
import dev.jgrad.tensor.internal.kernels.Tuning;

import java.util.Arrays;

import static dev.jgrad.tensor.internal.TensorAccess.bumpVersion;
import static dev.jgrad.tensor.internal.TensorAccess.floats;
import static dev.jgrad.tensor.internal.TensorAccess.offset;

/**
 * Passes over a model's parameters, gradients or moments as one job, for the optimizer's end of a step (zeroing the
 * gradients, their norm and clipping, Adam's update): a job per tensor costs a fork and a join for each, more than a
 * small tensor's work. Each thread takes the same share of every tensor that a job over that tensor alone would give
 * it, so it finds there what it wrote there in the backward.
 */
public final class ParameterPasses {
    /** The elements per chunk of a norm: its chunks' sums do not depend on the thread count. */
    static final int NORM_CHUNK = 1 << 14;

    private ParameterPasses() {
    }

    /** Work on tensor i's elements [from, to). */
    @FunctionalInterface
    public interface Piece {
        /** Processes elements {@code [from, to)} of parameter {@code i}. */
        void run(int i, int from, int to);
    }

    /** Whether every tensor is float32 and contiguous, as these passes need. */
    public static boolean applies(Tensor[] ts) {
        for (Tensor t : ts) {
            if (t.dtype() != DType.FLOAT32 || !t.isContiguous()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Runs {@code piece} over every element of tensors of these sizes in one job: each thread its share of each
     * tensor. How the elements are cut depends on the thread count, so only elementwise work may use it.
     */
    public static void forEachShare(int[] sizes, Piece piece) {
        long total = 0;
        for (int n : sizes) {
            total += n;
        }
        int parts = total < Tuning.parallelMin() ? 1 : Parallel.threads();
        Parallel.forRange(parts, 1, (lo, hi) -> {
            for (int part = lo; part < hi; part++) {
                for (int i = 0; i < sizes.length; i++) {
                    int from = (int) ((long) sizes[i] * part / parts);
                    int to = (int) ((long) sizes[i] * (part + 1) / parts);
                    if (to > from) {
                        piece.run(i, from, to);
                    }
                }
            }
        });
    }

    /** {@code t *= factor} for every tensor (as {@code muli}: the factor rounded to float32 first). Needs {@link #applies}. */
    public static void scale(Tensor[] ts, double factor) {
        float[] f = {(float) factor};
        forEachShare(sizes(ts), (i, from, to) -> {
            float[] a = floats(ts[i]);
            int o = offset(ts[i]);
            Kernels.ELEMENTWISE.binaryScalar(BinaryOp.MUL, a, o + from, f, 0, a, o + from, to - from);
        });
        bumpVersions(ts);
    }

    /** Sets every element of every tensor to 0 (as {@code zero_}). Needs {@link #applies}. */
    public static void zero(Tensor[] ts) {
        forEachShare(sizes(ts), (i, from, to) -> {
            int o = offset(ts[i]);
            Arrays.fill(floats(ts[i]), o + from, o + to, 0f);
        });
        bumpVersions(ts);
    }

    /**
     * The sum of the squares of every element (the square of their L2 norm): each tensor cut into chunks of
     * {@link #NORM_CHUNK}, each chunk's sum by {@link dev.jgrad.tensor.internal.kernels.ReductionKernels#sumOfSquares},
     * the chunks added in order in double, so the result does not depend on the thread count. Needs {@link #applies}.
     */
    public static double sumOfSquares(Tensor[] ts) {
        int[] sizes = sizes(ts);
        int[] first = new int[ts.length + 1];
        for (int i = 0; i < ts.length; i++) {
            first[i + 1] = first[i] + (sizes[i] + NORM_CHUNK - 1) / NORM_CHUNK;
        }
        double[] chunk = new double[first[ts.length]];
        // A thread sums the chunks that start in its share, where it wrote the gradient.
        forEachShare(sizes, (i, from, to) -> {
            float[] a = floats(ts[i]);
            int o = offset(ts[i]);
            for (int c = (from + NORM_CHUNK - 1) / NORM_CHUNK; c * NORM_CHUNK < to; c++) {
                int start = c * NORM_CHUNK;
                chunk[first[i] + c] = Kernels.REDUCTIONS.sumOfSquares(a, o + start, Math.min(NORM_CHUNK, sizes[i] - start));
            }
        });
        double total = 0;
        for (double s : chunk) {
            total += s;
        }
        return total;
    }

    private static void bumpVersions(Tensor[] ts) {
        for (Tensor t : ts) {
            bumpVersion(t);
        }
    }

    static int[] sizes(Tensor[] ts) {
        int[] sizes = new int[ts.length];
        for (int i = 0; i < ts.length; i++) {
            sizes[i] = (int) ts[i].numel();
        }
        return sizes;
    }
}
