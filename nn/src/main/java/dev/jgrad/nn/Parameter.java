package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Tensor;

/** A learnable tensor of a module: a leaf variable that requires grad, as {@code nn.Parameter}. */
public class Parameter extends Variable {
    public Parameter(Tensor data) {
        super(data, true);
    }

    public Parameter(Tensor data, boolean requiresGrad) {
        super(data, requiresGrad);
    }
}
