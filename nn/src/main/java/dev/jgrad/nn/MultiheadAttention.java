package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;

/**
 * {@code nn.MultiheadAttention(embed_dim, num_heads, batch_first=True)} with PyTorch's parameters and names:
 * {@code in_proj_weight (3E, E)} (Xavier-uniform), {@code in_proj_bias (3E)} (zeros), {@code out_proj.weight}
 * and {@code out_proj.bias} (zeros). See {@link Attention#multiHead} for the masks.
 *
 * <p>Where every key of a query is masked, PyTorch's eager path returns NaN for that query (and NaN
 * gradients for every parameter); this module returns zeros with zero gradient instead.
 */
public class MultiheadAttention extends Module {
    /** The input projection of queries, keys and values in one {@code (3 E, E)}, as PyTorch stores it. */
    public final Parameter inProjWeight;
    /** The input projection's bias {@code (3 E)}. */
    public final Parameter inProjBias;
    /** The output projection. */
    public final Linear outProj;
    private final int embedDim;
    private final int numHeads;

    /** Attention of width {@code embedDim} in {@code numHeads} heads, batch first, drawing from the default generator. */
    public MultiheadAttention(int embedDim, int numHeads) {
        this(embedDim, numHeads, Init.defaultGenerator());
    }

    /** Attention of width {@code embedDim} in {@code numHeads} heads, batch first, its weights drawn from {@code gen}. */
    public MultiheadAttention(int embedDim, int numHeads, Generator gen) {
        if (numHeads <= 0 || embedDim % numHeads != 0) {
            throw new IllegalArgumentException("embed_dim must be divisible by num_heads, got " + embedDim + " and " + numHeads);
        }
        this.embedDim = embedDim;
        this.numHeads = numHeads;
        this.inProjWeight = registerParameter("in_proj_weight",
                new Parameter(Init.xavierUniform(gen, embedDim, 3 * embedDim, 3 * embedDim, embedDim)));
        this.inProjBias = registerParameter("in_proj_bias", new Parameter(Tensor.zeros(3 * embedDim)));
        this.outProj = registerModule("out_proj", new Linear(embedDim, embedDim, true, gen));
        outProj.bias.data().zero();
    }

    /** Attention of {@code query (B,T,E)} over {@code key}/{@code value (B,S,E)}; masks may be null (see {@link Attention#multiHead}). */
    public Variable forward(Variable query, Variable key, Variable value, Tensor keyPaddingMask, Tensor attnMask, boolean causal) {
        return Attention.multiHead(query, key, value, numHeads, inProjWeight, inProjBias, outProj.weight, outProj.bias,
                keyPaddingMask, attnMask, causal);
    }

    /** Self-attention of {@code x (B,T,E)}. */
    public Variable forward(Variable x, Tensor keyPaddingMask, boolean causal) {
        return forward(x, x, x, keyPaddingMask, null, causal);
    }

    /** The width E. */
    public int embedDim() {
        return embedDim;
    }

    /** The number of heads. */
    public int numHeads() {
        return numHeads;
    }

    @Override
    protected String extraRepr() {
        return "embed_dim=" + embedDim + ", num_heads=" + numHeads + ", batch_first=True";
    }
}
