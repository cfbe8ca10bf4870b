package dev.jgrad.nn.optim;

import dev.jgrad.nn.Parameter;

import java.util.List;

/** {@code torch.optim.AdamW}: Adam with decoupled weight decay (default 0.01), {@code p *= 1 - lr * wd} before the update. */
public class AdamW extends Adam {
    /** AdamW with PyTorch's defaults: betas (0.9, 0.999), eps 1e-8, weight decay 0.01. */
    public AdamW(List<Parameter> params, double lr) {
        this(params, lr, 0.9, 0.999, 1e-8, 0.01);
    }

    /** {@code torch.optim.AdamW}: the weights decay by {@code lr * weightDecay} each step, apart from the gradient's moments. */
    public AdamW(List<Parameter> params, double lr, double beta1, double beta2, double eps, double weightDecay) {
        super(params, lr, beta1, beta2, eps, weightDecay, true);
    }

    /**
     * With parameter groups, each its own weight decay; nanoGPT's optimizer is
     * {@code new AdamW(ParamGroup.decayMatrices(model.parameters(), 0.1), 1e-3, 0.9, 0.99, 1e-8)}.
     */
    public AdamW(List<ParamGroup> groups, double lr, double beta1, double beta2, double eps) {
        super(groups, lr, beta1, beta2, eps, true);
    }
}
