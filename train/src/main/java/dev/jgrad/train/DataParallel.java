package dev.jgrad.train;

import dev.jgrad.nn.Parameter;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.train.parallel.RingAllReduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A worker's part in data-parallel training ({@link Fit#dataParallel}): its shard of each batch, and the gradients and
 * losses averaged over the workers after its backward pass, in one all-reduce of one array.
 */
final class DataParallel {
    private final RingAllReduce ring;
    private float[] buffer = new float[0];

    DataParallel(RingAllReduce ring) {
        this.ring = ring;
    }

    /** The workers as the layers see them during a step (batch norm's statistics over the whole batch). */
    dev.jgrad.nn.Distributed.Group group() {
        return new dev.jgrad.nn.Distributed.Group() {
            @Override
            public int size() {
                return ring.size();
            }

            @Override
            public int rank() {
                return ring.rank();
            }

            @Override
            public void sum(float[] data) throws IOException {
                ring.sum(data);
            }
        };
    }

    /** Rows {@code rank * B / N} to {@code (rank + 1) * B / N} of every tensor of the batch. */
    List<Tensor> shard(List<Tensor> batch) {
        int n = ring.size();
        List<Tensor> out = new ArrayList<>(batch.size());
        for (Tensor t : batch) {
            int rows = t.dim() == 0 ? 0 : t.size(0);
            if (rows % n != 0 || rows == 0) {
                throw new RunException("--data-parallel " + n + " must divide the batch, which has " + rows + " rows (shape "
                        + java.util.Arrays.toString(t.shape()) + "): give a batch size that " + n + " divides");
            }
            int share = rows / n;
            out.add(t.narrow(0, ring.rank() * share, share));
        }
        return out;
    }

    /**
     * Replaces every parameter's gradient by the workers' mean and each loss by the workers' mean: the gradients (a
     * missing one as zeros) and the losses go out as one array and come back averaged, the same bits on every worker.
     */
    void average(List<Parameter> params, double[] losses) {
        long total = losses.length;
        for (Parameter p : params) {
            total += p.data().numel();
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new RunException("data-parallel training: " + total + " gradient values are more than one array holds");
        }
        if (buffer.length != total) {
            buffer = new float[(int) total];
        }
        int at = 0;
        for (Parameter p : params) {
            int n = p.data().numel();
            if (p.grad() == null) {
                java.util.Arrays.fill(buffer, at, at + n, 0f);
            } else {
                System.arraycopy(p.grad().toFloatArray(), 0, buffer, at, n);
            }
            at += n;
        }
        for (double l : losses) {
            buffer[at++] = (float) l;
        }
        try {
            ring.mean(buffer);
        } catch (IOException e) {
            throw new RunException("data-parallel training: worker " + ring.rank() + " of " + ring.size() + " lost the others: "
                    + e.getMessage() + "; the run folder keeps its last checkpoint", e);
        }
        at = 0;
        for (Parameter p : params) {
            int n = p.data().numel();
            Tensor mean = Tensor.of(java.util.Arrays.copyOfRange(buffer, at, at + n), p.data().shape());
            if (p.grad() == null) {
                p.setGrad(mean.to(p.data().dtype()));
            } else {
                p.grad().copyFrom(mean);
            }
            at += n;
        }
        for (int i = 0; i < losses.length; i++) {
            losses[i] = buffer[at++];
        }
    }
}
