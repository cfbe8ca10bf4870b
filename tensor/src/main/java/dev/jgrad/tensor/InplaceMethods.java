package dev.jgrad.tensor;

/**
 * In-place ops, with the Java suffix {@code i} ({@code addi} is {@code add_}). They write through views
 * into the base and never grow their destination; the source may broadcast to it. On differentiable
 * values they follow PyTorch's rules (refused on a leaf that requires grad outside no-grad, recorded
 * otherwise, and caught at backward where they changed a tensor an op had saved).
 *
 * @param <T> the implementing type itself
 */
public interface InplaceMethods<T extends ArrayOps<T>> extends ArrayCore<T> {
    /** {@code this = op(this, other)} in place; returns this. */
    T inplace(BinaryOp op, T other);

    /** {@code this += alpha * other} in place. */
    T addi(T other, double alpha);

    /** Sets the elements where {@code mask} (bool, broadcast to this shape) is true to {@code value}, in place. */
    T maskedFilli(Tensor mask, double value);

    /** {@code copy_}: the values of {@code src} (broadcast to this shape, converted to this type) written in place. */
    T copyFrom(T src);

    /** Sets every element to {@code value}, in place. */
    T fill(double value);

    /** {@code this += other} in place; {@code other} may broadcast, this value's shape never changes. */
    default T addi(T other) {
        return inplace(BinaryOp.ADD, other);
    }

    /** Adds {@code s} to every element, in place. */
    default T addi(double s) {
        return inplace(BinaryOp.ADD, newScalar(s));
    }

    /** Subtracts {@code other} (broadcast to this shape), in place. */
    default T subi(T other) {
        return inplace(BinaryOp.SUB, other);
    }

    /** Subtracts {@code s} from every element, in place. */
    default T subi(double s) {
        return inplace(BinaryOp.SUB, newScalar(s));
    }

    /** Multiplies by {@code other} (broadcast to this shape), in place. */
    default T muli(T other) {
        return inplace(BinaryOp.MUL, other);
    }

    /** Multiplies every element by {@code s}, in place. */
    default T muli(double s) {
        return inplace(BinaryOp.MUL, newScalar(s));
    }

    /** Divides by {@code other} (broadcast to this shape), in place. */
    default T divi(T other) {
        return inplace(BinaryOp.DIV, other);
    }

    /** Divides every element by {@code s}, in place. */
    default T divi(double s) {
        return inplace(BinaryOp.DIV, newScalar(s));
    }

    /** Sets every element to 0, in place. */
    default T zero() {
        return fill(0.0);
    }
}
