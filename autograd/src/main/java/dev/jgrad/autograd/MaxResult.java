package dev.jgrad.autograd;

import dev.jgrad.tensor.Tensor;

/** {@code torch.max(x, dim)}: the values (differentiable) and their int64 indices along the dim. */
public record MaxResult(Variable values, Tensor indices) {
}
