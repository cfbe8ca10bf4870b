package dev.jgrad.nn.gpt;

import dev.jgrad.tensor.Tensor;

/**
 * The keys and values of every position generated so far, per layer, so that each new token costs one position's
 * work: buffers of {@code (B, H, block_size, d)} filled a position at a time, read through views of the filled part.
 */
public final class KvCache {
    /** One layer's keys and values. */
    public static final class Layer {
        private final Tensor keys;
        private final Tensor values;
        private int length;

        Layer(int batch, int heads, int capacity, int d) {
            keys = Tensor.zeros(batch, heads, capacity, d);
            values = Tensor.zeros(batch, heads, capacity, d);
        }

        int length() {
            return length;
        }

        /** Appends {@code (B, H, t, d)} keys and values. */
        void append(Tensor k, Tensor v) {
            int t = k.size(2);
            if (length + t > keys.size(2)) {
                throw new IllegalStateException("the cache holds " + keys.size(2) + " positions (block_size); "
                        + (length + t) + " asked");
            }
            keys.narrow(2, length, t).copyFrom(k);
            values.narrow(2, length, t).copyFrom(v);
            length += t;
        }

        Tensor keys() {
            return keys.narrow(2, 0, length);
        }

        Tensor values() {
            return values.narrow(2, 0, length);
        }
    }

    private final Layer[] layers;

    /** An empty cache for {@code batch} sequences of a GPT of {@code c}: every layer's keys and values, up to the block size. */
    public KvCache(GPTConfig c, int batch) {
        layers = new Layer[c.nLayer()];
        for (int i = 0; i < layers.length; i++) {
            layers[i] = new Layer(batch, c.nHead(), c.blockSize(), c.headSize());
        }
    }

    Layer layer(int i) {
        return layers[i];
    }

    /** Positions cached so far. */
    public int length() {
        return layers[0].length();
    }

    /** Forgets every position (the context was cropped, so every position moved). */
    public void clear() {
        for (Layer l : layers) {
            l.length = 0;
        }
    }
}
