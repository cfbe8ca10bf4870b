package dev.jgrad.nn.gpt;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.nn.Checkpoint;
import dev.jgrad.nn.InteropFixtures;
import dev.jgrad.nn.io.Safetensors;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Two GPTs trained by nanoGPT's own model code (without and with biases), loaded from their safetensors files: the
 * logits of every position, the loss with an ignored target, and greedy continuations (one that crops the context
 * to the block) must be nanoGPT's. Set JGRAD_INTEROP_DIR to read the fixtures from another folder.
 */
class GptInteropTest {
    @TempDir
    Path tmp;

    @SuppressWarnings("unchecked")
    private static GPT load(String name) throws IOException {
        Map<String, Object> spec = InteropFixtures.json(name + ".json");
        Map<String, Object> c = (Map<String, Object>) spec.get("config");
        GPTConfig config = new GPTConfig(num(c, "block_size"), num(c, "vocab_size"), num(c, "n_layer"), num(c, "n_head"),
                num(c, "n_embd"), ((Number) c.get("dropout")).doubleValue(), (Boolean) c.get("bias"));
        GPT model = new GPT(config, new Generator(0));
        Safetensors.Contents file = Safetensors.decode(InteropFixtures.fixture(name + ".safetensors"));
        model.loadStateDict(file.tensors());
        return model;
    }

    private static int num(Map<String, Object> m, String key) {
        return ((Number) m.get(key)).intValue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"gpt", "gpt_bias"})
    void logitsAndLossAreNanoGpts(String name) throws IOException {
        Map<String, Object> spec = InteropFixtures.json(name + ".json");
        GPT model = load(name);
        Tensor idx = InteropFixtures.tensor(spec.get("input"));
        try (NoGrad g = NoGrad.enter()) {
            InteropFixtures.assertClose(InteropFixtures.tensor(spec.get("logits")), model.forward(idx).data(), 1e-4, 1e-4);
            InteropFixtures.assertClose(InteropFixtures.tensor(spec.get("loss")),
                    model.loss(idx, InteropFixtures.tensor(spec.get("targets"))).data(), 1e-4, 1e-4);
        }
    }

    @SuppressWarnings("unchecked")
    @ParameterizedTest
    @ValueSource(strings = {"gpt", "gpt_bias"})
    void greedyContinuationsAreNanoGptsWithTheContextCroppedToTheBlock(String name) throws IOException {
        Map<String, Object> spec = InteropFixtures.json(name + ".json");
        GPT model = load(name);
        for (String key : List.of("greedy", "greedy_cropped")) {
            Map<String, Object> g = (Map<String, Object>) spec.get(key);
            Tensor prompt = InteropFixtures.tensor(g.get("prompt"));
            int n = ((Number) g.get("max_new_tokens")).intValue();
            Tensor out = model.generate(prompt, n, 0.0, 0, new Generator(0), null);
            long[] appended = out.narrow(1, prompt.size(1), n).toLongArray();
            assertArrayEquals(InteropFixtures.tensor(g.get("tokens")).toLongArray(), appended, name + " " + key);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"gpt", "gpt_bias"})
    void theTiedHeadIsStoredOnceAndTheFileRoundTrips(String name) throws IOException {
        GPT model = load(name);
        Map<String, Tensor> sd = model.stateDict();
        assertFalse(sd.containsKey("lm_head.weight"), "lm_head.weight is tied to transformer.wte.weight and stored once");
        assertEquals(Safetensors.decode(InteropFixtures.fixture(name + ".safetensors")).tensors().keySet(), sd.keySet());
        Path file = tmp.resolve(name + ".safetensors");
        Checkpoint.save(model, file, model.config().toMetadata());
        GPT again = new GPT(model.config(), new Generator(5));
        Checkpoint.load(again, file);
        try (NoGrad g = NoGrad.enter()) {
            Tensor idx = Tensor.of(new long[] {1, 2, 3, 4}, 1, 4);
            assertArrayEquals(model.forward(idx).data().toFloatArray(), again.forward(idx).data().toFloatArray());
        }
        again.lmHead.weight.data().fill(0.5f);
        assertEquals(0.5, again.wte.weight.data().getDouble(3, 7), 0.0, "one parameter under two names");
    }
}
