package dev.jgrad.autograd;

/** Anomaly mode found the op where a NaN or an infinity first appeared. */
public class AnomalyException extends AutogradException {
    private static final long serialVersionUID = 1L;
    /** The op where the NaN or infinity first appeared. */
    private final String op;
    /** Whether it appeared in the forward pass (else in backward). */
    private final boolean forward;

    AnomalyException(String op, boolean forward, String message) {
        super(message);
        this.op = op;
        this.forward = forward;
    }

    /** The name of the op that produced the value. */
    public String op() {
        return op;
    }

    /** Whether it happened in forward (false: in backward). */
    public boolean inForward() {
        return forward;
    }
}
