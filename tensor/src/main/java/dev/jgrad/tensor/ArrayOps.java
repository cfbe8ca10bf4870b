package dev.jgrad.tensor;

/**
 * The one op surface of {@link Tensor} and of autograd's differentiable values (the model is tinygrad's
 * {@code OpMixin}, which both its {@code Tensor} and {@code UOp} inherit). Implementations provide the
 * primitives; every overload and composite ({@code sum(int)}, {@code mean()}, {@code flatten},
 * {@code clampMin}, {@code rsub}, {@code split}, {@code chunk}, the scalar forms of the binary ops, ...)
 * is a default method written once in one of the family interfaces, so the two types cannot drift apart
 * and a composite is differentiable for free.
 *
 * <p>The families, one file each: {@link PointwiseMethods}, {@link ReductionMethods}, {@link ViewMethods},
 * {@link IndexingMethods}, {@link InplaceMethods}; this interface adds the matrix product.
 *
 * @param <T> the implementing type itself
 */
public interface ArrayOps<T extends ArrayOps<T>>
        extends PointwiseMethods<T>, ReductionMethods<T>, ViewMethods<T>, IndexingMethods<T>, InplaceMethods<T> {

    /** {@code torch.matmul}: dot, matrix-vector, matrix-matrix and batched products with broadcast batch dims. */
    T matmul(T other);
}
