package dev.jgrad.nn.data;

import dev.jgrad.tensor.Tensor;

import java.util.List;

/**
 * Samples addressed by index, as {@code torch.utils.data.Dataset}, read a batch at a time: a
 * {@link DataLoader} asks for the samples of each batch, so a dataset can keep its data in its own compact
 * form (bytes, say) and build only each batch's tensors.
 */
public interface Dataset {
    /** How many samples there are. */
    int size();

    /** The samples at {@code indices}: one tensor per field (images, labels, ...), each with a leading batch dim. */
    List<Tensor> get(long[] indices);
}
