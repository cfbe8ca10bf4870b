package dev.jgrad.nn.onnx;

import dev.jgrad.autograd.CustomFunction;
import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.Layer;
import dev.jgrad.nn.Linear;
import dev.jgrad.nn.Sequential;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Index;
import dev.jgrad.tensor.ScatterReduce;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What an export that cannot be made says, and that it writes nothing. */
class OnnxExportErrorsTest {
    private final Generator g = new Generator(3);

    /** A layer of the user's own that runs {@code op} after a linear layer. */
    static final class Custom extends Layer {
        final Linear lin;
        final UnaryOperator<Variable> op;

        Custom(Generator g, UnaryOperator<Variable> op) {
            this.lin = registerModule("lin", new Linear(4, 6, true, g));
            this.op = op;
        }

        @Override
        public Variable forward(Variable x) {
            return op.apply(lin.forward(x));
        }
    }

    @Test
    void everyOpWithoutAFormIsNamedWithItsShapeAndModule() {
        Tensor idx = Tensor.of(new long[] {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1}, 3, 6);
        Map<String, UnaryOperator<Variable>> ops = new LinkedHashMap<>();
        ops.put("unfold", x -> x.unfold(1, 2, 2));
        ops.put("diagonal", x -> x.diagonal(0, 0, 1));
        ops.put("sumTo", x -> x.sumTo(1, 6));
        ops.put("takeAlongDim", x -> x.takeAlongDim(idx, 1));
        ops.put("scatter", x -> x.scatter(1, idx, x));
        ops.put("scatterAdd", x -> x.scatterAdd(1, idx, x));
        ops.put("scatterReduce", x -> x.scatterReduce(1, idx, x, ScatterReduce.AMAX, true));
        ops.put("indexAdd", x -> x.indexAdd(1, Tensor.of(new long[] {0, 2}, 2), x.narrow(1, 0, 2)));
        ops.put("indexPut", x -> x.indexPut(new Index[] {Index.ALL, Index.of(0, 2)}, x.narrow(1, 0, 2), false));
        ops.put("bool mask", x -> x.index(Index.of(x.data().gt(0))));
        ops.put("two tensor indices", x -> x.index(Index.of(0, 1), Index.of(2, 3)));
        ops.put("no_definition", x -> CustomFunction.apply("no_definition", x.data().mul(2), new Variable[] {x}, new Tensor[0],
                (gr, saved, needs) -> new Tensor[] {gr.mul(2)}));
        for (Map.Entry<String, UnaryOperator<Variable>> e : ops.entrySet()) {
            Custom m = new Custom(g, e.getValue());
            OnnxExportException ex = assertThrows(OnnxExportException.class,
                    () -> Onnx.toBytes(m, in -> m.forward(in[0]), new Tensor[] {Tensor.randn(g, 3, 4)}, OnnxOptions.defaults()), e.getKey());
            String msg = ex.getMessage();
            String name = e.getKey().startsWith("bool") || e.getKey().startsWith("two") ? "index" : e.getKey();
            assertTrue(msg.contains("'" + name + "'") || msg.contains(name), e.getKey() + ": " + msg);
            assertTrue(msg.contains("in module (the model) (Custom)"), e.getKey() + " names the module: " + msg);
            assertTrue(msg.contains("called at") && msg.contains("Custom.forward"), e.getKey() + " names where: " + msg);
        }
    }

    @Test
    void theShapeOfAnUnsupportedOpsOutputIsInTheMessage() {
        Custom m = new Custom(g, x -> x.unfold(1, 2, 2));
        OnnxExportException ex = assertThrows(OnnxExportException.class,
                () -> Onnx.toBytes(m, in -> m.forward(in[0]), new Tensor[] {Tensor.randn(g, 3, 4)}, OnnxOptions.defaults()));
        assertTrue(ex.getMessage().contains("([3, 6] -> [3, 3, 2])"), ex.getMessage());
    }

