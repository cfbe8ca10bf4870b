package dev.jgrad.tensor;

import java.util.ArrayList;
import java.util.List;

/** cat and stack. */
final class Join {
    private Join() {
    }

    static Tensor cat(List<Tensor> tensors, int dim) {
        if (tensors.isEmpty()) {
            throw new ShapeException("torch.cat(): expected a non-empty list of Tensors");
        }
        // PyTorch skips legacy empty 1-d tensors of shape [0] when others have more dims.
        List<Tensor> parts = new ArrayList<>();
        Tensor ref = null;
        for (Tensor t : tensors) {
            if (t.dim() == 1 && t.shape[0] == 0) {
                continue;
            }
            parts.add(t);
            if (ref == null) {
                ref = t;
            }
        }
        if (ref == null) {
            return tensors.get(0).clone();
        }
        if (ref.dim() == 0) {
            throw new ShapeException("zero-dimensional tensor (at position 0) cannot be concatenated");
        }
        int n = ref.dim();
        int d = Shape.wrapDim(dim, n);
        DType type = ref.dtype();
        int total = 0;
        for (int k = 0; k < tensors.size(); k++) {
            Tensor t = tensors.get(k);
            if (t.dim() == 1 && t.shape[0] == 0) {
                continue;
            }
            if (t.dim() != n) {
                throw new ShapeException("Tensors must have same number of dimensions: got " + n + " and " + t.dim()
                        + " (tensor number " + k + " has shape " + Shape.str(t.shape) + ")");
            }
            for (int i = 0; i < n; i++) {
                if (i != d && t.shape[i] != ref.shape[i]) {
                    throw new ShapeException("Sizes of tensors must match except in dimension " + d + ". Expected size "
                            + ref.shape[i] + " but got size " + t.shape[i] + " for tensor number " + k + " in the list.");
                }
            }
            type = DType.promote(type, t.dtype());
            total += t.shape[d];
        }
        int[] shape = ref.shape();
        shape[d] = total;
        // The parts cover every element of the result, so it needs no zeroing first.
        Tensor out = Tensor.empty(type, shape);
        int at = 0;
        for (Tensor t : parts) {
            Elementwise.copy(t, Views.slice(out, d, at, at + t.shape[d], 1));
            at += t.shape[d];
        }
        return out;
    }

    static Tensor stack(List<Tensor> tensors, int dim) {
        if (tensors.isEmpty()) {
            throw new ShapeException("stack expects a non-empty TensorList");
        }
        int[] ref = tensors.get(0).shape;
        for (int k = 1; k < tensors.size(); k++) {
            if (!java.util.Arrays.equals(ref, tensors.get(k).shape)) {
                throw new ShapeException("stack expects each tensor to be equal size, but got " + Shape.str(ref) + " at entry 0 and "
                        + Shape.str(tensors.get(k).shape) + " at entry " + k);
            }
        }
        int d = Shape.wrapDim(dim, ref.length + 1);
        List<Tensor> parts = new ArrayList<>();
        for (Tensor t : tensors) {
            parts.add(Views.unsqueeze(t, d));
        }
        return cat(parts, d);
    }
}
