package dev.jgrad.nn.optim;

import dev.jgrad.nn.Parameter;
import dev.jgrad.tensor.internal.fused.AdamStep;
import dev.jgrad.tensor.internal.fused.ParameterPasses;
import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code torch.optim.Adam} (and, with {@code decoupled}, {@link AdamW}): {@code m = b1 m + (1-b1) g},
 * {@code v = b2 v + (1-b2) g^2}, {@code p -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)}.
 * Adam's weight decay is added to the gradient (L2); AdamW's shrinks the parameter, {@code p *= 1 - lr * wd}.
 */
public class Adam extends Optimizer {
    private final double beta1;
    private final double beta2;
    private final double eps;
    private final double weightDecay;
    private final boolean decoupled;
    /** Per parameter, its group's weight decay; null when one decay holds for all. */
    private double[] decayOf;

    /** Adam with PyTorch's defaults: betas (0.9, 0.999), eps 1e-8, no weight decay. */
    public Adam(List<Parameter> params, double lr) {
        this(params, lr, 0.9, 0.999, 1e-8, 0);
    }

    /** {@code torch.optim.Adam}: {@code weightDecay} adds {@code weightDecay * p} to the gradient (L2), as PyTorch's Adam does. */
    public Adam(List<Parameter> params, double lr, double beta1, double beta2, double eps, double weightDecay) {
        this(params, lr, beta1, beta2, eps, weightDecay, false);
    }

    /** Adam, or with {@code decoupled} AdamW's update, which decays the weights apart from the gradient. */
    protected Adam(List<Parameter> params, double lr, double beta1, double beta2, double eps, double weightDecay, boolean decoupled) {
        super(params, lr);
        if (beta1 < 0 || beta1 >= 1 || beta2 < 0 || beta2 >= 1) {
            throw new IllegalArgumentException("Invalid beta parameters: (" + beta1 + ", " + beta2 + "), each must be in [0, 1)");
        }
        if (eps < 0 || weightDecay < 0) {
            throw new IllegalArgumentException("Invalid epsilon or weight_decay: " + eps + ", " + weightDecay);
        }
        this.beta1 = beta1;
        this.beta2 = beta2;
        this.eps = eps;
        this.weightDecay = weightDecay;
        this.decoupled = decoupled;
    }

    /** Parameter groups, as {@code torch.optim.Adam(W)([{"params": ..., "weight_decay": ...}, ...])}: each its own decay. */
    protected Adam(List<ParamGroup> groups, double lr, double beta1, double beta2, double eps, boolean decoupled) {
        this(ParamGroup.all(groups), lr, beta1, beta2, eps, 0, decoupled);
        decayOf = ParamGroup.decays(groups);
    }

    /**
     * Float32 parameters with contiguous gradients and moments are updated in one pass over all of them
     * ({@link AdamStep#adamAll}, the same bits as a pass each); the others one at a time, and all of them one at a time
     * where two parameters share memory.
     */
    @Override
    protected void updateAll(List<Integer> indices) {
        Tensor[] data = indices.stream().map(i -> params.get(i).data()).toArray(Tensor[]::new);
        if (!distinct(data)) {
            super.updateAll(indices);
            return;
        }
        List<Integer> together = new ArrayList<>();
        for (int i : indices) {
            Tensor p = params.get(i).data();
            Tensor g = params.get(i).grad();
            Map<String, Tensor> s = state.get(i);
            Tensor m = s.get("exp_avg");
            Tensor v = s.get("exp_avg_sq");
            // Moments not made yet will be made like p.
            Tensor[] ops = {p, g, m == null ? p : m, v == null ? p : v};
            if (ParameterPasses.applies(ops) && !g.sharesStorage(p) && (m == null || !g.sharesStorage(m)) && (v == null || !g.sharesStorage(v))) {
                together.add(i);
            } else {
                update(i, p, g, s);
            }
        }
        if (together.isEmpty()) {
            return;
        }
        int n = together.size();
        Tensor[] ps = new Tensor[n];
        Tensor[] gs = new Tensor[n];
        Tensor[] ms = new Tensor[n];
        Tensor[] vs = new Tensor[n];
        double[] decay = new double[n];
        double[] l2 = new double[n];
        double[] stepSize = new double[n];
        double[] bc2Sqrt = new double[n];
        for (int k = 0; k < n; k++) {
            int i = together.get(k);
            ps[k] = params.get(i).data();
            gs[k] = params.get(i).grad();
            Step step = begin(ps[k], state.get(i), weightDecayOf(i));
            ms[k] = step.m();
            vs[k] = step.v();
            decay[k] = step.decay();
            l2[k] = step.l2();
            stepSize[k] = step.stepSize();
            bc2Sqrt[k] = step.bc2Sqrt();
        }
        AdamStep.adamAll(ps, gs, ms, vs, decay, beta1, beta2, l2, stepSize, bc2Sqrt, eps);
    }

    @Override
    protected void update(int index, Tensor p, Tensor grad, Map<String, Tensor> s) {
        update(p, grad, s, weightDecayOf(index));
    }

    @Override
    protected void update(Tensor p, Tensor grad, Map<String, Tensor> s) {
        update(p, grad, s, weightDecay);
    }

    private void update(Tensor p, Tensor grad, Map<String, Tensor> s, double weightDecay) {
        Step step = begin(p, s, weightDecay);
        if (step.decay() != 1) {
            p.muli(step.decay());
        }
        AdamStep.adam(p, grad, step.m(), step.v(), beta1, beta2, step.l2(), step.stepSize(), step.bc2Sqrt(), eps);
    }

    /** Parameter i's group's weight decay. */
    private double weightDecayOf(int i) {
        return decayOf == null ? weightDecay : decayOf[i];
    }

    /**
     * One parameter's step, before its update: the moments, AdamW's factor {@code 1 - lr * wd} on the parameter (1 for
     * none), Adam's L2 decay on the gradient, the step size {@code lr / (1 - b1^t)} and {@code sqrt(1 - b2^t)}.
     */
    private record Step(Tensor m, Tensor v, double decay, double l2, double stepSize, double bc2Sqrt) {
    }

    /** Counts the parameter's step, makes its moments where they are new, and gives what its update needs. */
    private Step begin(Tensor p, Map<String, Tensor> s, double weightDecay) {
        double t = bumpStep(s);
        Tensor m = s.computeIfAbsent("exp_avg", k -> Tensor.zerosLike(p));
        Tensor v = s.computeIfAbsent("exp_avg_sq", k -> Tensor.zerosLike(p));
        return new Step(m, v, decoupled && weightDecay != 0 ? 1 - lr * weightDecay : 1, decoupled ? 0 : weightDecay,
                lr / (1 - Math.pow(beta1, t)), Math.sqrt(1 - Math.pow(beta2, t)));
    }

    @Override
    protected Map<String, String> hyperparameters() {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("beta1", Double.toString(beta1));
        h.put("beta2", Double.toString(beta2));
        h.put("eps", Double.toString(eps));
        h.put("weight_decay", Double.toString(weightDecay));
        return h;
    }
}
