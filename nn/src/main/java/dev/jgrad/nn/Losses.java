package dev.jgrad.nn;

import dev.jgrad.autograd.CustomFunction;
import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.TensorIndexException;

import java.util.Arrays;

/**
 * Loss functions with PyTorch's formulas. Unlike PyTorch, every loss refuses an input and a target
 * whose shapes differ: PyTorch only warns when {@code (B,1)} meets {@code (B,)}, then broadcasts them to
 * {@code (B,B)} and returns the mean over every pair, which trains a model to predict the batch mean.
 */
public final class Losses {
    /** PyTorch's default {@code ignore_index}. */
    public static final int IGNORE_INDEX = -100;

    private Losses() {
    }

    /** The refusal of mismatched shapes, with the likely fix. */
    static void checkSameShape(String loss, Tensor input, Tensor target) {
        int[] a = input.shape();
        int[] b = target.shape();
        if (Arrays.equals(a, b)) {
            return;
        }
        StringBuilder msg = new StringBuilder(loss + ": input shape " + Shape.str(a) + " and target shape " + Shape.str(b) + " differ");
        int[] bc = null;
        try {
            bc = Shape.broadcast(a, b);
        } catch (ShapeException e) {
            // not broadcastable: no (B,B) story to tell
        }
        if (bc != null) {
            msg.append("\nPyTorch would broadcast them to ").append(Shape.str(bc)).append(" and average over every pair,"
                    + " which is almost never what you mean.");
        }
        if (a.length == b.length + 1 && a[a.length - 1] == 1 && Arrays.equals(Arrays.copyOf(a, b.length), b)) {
            msg.append("\nLikely fix: target.unsqueeze(").append(b.length).append(") (or input.squeeze(").append(a.length - 1)
                    .append(")) so both are ").append(Shape.str(a)).append('.');
        } else if (b.length == a.length + 1 && b[b.length - 1] == 1 && Arrays.equals(Arrays.copyOf(b, a.length), a)) {
            msg.append("\nLikely fix: target.squeeze(").append(b.length - 1).append(") (or input.unsqueeze(").append(a.length)
                    .append(")) so both are ").append(Shape.str(a)).append('.');
        } else {
            msg.append("\nReshape one of them so the shapes are equal.");
        }
        throw new ShapeException(msg.toString());
    }

    private static Variable reduce(Variable perElement, Reduction r) {
        switch (r) {
            case SUM: return perElement.sum();
            case MEAN: return perElement.mean();
            case NONE: return perElement;
            default: throw notBatchmean(r);
        }
    }

    /** BATCHMEAN given to a loss other than kl_div, which PyTorch refuses too. */
    private static IllegalArgumentException notBatchmean(Reduction r) {
        return new IllegalArgumentException("reduction " + r.name().toLowerCase(java.util.Locale.ROOT)
                + " is kl_div's alone; this loss takes mean, sum or none");
    }

    /** {@code F.mse_loss}, mean; the shapes must match, so {@code (B,1)} against {@code (B,)} is refused rather than broadcast to {@code (B,B)}. */
    public static Variable mseLoss(Variable input, Variable target) {
        return mseLoss(input, target, Reduction.MEAN);
    }

    /** {@code F.mse_loss}: mean (or sum, or none) of the squared differences. */
    public static Variable mseLoss(Variable input, Variable target, Reduction reduction) {
        checkSameShape("mse_loss", input.data(), target.data());
        return reduce(input.sub(target).square(), reduction);
    }

    /** {@code F.l1_loss}, mean; the shapes must match (no silent broadcast). */
    public static Variable l1Loss(Variable input, Variable target) {
        return l1Loss(input, target, Reduction.MEAN);
    }

    /** {@code F.l1_loss}: mean (or sum, or none) of the absolute differences. */
    public static Variable l1Loss(Variable input, Variable target, Reduction reduction) {
        checkSameShape("l1_loss", input.data(), target.data());
        return reduce(input.sub(target).abs(), reduction);
    }

