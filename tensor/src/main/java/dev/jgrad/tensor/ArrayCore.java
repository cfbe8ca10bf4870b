package dev.jgrad.tensor;

/**
 * What every op family builds on: the shape and type, the values as a {@link Tensor}, and the way to
 * lift a tensor or a number into the implementing type without a gradient.
 *
 * @param <T> the implementing type itself
 */
public interface ArrayCore<T extends ArrayOps<T>> {
    /** The size of each dim (a copy). */
    int[] shape();

    /** The element type. */
    DType dtype();

    /** The values, as a tensor (for a tensor, itself; shared, not copied). */
    Tensor data();

    /** {@code values} in the implementing type, as a constant no gradient flows into. */
    T constant(Tensor values);

    /** The number of dims (0 for a scalar). */
    default int dim() {
        return shape().length;
    }

    /** The size of one dim; negative dims count from the end. */
    default int size(int dim) {
        int[] s = shape();
        return s[Shape.wrapDim(dim, s.length)];
    }

    /** The number of elements: the product of the sizes (1 for a scalar, 0 where a dim is 0). */
    default int numel() {
        return Shape.numel(shape());
    }

    /** The value of a one-element tensor. */
    default double item() {
        return data().item();
    }

    /** Whether the element type is float32 or float64. */
    default boolean isFloatingPoint() {
        return dtype().isFloating();
    }

    /**
     * A 0-d constant holding {@code value} that combines with this without changing its type, as PyTorch
     * treats a Python number beside a tensor: this type where it is floating (or where the value is integral
     * and this is int64), float32 otherwise.
     */
    default T newScalar(double value) {
        return constant(Tensor.scalarLike(value, data()));
    }

    /** This value as the implementing type. */
    @SuppressWarnings("unchecked")
    default T self() {
        return (T) this;
    }
}
