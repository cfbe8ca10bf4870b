package dev.jgrad.examples.conformance;

import dev.jgrad.autograd.AutogradException;
import dev.jgrad.tensor.DTypeException;
import dev.jgrad.tensor.ShapeException;

/** The five kinds of error the corpus distinguishes, from the project's own exception types. */
enum ErrorKind {
    SHAPE, INDEX, DTYPE, AUTOGRAD, VALUE;

    static ErrorKind of(Throwable e) {
        if (e instanceof ShapeException) {
            return SHAPE;
        }
        if (e instanceof IndexOutOfBoundsException) {
            return INDEX;
        }
        if (e instanceof DTypeException) {
            return DTYPE;
        }
        if (e instanceof AutogradException) {
            return AUTOGRAD;
        }
        return VALUE;
    }

    String pyName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
