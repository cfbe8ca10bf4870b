package dev.jgrad.nn;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.io.Safetensors;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static dev.jgrad.nn.InteropFixtures.assertClose;
import static dev.jgrad.nn.InteropFixtures.fixture;
import static dev.jgrad.nn.InteropFixtures.json;
import static dev.jgrad.nn.InteropFixtures.tensor;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Models trained and saved by PyTorch, rebuilt with jgrad modules, loaded and run: the outputs must be
 * PyTorch's (rtol 1e-4, atol 1e-5). The fixtures are in the test resources; set JGRAD_INTEROP_DIR to a
 * folder with the same file names to run the same test on other exports of the two architectures.
 */
class InteropTest {
    @TempDir
    Path tmp;

    /** The attention block of attention_block.json: MHA with padding and causal masks, residual, LayerNorm, head. */
    static final class AttentionBlock extends Module {
        final MultiheadAttention attn;
        final LayerNorm norm;
        final Linear head;

        AttentionBlock(int embed, int heads, int out) {
            attn = registerModule("attn", new MultiheadAttention(embed, heads));
            norm = registerModule("norm", new LayerNorm(embed));
            head = registerModule("head", new Linear(embed, out));
        }

        Variable forward(Variable x, Tensor keyPadding, Tensor causal) {
            Variable a = attn.forward(x, x, x, keyPadding, causal, false);
            return head.forward(norm.forward(x.add(a)));
        }
    }

    /** Reads the layer sizes from the weights, so other exports of the same architecture work too. */
    private static Sequential mlpFor(Map<String, Tensor> sd) {
        int in = sd.get("0.weight").size(1);
        int hidden = sd.get("0.weight").size(0);
        int out = sd.get("2.weight").size(0);
        return new Sequential(new Linear(in, hidden), new Tanh(), new Linear(hidden, out));
    }

    @Test
    void pytorchMlpReproducesItsOutput() throws IOException {
        Map<String, Object> spec = json("mlp.json");
        Safetensors.Contents c = Safetensors.decode(fixture("mlp.safetensors"));
        Sequential model = mlpFor(c.tensors());
        model.loadStateDict(c.tensors());
        try (NoGrad g = NoGrad.enter()) {
            Variable y = model.forward(Variable.of(tensor(spec.get("input"))));
            assertClose(tensor(spec.get("output")), y.data());
        }
        assertEquals(spec.get("architecture"), c.metadata().get("architecture"));
    }

    @Test
    void pytorchAttentionBlockReproducesItsOutput() throws IOException {
        Map<String, Object> spec = json("attention_block.json");
        Safetensors.Contents c = Safetensors.decode(fixture("attention_block.safetensors"));
        int embed = c.tensors().get("attn.in_proj_weight").size(1);
        int out = c.tensors().get("head.weight").size(0);
        int heads = headsFrom((String) spec.get("architecture"));
        AttentionBlock block = new AttentionBlock(embed, heads, out);
        block.loadStateDict(c.tensors());
        block.eval();
        Tensor x = tensor(spec.get("input"));
        Tensor kpm = tensor(spec.get("key_padding_mask"));
        Tensor causal = tensor(spec.get("causal_mask"));
        try (NoGrad g = NoGrad.enter()) {
            assertClose(tensor(spec.get("output")), block.forward(Variable.of(x), kpm, causal).data());
        }
    }

    /** "MultiheadAttention(16, 4, ...)" gives 4. */
    private static int headsFrom(String architecture) {
        int at = architecture.indexOf("MultiheadAttention(");
        String args = architecture.substring(at + "MultiheadAttention(".length());
        return Integer.parseInt(args.split(",")[1].trim().split("[,)]")[0].trim());
    }

    /** A model saved by jgrad is byte-for-byte a file PyTorch's reader takes: same header layout as PyTorch's own export. */
    @Test
    void jgradWritesTheFormatToTheByte() throws IOException {
        Safetensors.Contents c = Safetensors.decode(fixture("mlp.safetensors"));
        Sequential model = mlpFor(c.tensors());
        model.loadStateDict(c.tensors());
        Path out = tmp.resolve("mlp.safetensors");
        Checkpoint.save(model, out, Map.of("architecture", c.metadata().get("architecture")));
        byte[] ours = Files.readAllBytes(out);
        byte[] theirs = fixture("mlp.safetensors");
        if (System.getenv("JGRAD_INTEROP_DIR") == null) {
            assertArrayEquals(theirs, ours, "same tensors and metadata give the same bytes as PyTorch's export");
        }
        long headerLen = java.nio.ByteBuffer.wrap(ours, 0, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
        assertEquals(0, headerLen % 8, "the header is padded to 8 bytes");
        Sequential again = mlpFor(c.tensors());
        Checkpoint.load(again, out);
        assertArrayEquals(model.get(0).parameters().get(0).data().toFloatArray(), again.get(0).parameters().get(0).data().toFloatArray());
    }
}
