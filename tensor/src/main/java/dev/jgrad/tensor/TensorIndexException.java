package dev.jgrad.tensor;

/** An index outside the size of the dimension it indexes; the message names the index, the dimension and its size. */
public class TensorIndexException extends IndexOutOfBoundsException {
    private static final long serialVersionUID = 1L;

    /** An index out of range or ill-formed, with PyTorch's message. */
    public TensorIndexException(String message) {
        super(message);
    }

    static TensorIndexException outOfBounds(long index, int dim, int size) {
        return new TensorIndexException("index " + index + " is out of bounds for dimension " + dim + " with size " + size);
    }
}
