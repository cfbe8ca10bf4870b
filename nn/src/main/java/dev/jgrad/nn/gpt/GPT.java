package dev.jgrad.nn.gpt;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.Dropout;
import dev.jgrad.nn.Embedding;
import dev.jgrad.nn.Init;
import dev.jgrad.nn.LayerNorm;
import dev.jgrad.nn.Linear;
import dev.jgrad.nn.Losses;
import dev.jgrad.nn.Module;
import dev.jgrad.nn.ModuleDict;
import dev.jgrad.nn.ModuleList;
import dev.jgrad.nn.Reduction;
import dev.jgrad.nn.Sampling;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;

import java.util.function.IntConsumer;

/**
 * nanoGPT's {@code GPT}, with its state-dict names ({@code transformer.wte.weight}, {@code transformer.h.0.attn.c_attn.weight},
 * ...), so a model nanoGPT saved as safetensors loads and runs: token and position embeddings, {@code n_layer} blocks,
 * a final layer norm, and {@code lm_head} tied to the token embedding (one parameter, stored once, under
 * {@code transformer.wte.weight}). Initialised as nanoGPT does: N(0, 0.02), the residual projections
 * N(0, 0.02 / sqrt(2 n_layer)), zero biases.
 * <pre>{@code
 * GPT model = new GPT(new GPTConfig(64, 65, 4, 4, 128, 0.0, false), new Generator(0));
 * Variable loss = model.loss(x, y);                        // x, y: (B, T) int64
 * Tensor text = model.generate(prompt, 500, 0.8, 200, new Generator(1), token -> {});
 * }</pre>
 */
public class GPT extends Module {
    private final GPTConfig config;
    final Embedding wte;
    final Embedding wpe;
    private final Dropout drop;
    final ModuleList h;
    final LayerNorm lnF;
    final Linear lmHead;

    /** A GPT of {@code config}, its weights drawn from {@code gen} as nanoGPT initialises them. */
    public GPT(GPTConfig config, Generator gen) {
        this.config = config;
        ModuleDict transformer = registerModule("transformer", new ModuleDict());
        wte = transformer.put("wte", new Embedding(config.vocabSize(), config.nEmbd(), gen));
        wte.weight.data().copyFrom(Init.normal(gen, 0.02, config.vocabSize(), config.nEmbd()));
        wpe = transformer.put("wpe", new Embedding(config.blockSize(), config.nEmbd(), gen));
        wpe.weight.data().copyFrom(Init.normal(gen, 0.02, config.blockSize(), config.nEmbd()));
        drop = transformer.put("drop", new Dropout(config.dropout(), gen));
        h = transformer.put("h", new ModuleList());
        for (int i = 0; i < config.nLayer(); i++) {
            h.add(new Block(config, gen));
        }
        lnF = transformer.put("ln_f", layerNorm(config));
        lmHead = registerModule("lm_head", new Linear(wte.weight, null));
    }

    /** The model's configuration. */
    public GPTConfig config() {
        return config;
    }

    /** The parameters but the position embeddings, as nanoGPT counts them ({@code get_num_params}). */
    public long nonEmbeddingParameterCount() {
        return parameterCount() - wpe.weight.numel();
    }

    /** The logits {@code (B, T, vocab)} of every position of {@code idx (B, T)} int64, {@code T <= block_size}. */
    public Variable forward(Tensor idx) {
        return forward(idx, null);
    }

    private Variable forward(Tensor idx, KvCache cache) {
        return forward(idx, cache, false);
    }

    /**
     * With {@code lastOnly}, the logits of the last position alone, {@code (B, 1, vocab)}: the last block then works on
     * that position only (its keys and values, which the cache keeps, still come from every position). Nothing the last
     * logits depend on is left out, and generation needs no others.
     */
    private Variable forward(Tensor idx, KvCache cache, boolean lastOnly) {
        if (idx.dim() != 2 || idx.dtype() != DType.INT64) {
            throw new ShapeException("GPT: expected int64 token ids of shape (B, T), got " + idx.dtype() + " " + Shape.str(idx.shape()));
        }
        int t = idx.size(1);
        int start = cache == null ? 0 : cache.length();
        if (start + t > config.blockSize()) {
            throw new ShapeException("Cannot forward sequence of length " + (start + t) + ", block size is only " + config.blockSize());
        }
        Variable pos = wpe.weight.narrow(0, start, t);
        Variable x = drop.forward(wte.forward(Variable.of(idx)).add(pos));
        int i = 0;
        for (dev.jgrad.nn.Module m : h) {
            KvCache.Layer layer = cache == null ? null : cache.layer(i);
            x = lastOnly && i == h.size() - 1 ? ((Block) m).forwardLast(x, layer) : ((Block) m).forward(x, layer);
            i++;
        }
        return lmHead.forward(lnF.forward(x));
    }

