package dev.jgrad.tensor;

/**
 * The result of {@code max(dim)} or {@code min(dim)}: the values (differentiable where the input is) and
 * their int64 indices along the dim (first on ties).
 *
 * @param <T> the type of the values: {@link Tensor}, or autograd's differentiable value
 */
public record ValuesIndices<T>(T values, Tensor indices) {
}