    /** {@code F.smooth_l1_loss}, mean, beta 1; the shapes must match (no silent broadcast). */
    public static Variable smoothL1Loss(Variable input, Variable target) {
        return smoothL1Loss(input, target, Reduction.MEAN, 1.0);
    }

    /**
     * {@code F.smooth_l1_loss}: of each difference d, {@code 0.5 d^2 / beta} where {@code |d| < beta}, else
     * {@code |d| - 0.5 beta} (beta 0 is {@code l1_loss}); its gradient is {@code d / beta}, then the sign of d.
     */
    public static Variable smoothL1Loss(Variable input, Variable target, Reduction reduction, double beta) {
        if (!(beta >= 0)) {
            throw new IllegalArgumentException("smooth_l1_loss does not support negative values for beta, got " + beta);
        }
        checkSameShape("smooth_l1_loss", input.data(), target.data());
        Variable d = input.sub(target);
        Variable a = d.abs();
        if (beta == 0) {
            return reduce(a, reduction);
        }
        return reduce(Variable.where(a.lt(beta), d.square().mul(0.5 / beta), a.sub(0.5 * beta)), reduction);
    }

    /** {@code F.huber_loss}, mean, delta 1; the shapes must match (no silent broadcast). */
    public static Variable huberLoss(Variable input, Variable target) {
        return huberLoss(input, target, Reduction.MEAN, 1.0);
    }

    /**
     * {@code F.huber_loss}: of each difference d, {@code 0.5 d^2} where {@code |d| < delta}, else
     * {@code delta (|d| - 0.5 delta)}: {@code smooth_l1_loss} times delta.
     */
    public static Variable huberLoss(Variable input, Variable target, Reduction reduction, double delta) {
        if (!(delta > 0)) {
            throw new IllegalArgumentException("huber_loss does not support non-positive values for delta, got " + delta);
        }
        checkSameShape("huber_loss", input.data(), target.data());
        Variable d = input.sub(target);
        Variable a = d.abs();
        return reduce(Variable.where(a.lt(delta), d.square().mul(0.5), a.sub(0.5 * delta).mul(delta)), reduction);
    }

    /**
     * {@code F.kl_div(input, target, reduction, log_target)}: with {@code input} log-probabilities, each element's
     * {@code target (log target - input)} (0 where the target is 0), or {@code e^target (target - input)} where the target
     * is given as log-probabilities too. {@link Reduction#BATCHMEAN} gives the KL divergence (the sum over the batch
     * size); MEAN, as in PyTorch, averages over every element, which is not it.
     */
    public static Variable klDiv(Variable input, Variable target, Reduction reduction, boolean logTarget) {
        checkSameShape("kl_div", input.data(), target.data());
        Variable per;
        if (logTarget) {
            per = target.exp().mul(target.sub(input));
        } else {
            // xlogy(t, t): log's argument is 1 where the target is 0, so neither the value nor its gradient is NaN there.
            Variable nonzero = target.ne(0.0);
            per = target.mul(target.where(nonzero, 1.0).log()).sub(target.mul(input));
        }
        if (reduction == Reduction.BATCHMEAN) {
            return input.dim() == 0 ? per.sum() : per.sum().div(input.size(0));
        }
        return reduce(per, reduction);
    }

    /** {@code F.cross_entropy}, mean over the targets that are not {@link #IGNORE_INDEX}: logits {@code (N, C)} or {@code (N, C, d...)}, class indices (int64). */
    public static Variable crossEntropy(Variable input, Tensor target) {
        return crossEntropy(input, target, Reduction.MEAN, IGNORE_INDEX, 0.0);
    }

    /**
     * {@code F.cross_entropy} with class indices: input {@code (N, C)} or {@code (N, C, d...)} (the class dim is 1),
     * target int64 {@code (N)} or {@code (N, d...)}. Targets equal to {@code ignoreIndex} count for nothing (the
     * mean divides by the others); {@code labelSmoothing} mixes the target with the uniform distribution.
     */
    public static Variable crossEntropy(Variable input, Tensor target, Reduction reduction, int ignoreIndex, double labelSmoothing) {
        return crossEntropy(input, target, null, reduction, ignoreIndex, labelSmoothing);
    }

