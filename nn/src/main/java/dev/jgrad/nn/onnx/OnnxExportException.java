package dev.jgrad.nn.onnx;

/** An export that cannot be made: an op without an ONNX form, a size the graph cannot follow, a file not written. */
public class OnnxExportException extends RuntimeException {
    /** An export refused for {@code message}. */
    public OnnxExportException(String message) {
        super(message);
    }

    /** An export that failed with {@code cause}. */
    public OnnxExportException(String message, Throwable cause) {
        super(message, cause);
    }
}
