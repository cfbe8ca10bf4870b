package dev.jgrad.autograd;

import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;

/**
 * A value an op keeps for its backward, with the version of its storage at the time. Backward checks
 * the version before it uses the value, so an in-place write in between is caught (as in PyTorch)
 * instead of giving a wrong gradient. Released by backward once used.
 *
 * <p>The value is kept as the {@link Variable} it was, with the node that produced it then, so that a
 * backward with {@code createGraph} differentiates through it (the second derivative of {@code exp}
 * flows through the saved output); masks and indices are kept as constants.
 */
final class Saved {
    private Variable value;
    private final Node producer;
    private final int version;
    private final Node owner;
    private final boolean isOutput;

    Saved(Variable value, Node owner, boolean isOutput) {
        this.value = value;
        this.producer = isOutput ? owner : value.gradFn;
        this.version = value.data.version();
        this.owner = owner;
        this.isOutput = isOutput;
    }

    Variable get() {
        if (value == null) {
            throw new AutogradException(Engine.FREED_MESSAGE + " (op '" + owner.name() + "')");
        }
        Tensor tensor = value.data;
        if (tensor.version() != version) {
            throw new AutogradException("one of the variables needed for gradient computation has been modified by an inplace"
                    + " operation: [" + tensor.dtype() + " " + Shape.str(tensor.shape()) + "], which is "
                    + (isOutput ? "output 0" : "an input") + " of " + owner.name() + ", is at version " + tensor.version()
                    + "; expected version " + version + " instead. Hint: the in-place op came after '" + owner.name()
                    + "' was recorded" + owner.siteSuffix() + "; use the out-of-place op (add instead of addi) or clone() before"
                    + " modifying. Anomaly mode (try (var a = Anomaly.enable()) {...}) records where each op was called.");
        }
        if (value.gradFn != producer && producer != null) {
            // The variable's history moved on (an in-place op on a copy of it); the saved value is what it was then.
            return new Variable(tensor, producer);
        }
        return value;
    }

    long bytes() {
        return value == null ? 0 : (long) value.data.numel() * value.data.dtype().itemSize();
    }

    void release() {
        value = null;
    }
}
