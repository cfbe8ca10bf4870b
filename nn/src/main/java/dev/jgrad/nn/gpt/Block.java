package dev.jgrad.nn.gpt;

import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.LayerNorm;
import dev.jgrad.nn.Layer;
import dev.jgrad.tensor.Generator;

/** nanoGPT's {@code Block}: {@code x + attn(ln_1(x))}, then {@code x + mlp(ln_2(x))}. */
public class Block extends Layer {
    final LayerNorm ln1;
    final CausalSelfAttention attn;
    final LayerNorm ln2;
    final MLP mlp;

    /** A transformer block of {@code c}'s width and heads, its weights drawn from {@code gen}. */
    public Block(GPTConfig c, Generator gen) {
        ln1 = registerModule("ln_1", GPT.layerNorm(c));
        attn = registerModule("attn", new CausalSelfAttention(c, gen));
        ln2 = registerModule("ln_2", GPT.layerNorm(c));
        mlp = registerModule("mlp", new MLP(c, gen));
    }

    @Override
    public Variable forward(Variable x) {
        return forward(x, null);
    }

    Variable forward(Variable x, KvCache.Layer cache) {
        Variable h = x.add(attn.forward(ln1.forward(x), cache));
        return h.add(mlp.forward(ln2.forward(h)));
    }

    /** The block's output at the last position of {@code x (B, T, C)} alone, {@code (B, 1, C)}: what the next logits need. */
    Variable forwardLast(Variable x, KvCache.Layer cache) {
        int t = x.size(1);
        Variable h = x.narrow(1, t - 1, 1).add(attn.forwardLast(ln1.forward(x), cache));
        return h.add(mlp.forward(ln2.forward(h)));
    }
}
