package dev.jgrad.autograd;

import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;

/**
 * A tensor an op keeps for its backward, with the version of its storage at the time. Backward checks
 * the version before it uses the tensor, so an in-place write in between is caught (as in PyTorch)
 * instead of giving a wrong gradient. Released by backward once used.
 */
final class Saved {
    private Tensor tensor;
    private final int version;
    private final Node owner;
    private final boolean isOutput;

    Saved(Tensor tensor, Node owner, boolean isOutput) {
        this.tensor = tensor;
        this.version = tensor.version();
        this.owner = owner;
        this.isOutput = isOutput;
    }

    Tensor get() {
        if (tensor == null) {
            throw new AutogradException(Engine.FREED_MESSAGE + " (op '" + owner.name() + "')");
        }
        if (tensor.version() != version) {
            throw new AutogradException("one of the variables needed for gradient computation has been modified by an inplace"
                    + " operation: [" + tensor.dtype() + " " + Shape.str(tensor.shape()) + "], which is "
                    + (isOutput ? "output 0" : "an input") + " of " + owner.name() + ", is at version " + tensor.version()
                    + "; expected version " + version + " instead. Hint: the in-place op came after '" + owner.name()
                    + "' was recorded" + owner.siteSuffix() + "; use the out-of-place op (add instead of addi) or clone() before"
                    + " modifying. Anomaly mode (try (var a = Anomaly.enable()) {...}) records where each op was called.");
        }
        return tensor;
    }

    long bytes() {
        return tensor == null ? 0 : (long) tensor.numel() * tensor.dtype().itemSize();
    }

    void release() {
        tensor = null;
    }
}