    /**
     * {@code F.cross_entropy(input, target, weight)}: as above, each target's loss weighted by its class's {@code weight}
     * (a float tensor of C values, or null for none); the mean divides by the weights of the targets counted, as
     * PyTorch's does, so a batch of rare classes counts as much as one of common ones.
     */
    public static Variable crossEntropy(Variable input, Tensor target, Tensor weight, Reduction reduction, int ignoreIndex,
                                        double labelSmoothing) {
        if (labelSmoothing < 0 || labelSmoothing > 1) {
            throw new IllegalArgumentException("label_smoothing must be between 0.0 and 1.0. Got: " + labelSmoothing);
        }
        return classLoss("cross_entropy", input.logSoftmax(input.dim() == 1 ? 0 : 1), input, target, weight, reduction, ignoreIndex,
                labelSmoothing);
    }

    /** {@code F.nll_loss}, mean over the targets that are not {@link #IGNORE_INDEX}, from log-probabilities. */
    public static Variable nllLoss(Variable logProbs, Tensor target) {
        return nllLoss(logProbs, target, Reduction.MEAN, IGNORE_INDEX);
    }

    /** {@code F.nll_loss}: the negative log-probability of each target class, from log-probabilities (N, C, ...). */
    public static Variable nllLoss(Variable logProbs, Tensor target, Reduction reduction, int ignoreIndex) {
        return nllLoss(logProbs, target, null, reduction, ignoreIndex);
    }

    /** {@code F.nll_loss(input, target, weight)}: each target's loss weighted by its class's {@code weight} (null: none). */
    public static Variable nllLoss(Variable logProbs, Tensor target, Tensor weight, Reduction reduction, int ignoreIndex) {
        return classLoss("nll_loss", logProbs, logProbs, target, weight, reduction, ignoreIndex, 0.0);
    }

    private static Variable classLoss(String name, Variable logp, Variable input, Tensor target, Tensor weight, Reduction reduction,
                                      int ignoreIndex, double smoothing) {
        if (input.dim() == 0) {
            throw new ShapeException(name + ": input must have at least 1 dim (C) or (N, C, ...), got a scalar");
        }
        if (target.dtype() != DType.INT64) {
            throw new dev.jgrad.tensor.DTypeException(name + ": expected int64 class indices as the target, got " + target.dtype()
                    + (target.dtype().isFloating() ? " (class probabilities are not supported; convert indices with .to(DType.INT64))" : ""));
        }
        int[] in = input.shape();
        int classDim = in.length == 1 ? 0 : 1;
        int classes = in[classDim];
        int[] expected = new int[in.length - 1];
        for (int i = 0, j = 0; i < in.length; i++) {
            if (i != classDim) {
                expected[j++] = in[i];
            }
        }
        if (!Arrays.equals(expected, target.shape())) {
            String hint = target.dim() == expected.length + 1 && target.size(-1) == 1
                    ? "; likely fix: target.squeeze(" + (target.dim() - 1) + ")" : "";
            throw new ShapeException(name + ": input shape " + Shape.str(in) + " (class dim " + classDim + " of size " + classes
                    + ") needs a target of shape " + Shape.str(expected) + ", got " + Shape.str(target.shape()) + hint);
        }
        long[] t = target.toLongArray();
        boolean[] valid = new boolean[t.length];
        long[] safe = new long[t.length];
        int count = checkTargets(name, t, classes, ignoreIndex, valid, safe);
        // Classes last, one row per target: (M, C).
        Variable rows = classDim == 0 ? logp.unsqueeze(0) : logp.movedim(1, -1).reshape(-1, classes);
        Tensor idx = Tensor.of(safe, safe.length, 1);
        Tensor keep = Tensor.of(valid, valid.length).to(input.dtype());
        Tensor w = weight == null ? null : classWeights(name, weight, classes, input.dtype());
        // Each counted target's weight (1 without weights): the mean divides by their sum.
        Tensor targetWeight = w == null ? keep : w.indexSelect(0, Tensor.of(safe, safe.length)).mul(keep);
        Variable nll = rows.gather(1, idx).squeeze(1).neg();
        Variable perTarget = w == null ? nll : nll.mul(Variable.of(w.indexSelect(0, Tensor.of(safe, safe.length))));
        if (smoothing > 0) {
            // PyTorch's smoothing term: the class-weighted sum of -log p over every class, over C.
            Variable uniform = (w == null ? rows : rows.mul(Variable.of(w))).sum(1).neg().div(classes);
            perTarget = perTarget.mul(1 - smoothing).add(uniform.mul(smoothing));
        }
        perTarget = perTarget.mul(Variable.of(keep));
        switch (reduction) {
            case SUM:
                return perTarget.sum();
            case MEAN:
                return w == null ? perTarget.sum().div(count) : perTarget.sum().div(Variable.of(targetWeight.sum()));
            case NONE:
                return perTarget.reshape(target.shape());
            default:
                throw notBatchmean(reduction);
        }
    }

