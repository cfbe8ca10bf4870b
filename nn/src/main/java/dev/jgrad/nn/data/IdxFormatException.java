package dev.jgrad.nn.data;

import java.io.IOException;

/** An IDX file that is not one: bad magic, a truncated body, trailing bytes, sizes past the limit. The message names the file. */
public class IdxFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    /** A file that is not a whole IDX file, with the file and the reason. */
    public IdxFormatException(String message) {
        super(message);
    }
}
