package dev.jgrad.nn.optim;

import dev.jgrad.nn.Parameter;
import dev.jgrad.tensor.Tensor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code torch.optim.RMSprop}, in PyTorch's order of operations: {@code g += weight_decay * p};
 * {@code square_avg = alpha * square_avg + (1 - alpha) g^2}; centered, {@code grad_avg} follows g the same way and the
 * denominator is {@code sqrt(square_avg - grad_avg^2) + eps}, else {@code sqrt(square_avg) + eps}; with momentum
 * {@code buf = momentum * buf + g / denominator} and {@code p -= lr * buf}, else {@code p -= lr * g / denominator}.
 */
public class RMSprop extends Optimizer {
    private final double alpha;
    private final double eps;
    private final double weightDecay;
    private final double momentum;
    private final boolean centered;

    /** RMSprop with PyTorch's defaults: alpha 0.99, eps 1e-8, no weight decay, no momentum, not centered. */
    public RMSprop(List<Parameter> params, double lr) {
        this(params, lr, 0.99, 1e-8, 0, 0, false);
    }

    /** {@code torch.optim.RMSprop(params, lr, alpha, eps, weight_decay, momentum, centered)}. */
    public RMSprop(List<Parameter> params, double lr, double alpha, double eps, double weightDecay, double momentum, boolean centered) {
        super(params, lr);
        if (!(alpha >= 0)) {
            throw new IllegalArgumentException("Invalid alpha value: " + alpha + " (0 or more)");
        }
        if (!(eps >= 0) || !(weightDecay >= 0) || !(momentum >= 0)) {
            throw new IllegalArgumentException("Invalid eps, weight_decay or momentum: " + eps + ", " + weightDecay + ", " + momentum
                    + " (each 0 or more)");
        }
        this.alpha = alpha;
        this.eps = eps;
        this.weightDecay = weightDecay;
        this.momentum = momentum;
        this.centered = centered;
    }

    @Override
    protected void update(Tensor p, Tensor grad, Map<String, Tensor> s) {
        Tensor g = weightDecay != 0 ? grad.add(p, weightDecay) : grad;
        Tensor squareAvg = s.computeIfAbsent("square_avg", k -> Tensor.zeros(p.dtype(), p.shape()));
        squareAvg.muli(alpha).addcmuli(g, g, 1 - alpha);
        Tensor avg;
        if (centered) {
            Tensor gradAvg = s.computeIfAbsent("grad_avg", k -> Tensor.zeros(p.dtype(), p.shape()));
            // lerp_(g, 1 - alpha), as PyTorch computes a weight below one half: self + weight * (end - self).
            gradAvg.addi(g.sub(gradAvg), 1 - alpha);
            avg = squareAvg.clone().addcmuli(gradAvg, gradAvg, -1).sqrt();
        } else {
            avg = squareAvg.sqrt();
        }
        avg.addi(eps);
        if (momentum > 0) {
            Tensor buf = s.computeIfAbsent("momentum_buffer", k -> Tensor.zeros(p.dtype(), p.shape()));
            buf.muli(momentum).addcdivi(g, avg, 1);
            p.addi(buf, -lr);
        } else {
            p.addcdivi(g, avg, -lr);
        }
    }

    @Override
    protected Map<String, String> hyperparameters() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("alpha", Double.toString(alpha));
        m.put("eps", Double.toString(eps));
        m.put("weight_decay", Double.toString(weightDecay));
        m.put("momentum", Double.toString(momentum));
        m.put("centered", Boolean.toString(centered));
        return m;
    }
}
