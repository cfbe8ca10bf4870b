package dev.jgrad.autograd;

import dev.jgrad.tensor.Tensor;

import java.util.List;
import java.util.function.Function;

/**
 * One differentiable op as the tests see it, after PyTorch's OpInfo: a name, the public methods of {@link Variable} it
 * exercises, how to draw a sample (inputs over random shapes, in the op's domain, and the function of them to check),
 * and the tolerances its gradient check needs. {@link OpRegistry#ALL} lists every op; the property tests iterate it.
 *
 * @param name    what a failure names ("div", "softmax", "index advanced")
 * @param methods the methods of Variable the sample calls, for the coverage test
 * @param domain  where the inputs are drawn, in words ("any", "positive", "away from 0")
 * @param atol    absolute tolerance of the gradient check
 * @param rtol    relative tolerance of the gradient check
 * @param sampler draws a sample from random shapes
 */
record OpInfo(String name, List<String> methods, String domain, double atol, double rtol, Sampler sampler) {
    /** Draws one sample of the op. */
    @FunctionalInterface
    interface Sampler {
        Sample draw(RandomShapes rs);
    }

    /** The function to check and the inputs to check it at (every input is differentiated). */
    record Sample(Function<Variable[], Variable> fn, Tensor... inputs) {
    }

    /** An op named after the one method it exercises, drawn anywhere, with gradcheck's default tolerances. */
    static OpInfo of(String name, Sampler sampler) {
        return new OpInfo(name, List.of(name.split(" ")[0]), "any", GradCheck.ATOL, GradCheck.RTOL, sampler);
    }

    /** The same op, its inputs drawn in {@code domain}. */
    OpInfo domain(String where) {
        return new OpInfo(name, methods, where, atol, rtol, sampler);
    }

    /** The same op, also exercising {@code more} methods of Variable. */
    OpInfo covers(String... more) {
        List<String> all = new java.util.ArrayList<>(methods);
        all.addAll(List.of(more));
        return new OpInfo(name, List.copyOf(all), domain, atol, rtol, sampler);
    }

    @Override
    public String toString() {
        return name;
    }
}
