package dev.jgrad.tensor;

/**
 * The operations shared by {@link Tensor} and autograd's differentiable values, so that an operation
 * composed of them (einsum, for instance) is written once and is differentiable for free when it runs
 * on differentiable values.
 *
 * @param <T> the implementing type itself
 */
public interface ArrayOps<T extends ArrayOps<T>> {
    int[] shape();

    int dim();

    T add(T other);

    T sub(T other);

    T mul(T other);

    T div(T other);

    T neg();

    T exp();

    T log();

    T square();

    T sum();

    T sum(int[] dims, boolean keepdim);

    T sumTo(int... shape);

    T view(int... shape);

    T reshape(int... shape);

    T transpose(int dim0, int dim1);

    T permute(int... dims);

    T expand(int... sizes);

    T unsqueeze(int dim);

    T squeeze(int dim);

    T select(int dim, int index);

    T diagonal(int offset, int dim1, int dim2);

    T contiguous();

    T matmul(T other);
}