    @Test
    void aFailedExportLeavesTheFileThatWasThere(@TempDir Path dir) throws Exception {
        Sequential good = new Sequential(new Linear(4, 2, true, g));
        Path out = dir.resolve("model.onnx");
        Onnx.export(good, Tensor.randn(g, 3, 4), out, OnnxOptions.defaults());
        byte[] before = Files.readAllBytes(out);
        Custom bad = new Custom(g, x -> x.unfold(1, 2, 2));
        assertThrows(OnnxExportException.class, () -> Onnx.export(bad, Tensor.randn(g, 3, 4), out, OnnxOptions.defaults()));
        assertArrayEquals(before, Files.readAllBytes(out));
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temporary file is left beside it");
        }
        Path blocked = dir.resolve("a-file").resolve("model.onnx");
        Files.writeString(dir.resolve("a-file"), "not a folder");
        OnnxExportException ex = assertThrows(OnnxExportException.class, () -> Onnx.export(good, Tensor.randn(g, 3, 4), blocked,
                OnnxOptions.defaults()));
        assertTrue(ex.getMessage().contains(blocked.toString()), ex.getMessage());
    }

    @Test
    void aForwardWhoseStructureFollowsADynamicAxisIsRefused() {
        Linear lin = new Linear(4, 4, true, g);
        OnnxOptions o = OnnxOptions.defaults().inputNames("x").dynamicAxis("x", 1, "time");
        OnnxExportException ex = assertThrows(OnnxExportException.class, () -> Onnx.toBytes(lin, in -> {
            Variable h = lin.forward(in[0].select(1, 0));
            for (int t = 1; t < in[0].size(1); t++) {
                h = lin.forward(h.add(in[0].select(1, t)));
            }
            return h;
        }, new Tensor[] {Tensor.randn(g, 2, 5, 4)}, o));
        assertTrue(ex.getMessage().contains("'time'") && ex.getMessage().contains("cannot be dynamic"), ex.getMessage());
        Onnx.toBytes(lin, in -> lin.forward(in[0].select(1, 0)), new Tensor[] {Tensor.randn(g, 2, 5, 4)}, OnnxOptions.defaults());
    }

    @Test
    void aConstantComputedOutsideTheRecordingIsRefusedWhereItFollowsAnAxis() {
        Linear lin = new Linear(4, 4, true, g);
        OnnxOptions o = OnnxOptions.defaults().inputNames("x").dynamicAxis("x", 0, "batch");
        OnnxExportException ex = assertThrows(OnnxExportException.class, () -> Onnx.toBytes(lin,
                in -> lin.forward(in[0]).add(Variable.of(in[0].data().mul(2))), new Tensor[] {Tensor.randn(g, 3, 4)}, o));
        assertTrue(ex.getMessage().contains("plain tensor ops"), ex.getMessage());
    }

    @Test
    void optionsThatDoNotFitTheModelAreRefused() {
        Sequential m = new Sequential(new Linear(4, 2, true, g));
        Tensor[] x = {Tensor.randn(g, 3, 4)};
        assertThrows(OnnxExportException.class, () -> Onnx.toBytes(m, in -> m.forward(in[0]), x,
                OnnxOptions.defaults().inputNames("a", "b")));
        OnnxExportException unknown = assertThrows(OnnxExportException.class, () -> Onnx.toBytes(m, in -> m.forward(in[0]), x,
                OnnxOptions.defaults().inputNames("x").dynamicAxis("y", 0, "batch")));
        assertTrue(unknown.getMessage().contains("'y'"), unknown.getMessage());
        assertThrows(OnnxExportException.class, () -> Onnx.toBytes(m, in -> m.forward(in[0]), x,
                OnnxOptions.defaults().inputNames("x").dynamicAxis("x", 2, "batch")));
        IllegalArgumentException opset = assertThrows(IllegalArgumentException.class, () -> OnnxOptions.defaults().opset(13));
        assertTrue(opset.getMessage().contains("13"), opset.getMessage());
    }
}