    /** The mean cross-entropy of the next-token predictions; targets of -1 are left out, as nanoGPT's. */
    public Variable loss(Tensor idx, Tensor targets) {
        Variable logits = forward(idx);
        return Losses.crossEntropy(logits.reshape(-1, config.vocabSize()), targets.reshape(-1), Reduction.MEAN, -1, 0.0);
    }

    /**
     * Appends {@code maxNewTokens} tokens to {@code idx (B, T)}, each drawn from the last position's logits divided by
     * {@code temperature} (0: the most likely token), keeping the {@code topK} most likely (0: all), as nanoGPT's
     * {@code generate}: the context is cropped to its last {@code block_size} tokens. A key/value cache makes each new
     * token one position's work while the context fits the block; past it every position moves at each step, so the
     * window is run again, as nanoGPT runs it. {@code onToken} sees each token of the first row as it is drawn.
     */
    public Tensor generate(Tensor idx, int maxNewTokens, double temperature, int topK, Generator gen, IntConsumer onToken) {
        if (maxNewTokens < 0 || !(temperature >= 0) || topK < 0) {
            throw new IllegalArgumentException("generate: maxNewTokens, temperature and topK must be >= 0, got " + maxNewTokens
                    + ", " + temperature + ", " + topK);
        }
        long all = (long) idx.size(0) * ((long) idx.size(1) + maxNewTokens);
        if (all > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("generate: " + idx.size(0) + " sequences of " + idx.size(1) + " + " + maxNewTokens
                    + " tokens are " + all + " tokens, more than one array holds (2^31); generate fewer at a time");
        }
        boolean wasTraining = isTraining();
        eval();
        try (NoGrad g = NoGrad.enter()) {
            int b = idx.size(0);
            long[] tokens = new long[(int) all];
            int len = idx.size(1);
            int cols = idx.size(1) + maxNewTokens;
            long[] start = idx.toLongArray();
            for (int r = 0; r < b; r++) {
                System.arraycopy(start, r * len, tokens, r * cols, len);
            }
            KvCache cache = new KvCache(config, b);
            Tensor logits = null;
            for (int n = 0; n < maxNewTokens; n++) {
                if (logits == null || len > config.blockSize()) {
                    cache.clear();
                    int from = Math.max(0, len - config.blockSize());
                    logits = lastPositionLogits(window(tokens, b, cols, from, len), cache);
                }
                Tensor next = pick(logits, temperature, topK, gen);
                long[] nx = next.toLongArray();
                for (int r = 0; r < b; r++) {
                    tokens[r * cols + len] = nx[r];
                }
                len++;
                if (onToken != null) {
                    onToken.accept((int) nx[0]);
                }
                if (n + 1 < maxNewTokens && len <= config.blockSize()) {
                    logits = lastLogits(forward(next.reshape(b, 1), cache));
                }
            }
            return Tensor.of(tokens, b, cols);
        } finally {
            train(wasTraining);
        }
    }

    /** The last position's logits {@code (B, vocab)} of a window run from an empty cache, which it fills. */
    Tensor lastPositionLogits(Tensor window, KvCache cache) {
        return lastLogits(forward(window, cache, true));
    }

    private static Tensor window(long[] tokens, int b, int cols, int from, int to) {
        long[] w = new long[b * (to - from)];
        for (int r = 0; r < b; r++) {
            System.arraycopy(tokens, r * cols + from, w, r * (to - from), to - from);
        }
        return Tensor.of(w, b, to - from);
    }

    private static Tensor lastLogits(Variable logits) {
        return logits.data().select(1, logits.size(1) - 1);
    }

    private static Tensor pick(Tensor logits, double temperature, int topK, Generator gen) {
        if (temperature == 0) {
            return logits.argmax(-1, false);
        }
        Tensor scaled = logits.div(temperature);
        if (topK > 0 && topK < scaled.size(-1)) {
            Tensor kth = Sampling.topk(scaled, topK).values().narrow(-1, topK - 1, 1);
            scaled = scaled.maskedFill(scaled.lt(kth), Double.NEGATIVE_INFINITY);
        }
        return Sampling.multinomial(scaled.softmax(-1), gen);
    }

    /** A linear layer initialised as nanoGPT's: weight N(0, std), bias zero. */
    static Linear linear(int in, int out, boolean bias, double std, Generator gen) {
        Linear l = new Linear(in, out, bias, gen);
        l.weight.data().copyFrom(Init.normal(gen, std, out, in));
        if (bias) {
            l.bias.data().zero();
        }
        return l;
    }

    /** nanoGPT's LayerNorm: a weight, and a bias only with {@code bias}. */
    static LayerNorm layerNorm(GPTConfig c) {
        return new LayerNorm(new int[] {c.nEmbd()}, 1e-5, true, c.bias());
    }
}
