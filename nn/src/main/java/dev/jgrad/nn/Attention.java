package dev.jgrad.nn;

import dev.jgrad.autograd.CustomFunction;
import dev.jgrad.autograd.Trace;
import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.internal.fused.FusedAttention;
import dev.jgrad.tensor.internal.fused.MaskedSoftmax;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;

/**
 * Scaled dot-product and multi-head attention, functional forms.
 *
 * <p>Masks are bool with {@code true} meaning "masked out", as in {@code nn.MultiheadAttention} and
 * {@code masked_fill}. They combine by broadcasting: a key padding mask {@code (B,S)} becomes
 * {@code (B,1,1,S)}, an attention mask {@code (T,S)} and the causal mask become {@code (1,1,T,S)}, and the
 * result {@code (B,1,T,S)} is applied to the scores {@code (B,H,T,S)} through a stride-0 view: the padding
 * mask is never copied per head.
 *
 * <p>Unlike PyTorch's eager path, a query whose keys are all masked gets zeros (and zero gradient)
 * instead of NaN: softmax over an all {@code -inf} row is 0/0 in PyTorch, and that NaN spreads to every
 * parameter at backward. Here such rows are detected and their weights set to 0.
 */
public final class Attention {
    private Attention() {
    }

    /** The causal mask {@code (T, S)}: true above the diagonal, where a query would see a later key ({@code triu(1)}). */
    public static Tensor causalMask(int t, int s) {
        return Tensor.ones(DType.BOOL, t, s).triu(1);
    }

    /**
     * {@code softmax(q k^T * scale + mask) v} on {@code (..., T, d)} queries and {@code (..., S, d)} keys and
     * values, as {@code F.scaled_dot_product_attention}: {@code mask} (broadcastable to {@code (..., T, S)})
     * is bool (true = masked out) or floating (added to the scores), or null; {@code causal} adds the
     * causal mask; {@code scale} NaN means {@code 1/sqrt(d)}.
     */
    public static Variable scaledDotProduct(Variable q, Variable k, Variable v, Tensor mask, boolean causal, double scale) {
        boolean bool = mask == null || mask.dtype() == DType.BOOL;
        int mark = Trace.mark();
        return Trace.annotate(mark, attend(q, k, v, bool ? mask : null, bool ? null : mask, causal, scale), "attention", q, k, v, mask, causal,
                scale);
    }

    /** The one implementation of attention: {@code masked} (bool, true = out) and {@code bias} (added) may each be null. */
    private static Variable attend(Variable q, Variable k, Variable v, Tensor masked, Tensor bias, boolean causal, double scale) {
        if (q.dim() < 2 || k.dim() < 2 || v.dim() < 2) {
            throw new ShapeException("attention: query, key and value need at least 2 dims (..., T, d), got "
                    + Shape.str(q.shape()) + ", " + Shape.str(k.shape()) + ", " + Shape.str(v.shape()));
        }
        if (bias != null && !bias.isFloatingPoint()) {
            throw new dev.jgrad.tensor.DTypeException("attention: a mask must be bool (true = masked out) or floating (added to"
                    + " the scores), got " + bias.dtype());
        }
        int d = q.size(-1);
        double sc = Double.isNaN(scale) ? 1.0 / Math.sqrt(d) : scale;
        if (bias == null && masked == null && FusedAttention.applies(q.data(), k.data(), v.data())) {
            return fused(q, k, v, causal, sc);
        }
        if (bias == null && q.dtype() == DType.FLOAT32 && k.dtype() == DType.FLOAT32) {
            return maskedSoftmax(q.matmul(k.mT()), masked, causal, sc).matmul(v);
        }
        Variable scores = q.matmul(k.mT()).mul(sc);
        if (bias != null) {
            scores = scores.add(Variable.of(bias.to(scores.dtype())));
        }
        Tensor m = causal ? union(masked, causalMask(q.size(-2), k.size(-2))) : masked;
        return weightsTimesValues(scores, m, v);
    }

    /**
     * {@code softmax(scale scores)} with the masked positions (and with {@code causal}, those past each query) left out,
     * as one op in float32 ({@link MaskedSoftmax}); the composite in {@link #weightsTimesValues} is the definition it is tested against,
     * and what float64 and float masks use.
     */
    private static Variable maskedSoftmax(Variable scores, Tensor mask, boolean causal, double scale) {
        Tensor y = MaskedSoftmax.forward(scores.data(), mask, causal, scale);
        return CustomFunction.apply("masked_softmax", y, new Variable[] {scores}, new Tensor[] {y},
                (g, saved, needs) -> new Tensor[] {MaskedSoftmax.backward(g, saved[0], scale)},
                in -> maskedWeights(in[0].mul(scale), causal ? union(mask, causalMask(scores.size(-2), scores.size(-1))) : mask));
    }

    /**
     * Attention without a mask tensor as one float32 op ({@link FusedAttention}: a head at a time, and with the causal mask
     * about half the products); the composite of products, masked fill and softmax is its definition, which a backward
     * with createGraph differentiates.
     */
    private static Variable fused(Variable q, Variable k, Variable v, boolean causal, double scale) {
        FusedAttention.Forward f = FusedAttention.forward(q.data(), k.data(), v.data(), causal, scale);
        return CustomFunction.apply("scaled_dot_product_attention", f.output(), new Variable[] {q, k, v},
                new Tensor[] {q.data(), k.data(), v.data(), f.weights()},
                (g, saved, needs) -> FusedAttention.backward(g, saved[0], saved[1], saved[2], saved[3], causal, scale, needs),
                in -> maskedWeights(in[0].matmul(in[1].mT()).mul(scale), causal ? causalMask(q.size(-2), k.size(-2)) : null).matmul(in[2]));
    }

