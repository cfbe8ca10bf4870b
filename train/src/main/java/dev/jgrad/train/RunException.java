package dev.jgrad.train;

/**
 * A run that cannot start or go on for a reason its user can mend: a folder that holds another run, a checkpoint that
 * does not fit, a loss that turned NaN, a full disk. The message is one line that names what was wrong (the file, the
 * option, the step); the command line prints it and exits with code 2.
 */
public class RunException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A run that cannot start or go on, with the one line that says why. */
    public RunException(String message) {
        super(message);
    }

    /** A run that cannot start or go on, with the one line that says why and its cause. */
    public RunException(String message, Throwable cause) {
        super(message, cause);
    }
}
