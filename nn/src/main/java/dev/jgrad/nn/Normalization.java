package dev.jgrad.nn;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Trace;
import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;

import java.util.Arrays;

/** {@code F.batch_norm} and {@code F.group_norm}, composed of differentiable ops. */
public final class Normalization {
    private Normalization() {
    }

    /**
     * {@code F.batch_norm(x, running_mean, running_var, weight, bias, training, momentum, eps)} on
     * {@code (N, C, *)}. In training the batch's statistics over every dim but C normalise, and the running
     * statistics (when given) move towards them in place: {@code r = (1 - momentum) r + momentum * stat},
     * with the unbiased variance, as PyTorch. Outside training the running statistics normalise. Weight,
     * bias and the running statistics may be null (not in eval, where the statistics are needed).
     */
    public static Variable batchNorm(Variable x, Tensor runningMean, Tensor runningVar, Variable weight, Variable bias,
                                     boolean training, double momentum, double eps) {
        if (x.dim() < 2) {
            throw new ShapeException("batch_norm: expected an input of at least 2 dims (N, C, *), got " + Shape.str(x.shape()));
        }
        int c = x.size(1);
        checkChannels("running_mean", runningMean == null ? null : runningMean.shape(), c);
        checkChannels("running_var", runningVar == null ? null : runningVar.shape(), c);
        checkChannels("weight", weight == null ? null : weight.shape(), c);
        checkChannels("bias", bias == null ? null : bias.shape(), c);
        int[] dims = new int[x.dim() - 1];
        dims[0] = 0;
        for (int i = 2; i < x.dim(); i++) {
            dims[i - 1] = i;
        }
        int[] perChannel = new int[x.dim()];
        Arrays.fill(perChannel, 1);
        perChannel[1] = c;
        Variable y;
        if (training) {
            long count = (long) x.numel() / Math.max(c, 1);
            if (count <= 1) {
                throw new ShapeException("Expected more than 1 value per channel when training, got input size torch.Size("
                        + Shape.str(x.shape()) + ")");
            }
            Distributed.Group group = Distributed.current();
            Variable mean;
            Variable centred;
            Variable var;
            if (group != null && group.size() > 1) {
                // Data-parallel: the statistics of the whole batch, every worker's shard (SyncBatchNorm).
                count *= group.size();
                mean = Distributed.allReduceSum(x.sum(dims, true), group).div(count);
                centred = x.sub(mean);
                var = Distributed.allReduceSum(centred.square().sum(dims, true), group).div(count);
            } else {
                mean = x.mean(dims, true);
                centred = x.sub(mean);
                var = centred.square().mean(dims, true);
            }
            y = centred.mul(var.add(eps).rsqrt());
            try (NoGrad g = NoGrad.enter()) {
                if (runningMean != null) {
                    runningMean.muli(1 - momentum).addi(mean.data().reshape(c), momentum);
                }
                if (runningVar != null) {
                    runningVar.muli(1 - momentum).addi(var.data().reshape(c), momentum * count / (count - 1.0));
                }
            }
        } else {
            if (runningMean == null || runningVar == null) {
                throw new IllegalArgumentException("batch_norm: running_mean and running_var are needed outside training");
            }
            int mark = Trace.mark();
            Variable mean = Variable.of(runningMean.view(perChannel));
            Variable inv = Variable.of(runningVar.add(eps).rsqrt().view(perChannel));
            y = x.sub(mean).mul(inv);
            return Trace.annotate(mark, affine(y, weight, bias, perChannel), "batch_norm", x, runningMean, runningVar, weight, bias, eps);
        }
        return affine(y, weight, bias, perChannel);
    }

    /**
     * {@code F.group_norm(x, num_groups, weight, bias, eps)} on {@code (N, C, *)}: each sample's channels in
     * {@code num_groups} groups, each group normalised over its channels and positions, then a per-channel
     * affine map (weight and bias may be null).
     */
    public static Variable groupNorm(Variable x, int numGroups, Variable weight, Variable bias, double eps) {
        if (x.dim() < 2) {
            throw new ShapeException("group_norm: expected an input of at least 2 dims (N, C, *), got " + Shape.str(x.shape()));
        }
        int n = x.size(0);
        int c = x.size(1);
        if (numGroups <= 0 || c % numGroups != 0) {
            throw new ShapeException("Expected number of channels in input to be divisible by num_groups, but got input of shape "
                    + Shape.str(x.shape()) + " and num_groups=" + numGroups);
        }
        checkChannels("weight", weight == null ? null : weight.shape(), c);
        checkChannels("bias", bias == null ? null : bias.shape(), c);
        Variable g = x.reshape(n, numGroups, -1);
        Variable centred = g.sub(g.mean(-1, true));
        Variable var = centred.square().mean(-1, true);
        Variable y = centred.mul(var.add(eps).rsqrt()).reshape(x.shape());
        int[] perChannel = new int[x.dim()];
        Arrays.fill(perChannel, 1);
        perChannel[1] = c;
        return affine(y, weight, bias, perChannel);
    }

    private static Variable affine(Variable y, Variable weight, Variable bias, int[] perChannel) {
        Variable r = weight == null ? y : y.mul(weight.view(perChannel));
        return bias == null ? r : r.add(bias.view(perChannel));
    }

    private static void checkChannels(String what, int[] shape, int c) {
        if (shape != null && (shape.length != 1 || shape[0] != c)) {
            throw new ShapeException("normalization: expected " + what + " of shape [" + c + "] (one value per channel), got "
                    + Shape.str(shape));
        }
    }
}
