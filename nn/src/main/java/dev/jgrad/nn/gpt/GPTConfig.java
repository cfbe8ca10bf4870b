package dev.jgrad.nn.gpt;

/**
 * nanoGPT's {@code GPTConfig}: the context length, vocabulary, depth, heads and width, dropout, and whether the
 * linear layers and layer norms have biases.
 */
public record GPTConfig(int blockSize, int vocabSize, int nLayer, int nHead, int nEmbd, double dropout, boolean bias) {
    /** Checks every size (at least 1), the width against the heads and the dropout. */
    public GPTConfig {
        if (blockSize < 1 || vocabSize < 1 || nLayer < 1 || nHead < 1 || nEmbd < 1) {
            throw new IllegalArgumentException("GPTConfig: every size must be at least 1, got block_size=" + blockSize
                    + ", vocab_size=" + vocabSize + ", n_layer=" + nLayer + ", n_head=" + nHead + ", n_embd=" + nEmbd);
        }
        if (nEmbd % nHead != 0) {
            throw new IllegalArgumentException("GPTConfig: n_embd (" + nEmbd + ") must be a multiple of n_head (" + nHead + ")");
        }
        if (!(dropout >= 0 && dropout < 1)) {
            throw new IllegalArgumentException("GPTConfig: dropout must be in [0, 1), got " + dropout);
        }
    }

    /** The width of one attention head. */
    public int headSize() {
        return nEmbd / nHead;
    }

    /**
     * The parameters a GPT of this config holds (the output layer shares the token embedding's weight), counted without
     * building it: what a caller checks against the memory it has before it builds one. Counts beyond a long's range
     * are {@link Long#MAX_VALUE}.
     */
    public long parameterCount() {
        double c = nEmbd;
        double b = bias ? 1 : 0;
        double perLayer = (c + b * c) + (3 * c * c + b * 3 * c) + (c * c + b * c) + (c + b * c) + (4 * c * c + b * 4 * c) + (4 * c * c + b * c);
        double n = (double) vocabSize * c + (double) blockSize * c + nLayer * perLayer + (c + b * c);
        return n >= 0x1p63 ? Long.MAX_VALUE : (long) n;
    }

    /** As nanoGPT prints it, and as checkpoints store it in their metadata. */
    public java.util.Map<String, String> toMetadata() {
        java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
        m.put("block_size", Integer.toString(blockSize));
        m.put("vocab_size", Integer.toString(vocabSize));
        m.put("n_layer", Integer.toString(nLayer));
        m.put("n_head", Integer.toString(nHead));
        m.put("n_embd", Integer.toString(nEmbd));
        m.put("dropout", Double.toString(dropout));
        m.put("bias", Boolean.toString(bias));
        return m;
    }

    /** The config a checkpoint's metadata holds; a missing or malformed entry names itself. */
    public static GPTConfig fromMetadata(java.util.Map<String, String> m) {
        return new GPTConfig(intOf(m, "block_size"), intOf(m, "vocab_size"), intOf(m, "n_layer"), intOf(m, "n_head"),
                intOf(m, "n_embd"), m.containsKey("dropout") ? Double.parseDouble(m.get("dropout")) : 0.0,
                Boolean.parseBoolean(m.getOrDefault("bias", "false")));
    }

    private static int intOf(java.util.Map<String, String> m, String key) {
        String v = m.get(key);
        if (v == null) {
            throw new IllegalArgumentException("the GPT config lacks '" + key + "'");
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the GPT config's '" + key + "' is not an integer: '" + v + "'");
        }
    }
}
