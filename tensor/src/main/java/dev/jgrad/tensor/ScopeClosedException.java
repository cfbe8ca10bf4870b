package dev.jgrad.tensor;

/** A tensor used after the {@link Memory#scope()} it was made in closed and recycled its memory. */
public class ScopeClosedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** A tensor used after the memory scope that made it was closed, with what was used. */
    public ScopeClosedException(String message) {
        super(message);
    }
}
