package dev.jgrad.nn.optim;

import dev.jgrad.nn.Parameter;
import dev.jgrad.tensor.Tensor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code torch.optim.SGD}: {@code g += weight_decay * p}; with momentum, {@code buf = g} at the first step and
 * {@code buf = momentum * buf + (1 - dampening) * g} after; {@code g = g + momentum * buf} with Nesterov, else
 * {@code buf}; then {@code p -= lr * g}.
 */
public class SGD extends Optimizer {
    private final double momentum;
    private final double dampening;
    private final boolean nesterov;
    private final double weightDecay;

    /** Plain SGD: {@code p -= lr * grad}. */
    public SGD(List<Parameter> params, double lr) {
        this(params, lr, 0, 0, false, 0);
    }

    /** {@code torch.optim.SGD} with momentum, dampening, Nesterov and weight decay. */
    public SGD(List<Parameter> params, double lr, double momentum, double dampening, boolean nesterov, double weightDecay) {
        super(params, lr);
        if (momentum < 0 || weightDecay < 0) {
            throw new IllegalArgumentException("SGD: momentum and weight_decay must be >= 0, got " + momentum + ", " + weightDecay);
        }
        if (nesterov && (momentum <= 0 || dampening != 0)) {
            throw new IllegalArgumentException("Nesterov momentum requires a momentum and zero dampening");
        }
        this.momentum = momentum;
        this.dampening = dampening;
        this.nesterov = nesterov;
        this.weightDecay = weightDecay;
    }

    @Override
    protected void update(Tensor p, Tensor grad, Map<String, Tensor> s) {
        Tensor d = weightDecay != 0 ? grad.add(p, weightDecay) : grad;
        if (momentum != 0) {
            Tensor buf = s.get("momentum_buffer");
            if (buf == null) {
                buf = d.clone();
                s.put("momentum_buffer", buf);
            } else {
                buf.muli(momentum).addi(d, 1 - dampening);
            }
            d = nesterov ? d.add(buf, momentum) : buf;
        }
        p.addi(d, -lr);
    }

    @Override
    protected Map<String, String> hyperparameters() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("momentum", Double.toString(momentum));
        m.put("dampening", Double.toString(dampening));
        m.put("nesterov", Boolean.toString(nesterov));
        m.put("weight_decay", Double.toString(weightDecay));
        return m;
    }
}
