package dev.jgrad.tensor;

/**
 * A tensor that would not fit in the heap that is left, refused before it is allocated: a recoverable
 * exception that names the size, where the JVM's own OutOfMemoryError could strike anywhere.
 */
public class OutOfMemoryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A tensor that would not fit in the heap, with its shape and size. */
    public OutOfMemoryException(String message) {
        super(message);
    }
}
