package dev.jgrad.nn.gpt;

import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.Attention;
import dev.jgrad.nn.Dropout;
import dev.jgrad.nn.Layer;
import dev.jgrad.nn.Linear;
import dev.jgrad.tensor.Generator;

/**
 * nanoGPT's {@code CausalSelfAttention}: one projection {@code c_attn} to q, k and v (in that order on the last dim),
 * heads of {@code n_embd / n_head}, softmax of the scaled scores with the causal mask applied by position (the fused
 * float32 op: no (T, T) mask is made), and the output projection {@code c_proj}.
 */
public class CausalSelfAttention extends Layer {
    final Linear cAttn;
    final Linear cProj;
    private final Dropout attnDropout;
    private final Dropout residDropout;
    private final int nHead;
    private final int nEmbd;
    private final double dropout;

    /** Causal self-attention of {@code c}'s width and heads, its weights drawn from {@code gen}. */
    public CausalSelfAttention(GPTConfig c, Generator gen) {
        cAttn = registerModule("c_attn", GPT.linear(c.nEmbd(), 3 * c.nEmbd(), c.bias(), 0.02, gen));
        cProj = registerModule("c_proj", GPT.linear(c.nEmbd(), c.nEmbd(), c.bias(), 0.02 / Math.sqrt(2.0 * c.nLayer()), gen));
        attnDropout = registerModule("attn_dropout", new Dropout(c.dropout(), gen));
        residDropout = registerModule("resid_dropout", new Dropout(c.dropout(), gen));
        nHead = c.nHead();
        nEmbd = c.nEmbd();
        dropout = c.dropout();
    }

    /** {@code x (B, T, C)}, every position attending to itself and those before it. */
    @Override
    public Variable forward(Variable x) {
        return forward(x, null);
    }

    /**
     * With a cache: the keys and values of {@code x}'s positions are appended to it, and each position attends to
     * everything cached before it too; {@code x} is either the whole context (the cache is empty) or one new position.
     */
    Variable forward(Variable x, KvCache.Layer cache) {
        int b = x.size(0);
        int t = x.size(1);
        int d = nEmbd / nHead;
        Variable qkv = cAttn.forward(x);
        Variable q = heads(qkv.narrow(2, 0, nEmbd), b, t, d);
        Variable k = heads(qkv.narrow(2, nEmbd, nEmbd), b, t, d);
        Variable v = heads(qkv.narrow(2, 2 * nEmbd, nEmbd), b, t, d);
        Variable y;
        if (dropout > 0 && isTraining()) {
            y = withDropout(q, k, v, t, d);
        } else if (cache == null || cache.length() == 0) {
            if (cache != null) {
                cache.append(k.data(), v.data());
            }
            y = Attention.scaledDotProduct(q, k, v, null, true, Double.NaN);
        } else {
            if (t != 1) {
                throw new IllegalArgumentException("a cached attention step takes one new position, got " + t);
            }
            cache.append(k.data(), v.data());
            // One query over every cached key: nothing lies in its future, so no mask.
            y = Attention.scaledDotProduct(q, Variable.of(cache.keys()), Variable.of(cache.values()), null, false, Double.NaN);
        }
        return residDropout.forward(cProj.forward(y.transpose(1, 2).reshape(b, t, nEmbd)));
    }

    /**
     * The attention output of the last position of {@code x (B, T, C)} alone, {@code (B, 1, C)}: its query over every
     * key (nothing lies in its future, so no mask). The keys and values of all T positions go into the cache, if any.
     */
    Variable forwardLast(Variable x, KvCache.Layer cache) {
        int b = x.size(0);
        int t = x.size(1);
        int d = nEmbd / nHead;
        Variable qkv = cAttn.forward(x);
        Variable q = heads(qkv.narrow(1, t - 1, 1).narrow(2, 0, nEmbd), b, 1, d);
        Variable k = heads(qkv.narrow(2, nEmbd, nEmbd), b, t, d);
        Variable v = heads(qkv.narrow(2, 2 * nEmbd, nEmbd), b, t, d);
        if (cache != null) {
            cache.append(k.data(), v.data());
        }
        Variable y = Attention.scaledDotProduct(q, k, v, null, false, Double.NaN);
        return residDropout.forward(cProj.forward(y.transpose(1, 2).reshape(b, 1, nEmbd)));
    }

    /** Attention with dropout on its weights ({@code attn_dropout}), as nanoGPT's path without flash attention. */
    private Variable withDropout(Variable q, Variable k, Variable v, int t, int d) {
        Variable scores = q.matmul(k.mT()).mul(1.0 / Math.sqrt(d));
        Variable weights = scores.maskedFill(Attention.causalMask(t, t), Double.NEGATIVE_INFINITY).softmax(-1);
        return attnDropout.forward(weights).matmul(v);
    }

    /** {@code (B, T, C)} to {@code (B, H, T, d)}. */
    private Variable heads(Variable z, int b, int t, int d) {
        return z.reshape(b, t, nHead, d).transpose(1, 2);
    }

    int heads() {
        return nHead;
    }
}
