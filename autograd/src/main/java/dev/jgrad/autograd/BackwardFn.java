package dev.jgrad.autograd;

/**
 * The backward rule of one recorded op: from the gradient of its output, the gradient of each input,
 * in the output's shape or the input's (the engine sums broadcast dims down to the input's shape).
 * An entry may be null where {@link Node#needs(int)} is false.
 *
 * <p>A rule computes with {@link Variable} ops, so it is written once for both kinds of backward: in a
 * first-order pass grad mode is off and the ops record nothing (they run on the tensors, as a rule on
 * tensors would); with {@code createGraph} grad mode is on and the rule's own ops are recorded, so the
 * gradient it returns can be differentiated again. This is PyTorch's design, whose formulas are ATen
 * ops that record only when grad mode is on in backward.
 */
@FunctionalInterface
interface BackwardFn {
    Variable[] apply(Variable grad, Node node);
}
