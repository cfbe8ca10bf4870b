package dev.jgrad.examples.conformance;

/** A corpus op the runner does not implement; the case is reported as unsupported. */
final class UnsupportedOpException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UnsupportedOpException(String message) {
        super(message);
    }
}
