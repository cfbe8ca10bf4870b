package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ModuleTest {
    static final class Block extends Module {
        final MultiheadAttention attn = registerModule("attn", new MultiheadAttention(8, 2, new Generator(1)));
        final Sequential mlp = registerModule("mlp", new Sequential(new Linear(8, 16, true, new Generator(2)), new GELU(),
                new Dropout(0.5, new Generator(3)), new Linear(16, 8, false, new Generator(4))));
    }

    @Test
    void parameterNamesAreThoseOfPyTorch() {
        Map<String, Parameter> named = new Block().namedParameters();
        assertEquals(List.of("attn.in_proj_weight", "attn.in_proj_bias", "attn.out_proj.weight", "attn.out_proj.bias",
                "mlp.0.weight", "mlp.0.bias", "mlp.3.weight"), List.copyOf(named.keySet()));
        assertArrayEquals(new int[] {24, 8}, named.get("attn.in_proj_weight").shape());
        assertEquals(8 * 24 + 24 + 64 + 8 + 16 * 8 + 16 + 8 * 16, new Block().parameterCount());
    }

    @Test
    void toStringReadsLikePyTorch() {
        String s = new Sequential(new Linear(4, 16), new Tanh(), new Linear(16, 3, false), new LeakyReLU()).toString();
        assertEquals("Sequential(\n  (0): Linear(in_features=4, out_features=16, bias=True)\n  (1): Tanh()\n"
                + "  (2): Linear(in_features=16, out_features=3, bias=False)\n  (3): LeakyReLU(negative_slope=0.01)\n)", s);
        assertTrue(new Block().toString().contains("(attn): MultiheadAttention(\n    embed_dim=8, num_heads=2, batch_first=True\n    (out_proj): Linear("));
    }

    @Test
    void linearInitUsesPyTorchBoundsAndTheSeed() {
        Linear a = new Linear(64, 32, true, new Generator(7));
        Linear b = new Linear(64, 32, true, new Generator(7));
        Linear c = new Linear(64, 32, true, new Generator(8));
        assertArrayEquals(a.weight.data().toFloatArray(), b.weight.data().toFloatArray());
        assertNotEquals(a.weight.data().sum().item(), c.weight.data().sum().item());
        double bound = 1 / Math.sqrt(64);
        assertTrue(a.weight.data().abs().amax().item() <= bound);
        assertTrue(a.weight.data().abs().amax().item() > 0.9 * bound, "uses the whole range");
        assertTrue(a.bias.data().abs().amax().item() <= bound);
        Init.manualSeed(5);
        float[] first = new Linear(3, 2).weight.data().toFloatArray();
        Init.manualSeed(5);
        assertArrayEquals(first, new Linear(3, 2).weight.data().toFloatArray(), "manualSeed makes default-built layers repeat");
    }

    @Test
    void trainEvalReachesEverySubmoduleAndDropoutIsTheIdentityInEval() {
        Block b = new Block();
        Dropout d = (Dropout) b.mlp.get(2);
        Variable x = Variable.of(Tensor.ones(4, 16));
        b.eval();
        assertTrue(!d.isTraining());
        assertArrayEquals(x.data().toFloatArray(), d.forward(x).data().toFloatArray());
        b.train();
        float[] y = d.forward(x).data().toFloatArray();
        int zeros = 0;
        for (float v : y) {
            assertTrue(v == 0f || v == 2f);
            zeros += v == 0f ? 1 : 0;
        }
        assertTrue(zeros > 10 && zeros < 54, "about half dropped: " + zeros);
    }

    @Test
    void zeroGradZeroesEveryParameter() {
        Block b = new Block();
        Variable x = Variable.of(Tensor.ones(2, 3, 8));
        b.mlp.forward(b.attn.forward(x, null, false)).sum().backward();
        assertTrue(b.parameters().stream().allMatch(p -> p.grad() != null));
        b.zeroGrad();
        assertTrue(b.parameters().stream().allMatch(p -> p.grad().abs().sum().item() == 0.0));
    }

    @Test
    void loadStateDictIsAllOrNothingAndNamesEveryProblem() {
        Sequential m = new Sequential(new Linear(4, 3), new Linear(3, 2));
        float[] before = m.get(0).parameters().get(0).data().toFloatArray();
        Map<String, Tensor> bad = new java.util.LinkedHashMap<>(new Sequential(new Linear(4, 3), new Linear(3, 2)).stateDict());
        bad.remove("1.bias");
        bad.put("1.weight", Tensor.zeros(2, 4));
        bad.put("2.weight", Tensor.zeros(1));
        StateDictException e = assertThrows(StateDictException.class, () -> m.loadStateDict(bad));
        assertTrue(e.getMessage().contains("missing: 1.bias"), e.getMessage());
        assertTrue(e.getMessage().contains("shape mismatch for 1.weight: the file has [2, 4], the model [2, 3]"), e.getMessage());
        assertTrue(e.getMessage().contains("unexpected: 2.weight"), e.getMessage());
        assertArrayEquals(before, m.get(0).parameters().get(0).data().toFloatArray(), "nothing was half-loaded");
    }

    @Test
    void embeddingGradientAccumulatesOverRepeatedIndices() {
        Embedding emb = new Embedding(5, 3, new Generator(0));
        Variable idx = Variable.of(Tensor.of(new long[] {1, 1, 4, 1}, 2, 2));
        emb.forward(idx).sum().backward();
        assertArrayEquals(new float[] {0, 0, 0, 3, 3, 3, 0, 0, 0, 0, 0, 0, 1, 1, 1}, emb.weight.grad().toFloatArray());
        assertThrows(dev.jgrad.tensor.TensorIndexException.class, () -> emb.forward(Variable.of(Tensor.of(new long[] {5}, 1))));
    }

    @Test
    void layerNormNormalisesTheTrailingDims() {
        LayerNorm ln = new LayerNorm(4);
        Variable y = ln.forward(Variable.of(Tensor.of(new float[] {1, 2, 3, 4, 10, 10, 10, 14}, 2, 4)));
        assertEquals(0.0, y.data().mean(1, false).abs().amax().item(), 1e-6);
        assertThrows(dev.jgrad.tensor.ShapeException.class, () -> ln.forward(Variable.of(Tensor.zeros(2, 5))));
    }
}
