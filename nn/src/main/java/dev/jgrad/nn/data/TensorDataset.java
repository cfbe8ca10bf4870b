package dev.jgrad.nn.data;

import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.List;

/** Samples along the first dim of one or more tensors of equal length, as {@code TensorDataset}. */
public final class TensorDataset implements Dataset {
    private final List<Tensor> tensors;
    private final int size;

    /** Samples made of the first dim's slices of {@code tensors}, which must share that dim's size. */
    public TensorDataset(Tensor... tensors) {
        if (tensors.length == 0) {
            throw new IllegalArgumentException("TensorDataset needs at least one tensor");
        }
        this.size = tensors[0].dim() == 0 ? -1 : tensors[0].size(0);
        for (Tensor t : tensors) {
            if (t.dim() == 0 || t.size(0) != size) {
                StringBuilder sb = new StringBuilder("Size mismatch between tensors: every tensor needs the same first dim, got");
                for (Tensor u : tensors) {
                    sb.append(' ').append(Shape.str(u.shape()));
                }
                throw new dev.jgrad.tensor.ShapeException(sb.toString());
            }
        }
        this.tensors = List.of(tensors);
    }

    @Override
    public int size() {
        return size;
    }

    /** The samples at {@code indices}, one tensor per dataset tensor, each with a leading batch dim. */
    @Override
    public List<Tensor> get(long[] indices) {
        Tensor idx = Tensor.of(indices, indices.length);
        List<Tensor> out = new ArrayList<>(tensors.size());
        for (Tensor t : tensors) {
            out.add(t.indexSelect(0, idx));
        }
        return out;
    }
}
