package dev.jgrad.tensor;

/** An operation was given a tensor of an element type it cannot take. */
public class DTypeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** An op given a tensor of a type it does not take, with PyTorch's message. */
    public DTypeException(String message) {
        super(message);
    }
}