    /** The positions masked by either bool mask (broadcast together); {@code a} may be null. */
    private static Tensor union(Tensor a, Tensor b) {
        return a == null ? b : a.logicalOr(b);
    }

    /** softmax over the last dim with {@code mask} applied (rows with every key masked give zero weights), times v. */
    static Variable weightsTimesValues(Variable scores, Tensor mask, Variable v) {
        return maskedWeights(scores, mask).matmul(v);
    }

    /** softmax over the last dim with {@code mask} applied: rows with every key masked give zero weights. */
    private static Variable maskedWeights(Variable scores, Tensor mask) {
        if (mask == null) {
            return scores.softmax(-1);
        }
        Tensor emptyRows = mask.all(-1, true);
        Variable masked = scores.maskedFill(mask, Double.NEGATIVE_INFINITY);
        boolean anyEmpty = emptyRows.any();
        if (anyEmpty) {
            masked = masked.maskedFill(emptyRows, 0.0);
        }
        Variable w = masked.softmax(-1);
        if (anyEmpty) {
            w = w.maskedFill(emptyRows, 0.0);
        }
        return w;
    }

    /**
     * {@code nn.MultiheadAttention(E, H, batch_first=True)} forward with explicit parameters:
     * {@code inProjWeight (3E, E)}, {@code inProjBias (3E)}, {@code outProjWeight (E, E)}, {@code outProjBias (E)}
     * (biases may be null). Query {@code (B, T, E)}, key and value {@code (B, S, E)}; {@code keyPaddingMask}
     * bool {@code (B, S)} (true = padding); {@code attnMask} {@code (T, S)}, bool (true = not allowed) or float
     * (added to the scores); {@code causal} adds the causal mask. Any mask may be null.
     */
    public static Variable multiHead(Variable query, Variable key, Variable value, int numHeads,
                                     Variable inProjWeight, Variable inProjBias, Variable outProjWeight, Variable outProjBias,
                                     Tensor keyPaddingMask, Tensor attnMask, boolean causal) {
        int mark = Trace.mark();
        if (query.dim() != 3 || key.dim() != 3 || value.dim() != 3) {
            throw new ShapeException("multi_head_attention: query, key and value must be (B, T, E) with batch_first, got "
                    + Shape.str(query.shape()) + ", " + Shape.str(key.shape()) + ", " + Shape.str(value.shape()));
        }
        int b = query.size(0);
        int t = query.size(1);
        int e = query.size(2);
        int s = key.size(1);
        if (numHeads <= 0 || e % numHeads != 0) {
            throw new IllegalArgumentException("embed_dim " + e + " must be divisible by num_heads " + numHeads);
        }
        if (key.size(0) != b || value.size(0) != b || key.size(2) != e || value.size(2) != e || value.size(1) != s) {
            throw new ShapeException("multi_head_attention: key and value must be (B, S, E) = [" + b + ", S, " + e + "], got "
                    + Shape.str(key.shape()) + " and " + Shape.str(value.shape()));
        }
        int h = numHeads;
        int d = e / h;
        Variable q;
        Variable k;
        Variable v;
        if (query == key && key == value) {
            java.util.List<Variable> qkv = Variable.linear(query, inProjWeight, inProjBias).chunk(3, -1);
            q = qkv.get(0);
            k = qkv.get(1);
            v = qkv.get(2);
        } else {
            q = project(query, inProjWeight, inProjBias, 0, e);
            k = project(key, inProjWeight, inProjBias, 1, e);
            v = project(value, inProjWeight, inProjBias, 2, e);
        }
        q = q.view(b, t, h, d).transpose(1, 2);
        k = k.view(b, s, h, d).transpose(1, 2);
        v = v.view(b, s, h, d).transpose(1, 2);
        Tensor mask = null;
        Tensor bias = null;
        if (keyPaddingMask != null) {
            if (keyPaddingMask.dtype() != DType.BOOL || !java.util.Arrays.equals(keyPaddingMask.shape(), new int[] {b, s})) {
                throw new ShapeException("key_padding_mask must be bool (B, S) = [" + b + ", " + s + "] (true marks padding keys), got "
                        + keyPaddingMask.dtype() + " " + Shape.str(keyPaddingMask.shape()));
            }
            mask = keyPaddingMask.view(b, 1, 1, s);
        }
        if (attnMask != null) {
            if (!java.util.Arrays.equals(attnMask.shape(), new int[] {t, s})) {
                throw new ShapeException("attn_mask must be (T, S) = [" + t + ", " + s + "], got " + Shape.str(attnMask.shape()));
            }
            if (attnMask.dtype() == DType.BOOL) {
                mask = union(mask, attnMask);
            } else {
                bias = attnMask;
            }
        }
        Variable heads = attend(q, k, v, mask, bias, causal, Double.NaN);
        Variable merged = heads.transpose(1, 2).reshape(b, t, e);
        return Trace.annotate(mark, Variable.linear(merged, outProjWeight, outProjBias), "multi_head_attention", query, key, value, numHeads,
                inProjWeight, inProjBias, outProjWeight, outProjBias, keyPaddingMask, attnMask, causal);
    }

    /** The q, k or v projection ({@code part} 0, 1, 2) with its rows of the packed in-projection. */
    private static Variable project(Variable x, Variable w, Variable bias, int part, int e) {
        Variable wp = w.slice(0, part * e, (part + 1) * e);
        Variable bp = bias == null ? null : bias.slice(0, part * e, (part + 1) * e);
        return Variable.linear(x, wp, bp);
    }
}
