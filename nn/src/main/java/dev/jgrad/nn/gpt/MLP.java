package dev.jgrad.nn.gpt;

import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.Dropout;
import dev.jgrad.nn.Layer;
import dev.jgrad.nn.Linear;
import dev.jgrad.tensor.Generator;

/** nanoGPT's {@code MLP}: {@code c_fc} to 4 x width, exact GELU, {@code c_proj} back, dropout. */
public class MLP extends Layer {
    final Linear cFc;
    final Linear cProj;
    private final Dropout dropout;

    /** The block's feed-forward part of {@code c}'s width, its weights drawn from {@code gen}. */
    public MLP(GPTConfig c, Generator gen) {
        cFc = registerModule("c_fc", GPT.linear(c.nEmbd(), 4 * c.nEmbd(), c.bias(), 0.02, gen));
        cProj = registerModule("c_proj", GPT.linear(4 * c.nEmbd(), c.nEmbd(), c.bias(), 0.02 / Math.sqrt(2.0 * c.nLayer()), gen));
        dropout = registerModule("dropout", new Dropout(c.dropout(), gen));
    }

    @Override
    public Variable forward(Variable x) {
        return dropout.forward(cProj.forward(cFc.forward(x).gelu()));
    }
}
