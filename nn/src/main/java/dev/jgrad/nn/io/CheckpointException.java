package dev.jgrad.nn.io;

import java.io.IOException;

/** A checkpoint file that cannot be read: missing, truncated, corrupt or of an unsupported kind. The message names the file. */
public class CheckpointException extends IOException {
    private static final long serialVersionUID = 1L;

    /** A checkpoint that cannot be read or does not fit, with the reason. */
    public CheckpointException(String message) {
        super(message);
    }

    /** A checkpoint that cannot be read or does not fit, with the reason and its cause. */
    public CheckpointException(String message, Throwable cause) {
        super(message, cause);
    }
}
