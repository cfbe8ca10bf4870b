package dev.jgrad.nn.onnx;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.AdaptiveAvgPool2d;
import dev.jgrad.nn.AvgPool2d;
import dev.jgrad.nn.BatchNorm1d;
import dev.jgrad.nn.BatchNorm2d;
import dev.jgrad.nn.Conv1d;
import dev.jgrad.nn.Conv2d;
import dev.jgrad.nn.Dropout;
import dev.jgrad.nn.ELU;
import dev.jgrad.nn.Embedding;
import dev.jgrad.nn.Flatten;
import dev.jgrad.nn.GELU;
import dev.jgrad.nn.GRU;
import dev.jgrad.nn.LSTM;
import dev.jgrad.nn.Recurrent;
import dev.jgrad.nn.GroupNorm;
import dev.jgrad.nn.LayerNorm;
import dev.jgrad.nn.LeakyReLU;
import dev.jgrad.nn.Linear;
import dev.jgrad.nn.MaxPool1d;
import dev.jgrad.nn.MaxPool2d;
import dev.jgrad.nn.Mish;
import dev.jgrad.nn.Module;
import dev.jgrad.nn.ModuleList;
import dev.jgrad.nn.MultiheadAttention;
import dev.jgrad.nn.ReLU;
import dev.jgrad.nn.Sequential;
import dev.jgrad.nn.SiLU;
import dev.jgrad.nn.Sigmoid;
import dev.jgrad.nn.Softplus;
import dev.jgrad.nn.Tanh;
import dev.jgrad.nn.gpt.GPT;
import dev.jgrad.nn.gpt.GPTConfig;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Index;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every layer nn has, exported and run in ONNX Runtime, against jgrad's own forward: float32 outputs within 1e-5 absolute
 * or 1e-4 relative, at two sizes of each dynamic axis (the second never seen by the export's traces).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OnnxExportTest {
    /** Every model the tests exported, for onnx.checker. */
    private static final List<byte[]> EXPORTED = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Generator g = new Generator(7);

    @Test
    void mlpWithEveryActivation() throws Exception {
        Sequential mlp = new Sequential(new Linear(5, 7, true, g), new ReLU(), new Linear(7, 6, true, g), new GELU(), new Tanh(),
                new Linear(6, 6, true, g), new GELU(true), new SiLU(), new LeakyReLU(0.2), new Sigmoid(), new Linear(6, 6, false, g),
                new ELU(0.7), new Mish(), new Softplus(), new dev.jgrad.nn.Identity(), new Linear(6, 3, false, g), new dev.jgrad.nn.LogSoftmax(1));
        check(mlp, in -> mlp.forward(in[0]), batches(b -> Tensor.randn(g, b, 5), 4, 9), "x", "batch");
    }

    @Test
    void pointwiseReductionsAndBroadcasting() throws Exception {
        Linear lin = new Linear(6, 6, true, g);
        Function<Variable[], Variable> f = in -> {
            Variable x = lin.forward(in[0]);                                             // (B, 6)
            Variable a = x.exp().add(x.abs().add(1).log()).sub(x.square().add(1).sqrt());
            Variable b = a.div(x.pow(2).add(2)).clamp(-0.5, 0.7).mul(x.sigmoid());
            Variable c = Variable.where(x.gt(0), b, x.neg().add(1).rsqrt());
            Variable r = c.softmax(-1).add(c.logSoftmax(1)).add(c.mean(new int[] {1}, true)).sub(c.amax(new int[] {0}, true));
            Variable v = r.var(new int[] {1}, 1.0, true).add(r.sum(new int[] {1}, true)).add(r.logsumexp(new int[] {1}, true));
            Variable outer = r.unsqueeze(2).sub(r.unsqueeze(1));                          // (B, 6, 6): broadcast
            // Every term adds to the output: a maximum of the whole would hide the terms on its losing side.
            return outer.sum(new int[] {2}, false).add(v).add(r.max(1, true).values()).add(r.maximum(r.mul(0.5)))
                    .add(r.minimum(r.mul(0.5)));
        };
        check(lin, f, batches(b -> Tensor.randn(g, b, 6), 5, 3), "x", "batch");
    }

    @Test
    void sortsScansTrianglesRoundingAndAngles() throws Exception {
        Linear lin = new Linear(6, 6, true, g);
        Function<Variable[], Variable> f = in -> {
            Variable x = lin.forward(in[0]);                                             // (B, 6)
            Variable outer = x.unsqueeze(2).mul(x.unsqueeze(1));                          // (B, 6, 6)
            return x.sort(1, true).values().add(x.sort(1, false).values().mul(0.5)).add(x.cumsum(1))
                    .add(outer.tril(1).sum(new int[] {2}, false)).add(outer.triu(-1).mean(new int[] {1}, false))
                    .add(x.std(new int[] {1}, 1.0, true)).add(x.mul(3.0).round()).add(x.expm1()).add(x.leakyRelu(0.2))
                    .add(x.atan2(x.flip(1))).add(x.atan2(x.flip(1).maximum(x.constant(Tensor.zeros(6))))).add(x.atan())
                    .add(x.topk(3).values().mul(x.constant(Tensor.of(1f, 2f, 4f))).sum(new int[] {1}, true));
        };
        check(lin, f, batches(b -> Tensor.randn(g, b, 6), 5, 3), "x", "batch");
    }

    /** norm (of each order the composition takes apart differently) and repeat, as a forward would use them. */
    @Test
    void normsAndRepeat() throws Exception {
        Linear lin = new Linear(6, 6, true, g);
        Function<Variable[], Variable> f = in -> {
            Variable x = lin.forward(in[0]);                                             // (B, 6)
            Variable unit = x.div(x.norm(2, 1, true).add(1e-6));                         // F.normalize
            Variable orders = x.norm(1, 1, true).add(x.norm(3, 1, true)).add(x.norm(Double.POSITIVE_INFINITY, 1, true))
                    .add(x.norm(0.5, 1, true)).add(x.norm(0, 1, true));
            return unit.repeat(1, 2).add(orders).add(x.repeat(1, 2).mul(0.5));          // (B, 12)
        };
        check(lin, f, batches(b -> Tensor.randn(g, b, 6), 5, 3), "x", "batch");
    }

    @Test
    void everyOpsetFrom17To21() throws Exception {
        GPT gpt = new GPT(new GPTConfig(8, 11, 1, 2, 8, 0.0, true), g);
        LSTM lstm = new LSTM(3, 4, 1, true);
        GRU gru = new GRU(4, 3, 1, true);
        ModuleList rnn = new ModuleList();
        rnn.add(lstm);
        rnn.add(gru);
        BatchNorm1d bn = new BatchNorm1d(5);
        Sequential mlp = new Sequential(new Linear(4, 5, true, g), bn, new ReLU());
        trainBatchNorm(mlp, Tensor.randn(g, 7, 4));
        for (int opset = OnnxOptions.MIN_OPSET; opset <= OnnxOptions.MAX_OPSET; opset++) {
            OnnxOptions o = OnnxOptions.defaults().inputNames("ids").outputNames("y").dynamicAxis("ids", 1, "t").opset(opset);
            check(gpt, in -> gpt.forward(in[0].data()).logSoftmax(-1).amax(new int[] {2}, true).add(gpt.forward(in[0].data())
                            .var(new int[] {1}, 1.0, true)),
                    List.of(new Tensor[] {Tensor.randint(g, 0, 11, 2, 5)}, new Tensor[] {Tensor.randint(g, 0, 11, 2, 8)}), o);
            check(rnn, in -> gru.forward(lstm.forward(in[0]).output()).output().mean(new int[] {1}, false),
                    List.<Tensor[]>of(new Tensor[] {Tensor.randn(g, 2, 4, 3)}), OnnxOptions.defaults().inputNames("x").opset(opset));
            check(mlp, in -> mlp.forward(in[0]).sum(new int[] {1}, true), List.<Tensor[]>of(new Tensor[] {Tensor.randn(g, 3, 4)}),
                    OnnxOptions.defaults().inputNames("x").opset(opset));
        }
    }

    @Test
    void shapesSlicingIndexingAndJoins() throws Exception {
        Linear lin = new Linear(12, 12, true, g);
        Function<Variable[], Variable> f = in -> {
            Variable x = lin.forward(in[0]);                                             // (B, 12)
            int b = x.size(0);
            Variable y = x.view(b, 3, 4).permute(0, 2, 1).reshape(b, -1);               // (B, 12)
            Variable s = y.slice(1, 2, 10, 2).add(y.narrow(1, 0, 4)).flip(1);           // (B, 4)
            Variable t = Variable.cat(List.of(s, y.select(1, 3).unsqueeze(1), s.transpose(0, 1).t()), 1);  // (B, 9)
            Variable st = Variable.stack(List.of(t, t.mul(2)), 2).sum(new int[] {2}, false);             // (B, 9)
            Variable idx = st.indexSelect(1, Tensor.of(new long[] {0, 4, 8, 2}, 4));      // (B, 4)
            Variable ex = idx.unsqueeze(1).expand(b, 3, 4).reshape(b, 12).pad(new int[] {1, 2}, 0.5);  // (B, 15)
            return ex.squeeze().matmul(lin.weight.narrow(1, 0, 12).t().narrow(0, 0, 15 - 3).pad(new int[] {0, 0, 0, 3}, 0.0));
        };
        check(lin, f, batches(b -> Tensor.randn(g, b, 12), 4, 7), "x", "batch");
    }

    @Test
    void embeddingLayerNormDropout() throws Exception {
        Embedding emb = new Embedding(11, 8, g);
        LayerNorm ln = new LayerNorm(8);
        LayerNorm ln2 = new LayerNorm(new int[] {3, 8}, 1e-5, true);
        Dropout drop = new Dropout(0.5, g);
        Sequential holder = new Sequential(emb, ln, ln2, drop);
        Function<Variable[], Variable> f = in -> ln2.forward(drop.forward(ln.forward(emb.forward(in[0]))));
        check(holder, f, batches(b -> Tensor.randint(g, 0, 11, b, 3), 4, 6), "ids", "batch");
    }

    @Test
    void convolutionsPoolsAndNorms() throws Exception {
        Sequential cnn = new Sequential(new Conv2d(2, 4, new int[] {3, 3}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, 1, true, g),
                new BatchNorm2d(4), new ReLU(), new MaxPool2d(2), new Conv2d(4, 6, new int[] {3, 2}, new int[] {2, 1}, new int[] {0, 1},
                new int[] {1, 2}, 2, false, g), new GroupNorm(3, 6), new AvgPool2d(new int[] {2, 2}, new int[] {1, 1}, new int[] {1, 0}, false,
                true), new AdaptiveAvgPool2d(2, 3), new Flatten(), new Linear(36, 5, true, g));
        trainBatchNorm(cnn, Tensor.randn(g, 6, 2, 12, 10));
        check(cnn, in -> cnn.forward(in[0]), batches(b -> Tensor.randn(g, b, 2, 12, 10), 3, 5), "images", "batch");
        Sequential c1 = new Sequential(new Conv1d(3, 5, 3, 1, 1), new ReLU(), new MaxPool1d(2), new Conv1d(5, 2, 2));
        check(c1, in -> c1.forward(in[0]), batches(b -> Tensor.randn(g, b, 3, 16), 2, 4), "signal", "batch");
    }

    @Test
    void multiHeadAttentionWithKeyPaddingAndCausalMasks() throws Exception {
        MultiheadAttention mha = new MultiheadAttention(8, 2, g);
        Function<Variable[], Variable> f = in -> mha.forward(in[0], in[1].data(), true);
        OnnxOptions o = OnnxOptions.defaults().inputNames("x", "padding").outputNames("y")
                .dynamicAxis("x", 0, "batch").dynamicAxis("x", 1, "seq").dynamicAxis("padding", 0, "batch").dynamicAxis("padding", 1, "seq");
        List<Tensor[]> sets = List.of(attentionInputs(3, 5), attentionInputs(4, 7), attentionInputs(2, 2));
        check(mha, f, sets, o);
        Function<Variable[], Variable> cross = in -> mha.forward(in[0], in[1], in[1], null, null, false);
        OnnxOptions o2 = OnnxOptions.defaults().inputNames("q", "kv").outputNames("y").dynamicAxis("q", 1, "t").dynamicAxis("kv", 1, "s");
        check(mha, cross, List.of(new Tensor[] {Tensor.randn(g, 2, 3, 8), Tensor.randn(g, 2, 5, 8)},
                new Tensor[] {Tensor.randn(g, 2, 6, 8), Tensor.randn(g, 2, 4, 8)}), o2);
    }

    private Tensor[] attentionInputs(int b, int t) {
        boolean[] pad = new boolean[b * t];
        for (int i = 0; i < b; i++) {
            int len = 1 + i % t;
            for (int j = len; j < t; j++) {
                pad[i * t + j] = true;
            }
        }
        return new Tensor[] {Tensor.randn(g, b, t, 8), Tensor.of(pad, b, t)};
    }

    @Test
    void gptAtTwoBatchSizesAndSequenceLengthsWithTheSameGreedyText() throws Exception {
        GPT gpt = new GPT(new GPTConfig(16, 13, 2, 2, 8, 0.0, true), g);
        OnnxOptions o = OnnxOptions.defaults().inputNames("input_ids").outputNames("logits")
                .dynamicAxis("input_ids", 0, "batch").dynamicAxis("input_ids", 1, "sequence")
                .dynamicAxis("logits", 0, "batch").dynamicAxis("logits", 1, "sequence");
        Function<Variable[], Variable> f = in -> gpt.forward(in[0].data());
        byte[] model = check(gpt, f, List.of(new Tensor[] {Tensor.randint(g, 0, 13, 2, 6)}, new Tensor[] {Tensor.randint(g, 0, 13, 3, 16)},
                new Tensor[] {Tensor.randint(g, 0, 13, 1, 1)}), o);
        Tensor prompt = Tensor.randint(g, 0, 13, 2, 3);
        Tensor jgrad = gpt.generate(prompt, 10, 0.0, 0, new Generator(1), t -> { });
        long[] tokens = prompt.toLongArray();
        int len = 3;
        try (OrtRunner ort = new OrtRunner(model)) {
            for (int step = 0; step < 10; step++) {
                Tensor logits = ort.run(Map.of("input_ids", Tensor.of(tokens, 2, len)));
                Tensor next = logits.select(1, len - 1).argmax(-1, false);
                long[] grown = new long[2 * (len + 1)];
                for (int r = 0; r < 2; r++) {
                    System.arraycopy(tokens, r * len, grown, r * (len + 1), len);
                    grown[r * (len + 1) + len] = next.toLongArray()[r];
                }
                tokens = grown;
                len++;
            }
        }
        assertArrayEquals(jgrad.toLongArray(), tokens, "greedy continuations of jgrad and ONNX Runtime");
    }

    @Test
    void lstmAndGruAsOnnxOpsWithADynamicSequence() throws Exception {
        LSTM lstm = new LSTM(3, 5, 2, true);
        GRU gru = new GRU(5, 4, 1, true);
        Linear head = new Linear(4, 2, true, g);
        ModuleList holder = new ModuleList();
        holder.add(lstm);
        holder.add(gru);
        holder.add(head);
        Function<Variable[], Variable> f = in -> {
            Recurrent.State s = lstm.forward(in[0]);
            Recurrent.State r = gru.forward(s.output());
            return head.forward(r.output()).add(r.hidden().sum(new int[] {0, 2}, false).unsqueeze(1).unsqueeze(2)).add(s.cell().sum());
        };
        OnnxOptions o = OnnxOptions.defaults().inputNames("x").outputNames("y").dynamicAxis("x", 0, "batch").dynamicAxis("x", 1, "time");
        check(holder, f, List.of(new Tensor[] {Tensor.randn(g, 2, 6, 3)}, new Tensor[] {Tensor.randn(g, 3, 9, 3)},
                new Tensor[] {Tensor.randn(g, 1, 1, 3)}), o);
        LSTM oneLayer = new LSTM(3, 4);
        Function<Variable[], Variable> last = in -> oneLayer.forward(in[0], in[1], in[2]).hidden();
        check(oneLayer, last, List.<Tensor[]>of(new Tensor[] {Tensor.randn(g, 5, 2, 3), Tensor.randn(g, 1, 2, 4), Tensor.randn(g, 1, 2, 4)}),
                OnnxOptions.defaults().inputNames("x", "h0", "c0"));
    }

    @Test
    void indexingWithPositionsSlicesNoneEllipsisAndATensor() throws Exception {
        Linear lin = new Linear(4, 6, true, g);
        Tensor rows = Tensor.of(new long[] {2, 0, 2}, 3);
        Function<Variable[], Variable> f = in -> {
            Variable x = lin.forward(in[0]);                                             // (B, 5, 6)
            int t = x.size(1);
            Variable a = x.index(Index.ALL, Index.slice(1, t), Index.slice(null, null, 2));  // (B, T-1, 3)
            Variable b = x.index(Index.ELLIPSIS, Index.at(-1), Index.NONE);               // (B, T, 1)
            Variable c = x.index(Index.ALL, Index.of(rows));                               // (B, 3, 6)
            return a.sum(new int[] {1}, false).add(b.sum(new int[] {1}, false)).add(c.mean(new int[] {1}, false).narrow(1, 0, 3));
        };
        OnnxOptions o = OnnxOptions.defaults().inputNames("x").outputNames("y").dynamicAxis("x", 0, "batch").dynamicAxis("x", 1, "t");
        check(lin, f, List.of(new Tensor[] {Tensor.randn(g, 2, 5, 4)}, new Tensor[] {Tensor.randn(g, 4, 8, 4)}), o);
    }

    /**
     * Where a Python with the onnx package is at hand (JGRAD_PYTHON, else python3), every model exported above passes
     * {@code onnx.checker.check_model(m, full_check=True)}; skipped, saying so, where there is none.
     */
    @Test
    @Order(Integer.MAX_VALUE)
    void everyExportedModelPassesOnnxChecker(@TempDir Path dir) throws Exception {
        String python = System.getenv().getOrDefault("JGRAD_PYTHON", "python3");
        Assumptions.assumeTrue(runs(python, "import onnx"), "skipped: no Python with the onnx package (" + python
                + "; set JGRAD_PYTHON to one that has it)");
        Assumptions.assumeFalse(EXPORTED.isEmpty(), "skipped: run with the other tests of this class");
        for (int i = 0; i < EXPORTED.size(); i++) {
            Files.write(dir.resolve("m" + i + ".onnx"), EXPORTED.get(i));
        }
        String script = "import onnx, glob, sys\nfor f in sorted(glob.glob(sys.argv[1] + '/*.onnx')):\n"
                + "    onnx.checker.check_model(onnx.load(f), full_check=True)\nprint('checked')";
        Process p = new ProcessBuilder(python, "-c", script, dir.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        assertTrue(out.contains("checked"), out);
    }

    private static boolean runs(String python, String code) {
        try {
            Process p = new ProcessBuilder(python, "-c", code).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    // ------------------------------------------------------------------ helpers

    private static void trainBatchNorm(Module m, Tensor x) {
        try (NoGrad ng = NoGrad.enter()) {
            m.train();
            ((Sequential) m).forward(Variable.of(x));
            m.eval();
        }
    }

    private static List<Tensor[]> batches(Function<Integer, Tensor> make, int... sizes) {
        List<Tensor[]> out = new java.util.ArrayList<>();
        for (int s : sizes) {
            out.add(new Tensor[] {make.apply(s)});
        }
        return out;
    }

    private static byte[] check(Module m, Function<Variable[], Variable> f, List<Tensor[]> sets, String input, String axisName) throws Exception {
        return check(m, f, sets, OnnxOptions.defaults().inputNames(input).outputNames("out").dynamicAxis(input, 0, axisName)
                .dynamicAxis("out", 0, axisName));
    }

    /** Exports at the first set's sizes, then runs every set in ONNX Runtime and in jgrad (eval mode) and compares. */
    static byte[] check(Module m, Function<Variable[], Variable> f, List<Tensor[]> sets, OnnxOptions o) throws Exception {
        byte[] model = Onnx.toBytes(m, f, sets.get(0), o);
        EXPORTED.add(model);
        m.eval();
        try (OrtRunner ort = new OrtRunner(model); NoGrad ng = NoGrad.enter()) {
            for (Tensor[] set : sets) {
                Variable[] in = new Variable[set.length];
                Map<String, Tensor> feeds = new LinkedHashMap<>();
                for (int i = 0; i < set.length; i++) {
                    in[i] = Variable.of(set[i]);
                    feeds.put(o.inputNames().get(i), set[i]);
                }
                Tensor want = f.apply(in).data();
                Tensor got = ort.run(feeds);
                assertArrayEquals(want.shape(), got.shape(), "output shape");
                assertEquals(DType.FLOAT32, got.dtype());
                assertClose(want, got);
            }
        }
        return model;
    }

    static void assertClose(Tensor want, Tensor got) {
        float[] w = want.toFloatArray();
        float[] h = got.toFloatArray();
        for (int i = 0; i < w.length; i++) {
            double tol = Math.max(1e-5, 1e-4 * Math.abs(w[i]));
            assertTrue(Math.abs(w[i] - h[i]) <= tol || (Float.isNaN(w[i]) && Float.isNaN(h[i])),
                    "element " + i + " of " + w.length + ": jgrad " + w[i] + ", ONNX Runtime " + h[i]);
        }
    }
}
