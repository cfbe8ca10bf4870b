package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Generator;

/**
 * {@code nn.Embedding(num, dim)}: a table of learnable rows looked up by int64 indices, initialised
 * N(0, 1). A row used several times in a batch gets the sum of its gradients.
 */
public class Embedding extends Layer {
    /** The table {@code (num_embeddings, embedding_dim)}. */
    public final Parameter weight;

    /** A table of {@code numEmbeddings} vectors of {@code embeddingDim}, drawn from the default generator. */
    public Embedding(int numEmbeddings, int embeddingDim) {
        this(numEmbeddings, embeddingDim, Init.defaultGenerator());
    }

    /** A table of {@code numEmbeddings} vectors of {@code embeddingDim}, normal(0, 1) from {@code gen} as PyTorch draws it. */
    public Embedding(int numEmbeddings, int embeddingDim, Generator gen) {
        this.weight = registerParameter("weight", new Parameter(Init.normal(gen, 1.0, numEmbeddings, embeddingDim)));
    }

    /** {@code x} holds int64 indices (it needs no gradient). */
    @Override
    public Variable forward(Variable x) {
        return Functional.embedding(x.data(), weight);
    }

    @Override
    protected String extraRepr() {
        return weight.size(0) + ", " + weight.size(1);
    }
}
