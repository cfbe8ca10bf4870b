package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Tensor;

/** A learnable tensor of a module: a leaf variable that requires grad, as {@code nn.Parameter}. */
public class Parameter extends Variable {
    /** A parameter outlives any {@code Memory.scope()} it is made in: its data is kept. */
    public Parameter(Tensor data) {
        super(data.keep(), true);
    }

    /** A parameter holding {@code data}, which gradients flow into when {@code requiresGrad}. */
    public Parameter(Tensor data, boolean requiresGrad) {
        super(data.keep(), requiresGrad);
    }
}
