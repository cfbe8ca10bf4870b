package dev.jgrad.tensor;

/** The result of {@code max(dim)} or {@code min(dim)}: the values and their int64 indices along the dim. */
public record ValuesIndices(Tensor values, Tensor indices) {
}
