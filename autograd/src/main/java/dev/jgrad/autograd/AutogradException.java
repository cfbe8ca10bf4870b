package dev.jgrad.autograd;

/** A violation of autograd's rules: in-place on a leaf, a modified saved tensor, a freed graph, a non-scalar root. */
public class AutogradException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** An autograd error with its message (PyTorch's text where PyTorch raises one). */
    public AutogradException(String message) {
        super(message);
    }
}
