package dev.jgrad.nn;

import dev.jgrad.autograd.CustomFunction;
import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Tensor;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The data-parallel workers this thread's step belongs to, for the layers whose forward pass needs all of them: batch
 * norm in training computes its statistics over the whole batch, every worker's shard, as one process would (PyTorch's
 * SyncBatchNorm), and dropout draws the whole batch's mask and keeps its shard's rows. The training loop sets the group for the step ({@link #within}); outside it layers see none.
 */
public final class Distributed {
    /** The workers: how many, and the element-wise sum of an array over them (every worker calls it, in the same order). */
    public interface Group {
        /** How many workers. */
        int size();

        /** This worker's place among them, 0 to size - 1: its shard is that part of each batch. */
        int rank();

        /** Replaces {@code data} by its sum over the workers. */
        void sum(float[] data) throws IOException;
    }

    private static final ThreadLocal<Group> CURRENT = new ThreadLocal<>();

    private Distributed() {
    }

    /** A scope that sets a group; closing it puts back what was set before. */
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /** Sets {@code group} (null: none) for this thread until the returned scope closes. */
    public static Scope within(Group group) {
        Group before = CURRENT.get();
        CURRENT.set(group);
        return () -> CURRENT.set(before);
    }

    /** The group of this thread's step, or null. */
    public static Group current() {
        return CURRENT.get();
    }

    /**
     * The sum of {@code x} over the workers, differentiable: its backward is the sum of the upstream gradients over the
     * workers (each worker's loss depends on every worker's {@code x}). float32.
     */
    public static Variable allReduceSum(Variable x, Group group) {
        Tensor out = Tensor.of(sum(x.data().toFloatArray(), group), x.shape());
        return CustomFunction.apply("all_reduce_sum", out, new Variable[] {x}, new Tensor[0],
                (g, saved, needs) -> new Tensor[] {Tensor.of(sum(g.toFloatArray(), group), g.shape()).to(x.dtype())});
    }

    private static float[] sum(float[] data, Group group) {
        try {
            group.sum(data);
            return data;
        } catch (IOException e) {
            throw new UncheckedIOException("data-parallel batch norm: " + e.getMessage(), e);
        }
    }
}
