package dev.jgrad.examples;

/**
 * Bad input from the person at the command line (a missing file, a bad value): printed as one line,
 * exit code 2, no stack trace.
 */
public class UserError extends dev.jgrad.train.RunException {
    private static final long serialVersionUID = 1L;

    public UserError(String message) {
        super(message);
    }

    public UserError(String message, Throwable cause) {
        super(message, cause);
    }
}
