package dev.jgrad.autograd;

import dev.jgrad.tensor.Tensor;

/**
 * The backward rule of one recorded op: from the gradient of its output, the gradient of each input,
 * in the output's shape or the input's (the engine sums broadcast dims down to the input's shape).
 * An entry may be null where {@link Node#needs(int)} is false.
 */
@FunctionalInterface
interface BackwardFn {
    Tensor[] apply(Tensor grad, Node node);
}