    /** The class weights as a float tensor of {@code classes} values in the input's type, or a refusal naming the shape. */
    private static Tensor classWeights(String name, Tensor weight, int classes, DType dtype) {
        if (weight.dim() != 1 || weight.size(0) != classes) {
            throw new ShapeException(name + ": weight must hold one value per class, shape [" + classes + "], got " + Shape.str(weight.shape()));
        }
        if (!weight.dtype().isFloating()) {
            throw new dev.jgrad.tensor.DTypeException(name + ": weight must be a floating-point tensor, got " + weight.dtype());
        }
        return weight.to(dtype);
    }

    /**
     * Checks each target against the classes, marking the ones not ignored in {@code valid} and copying them to
     * {@code safe} (0 where ignored, so the gather stays in bounds); returns how many count. A method of its own:
     * a loop in the loss itself had the JIT compile the whole loss, everything inlined, on the stack (OSR) and then
     * again as a method, half a second of the compiler's time in a short run's first epoch.
     */
    private static int checkTargets(String name, long[] t, int classes, int ignoreIndex, boolean[] valid, long[] safe) {
        int count = 0;
        for (int i = 0; i < t.length; i++) {
            if (t[i] == ignoreIndex) {
                continue;
            }
            if (t[i] < 0 || t[i] >= classes) {
                throw new TensorIndexException("Target " + t[i] + " is out of bounds. (" + name + " with " + classes
                        + " classes takes targets 0.." + (classes - 1) + (ignoreIndex < 0 || ignoreIndex >= classes ? " or ignore_index " + ignoreIndex : "") + ")");
            }
            valid[i] = true;
            safe[i] = t[i];
            count++;
        }
        return count;
    }

    /** {@code F.binary_cross_entropy_with_logits}, mean: as sigmoid then binary cross-entropy, without their overflow. */
    public static Variable bceWithLogits(Variable logits, Variable target) {
        return bceWithLogits(logits, target, Reduction.MEAN);
    }

    /**
     * {@code F.binary_cross_entropy_with_logits}, as one fused op: {@code max(x,0) - x*y + log(1 + exp(-|x|))},
     * finite for logits of any size, with the gradient {@code sigmoid(x) - y}.
     */
    public static Variable bceWithLogits(Variable logits, Variable target, Reduction reduction) {
        checkSameShape("binary_cross_entropy_with_logits", logits.data(), target.data());
        Tensor x = logits.data();
        Tensor y = target.data().to(x.dtype());
        Tensor loss = x.relu().sub(x.mul(y)).add(x.abs().neg().exp().log1p());
        Variable per = CustomFunction.apply("bce_with_logits", loss, new Variable[] {logits, target}, new Tensor[] {x, y},
                (g, saved, needs) -> new Tensor[] {
                    needs[0] ? g.mul(saved[0].sigmoid().sub(saved[1])) : null,
                    needs[1] ? g.mul(saved[0].neg()) : null},
                in -> in[0].relu().sub(in[0].mul(in[1].to(in[0].dtype()))).add(in[0].abs().neg().exp().log1p()));
        return reduce(per, reduction);
    }
}
