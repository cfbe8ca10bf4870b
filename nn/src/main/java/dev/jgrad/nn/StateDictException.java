package dev.jgrad.nn;

/** A state dict that does not fit a module: names missing or unexpected, shapes or dtypes different. */
public class StateDictException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** A state dict that does not fit the module, listing every missing, unexpected and mis-shaped entry. */
    public StateDictException(String message) {
        super(message);
    }
}
