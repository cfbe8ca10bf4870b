package dev.jgrad.nn.onnx;

import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.Layer;
import dev.jgrad.nn.Module;
import dev.jgrad.nn.io.AtomicFile;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Exports a model to ONNX, as {@code torch.onnx.export} does: the forward runs on example inputs with a
 * {@link dev.jgrad.autograd.Trace} open, each recorded op becomes ONNX nodes, parameters and buffers become
 * initializers under their state-dict names ({@code fc1.weight}; a tied weight once), and the inputs and output get
 * the names the options give. Dynamic axes are followed: the forward runs again with each such axis at another size,
 * and every number an op was given that changes with it is computed in the graph from the input's shape.
 * <pre>{@code
 * Onnx.export(model, in -> model.forward(in[0]), new Tensor[] {x}, Path.of("model.onnx"),
 *         OnnxOptions.defaults().inputNames("x").outputNames("y").dynamicAxis("x", 0, "batch").dynamicAxis("y", 0, "batch"));
 * }</pre>
 * An op without an ONNX form fails the export with an {@link OnnxExportException} that names the op, its shapes and
 * the module it ran in, and nothing is written; the file is written to a temporary name and renamed, so an existing
 * file is replaced whole or not at all. The model runs in eval mode (dropout off, batch norm on its running
 * statistics) and is left in the mode it was in.
 */
public final class Onnx {
    private Onnx() {
    }

    /** What an export wrote. */
    public record Result(Path file, long bytes, int nodes, int initializers) {
    }

    /** Exports a layer with one input. */
    public static Result export(Layer layer, Tensor example, Path out, OnnxOptions options) {
        return export(layer, in -> layer.forward(in[0]), new Tensor[] {example}, out, options);
    }

    /** Exports {@code forward} (the model's forward on variables wrapping the inputs) run on {@code examples}. */
    public static Result export(Module module, Function<Variable[], Variable> forward, Tensor[] examples, Path out, OnnxOptions options) {
        Model m = build(module, forward, examples, options);
        try {
            AtomicFile.write(out, m.bytes());
        } catch (IOException e) {
            throw new OnnxExportException("cannot write " + out + ": " + AtomicFile.reason(e), e);
        }
        return new Result(out, m.bytes().length, m.nodes(), m.initializers());
    }

    /** The ONNX model's bytes. */
    public static byte[] toBytes(Module module, Function<Variable[], Variable> forward, Tensor[] examples, OnnxOptions options) {
        return build(module, forward, examples, options).bytes();
    }

    /** A model's bytes and how many nodes and initializers it holds. */
    private record Model(byte[] bytes, int nodes, int initializers) {
    }

    private static Model build(Module module, Function<Variable[], Variable> forward, Tensor[] examples, OnnxOptions options) {
        List<String> inputs = new ArrayList<>(options.inputNames());
        if (inputs.isEmpty()) {
            for (int i = 0; i < examples.length; i++) {
                inputs.add("input_" + i);
            }
        }
        if (inputs.size() != examples.length) {
            throw new OnnxExportException(examples.length + " example inputs but " + inputs.size() + " input names " + inputs);
        }
        List<String> outputs = new ArrayList<>(options.outputNames());
        if (outputs.isEmpty()) {
            outputs.add("output");
        }
        if (outputs.size() != 1) {
            throw new OnnxExportException("the forward gives one output, but " + outputs.size() + " output names were given " + outputs);
        }
        String output = outputs.get(0);
        if (inputs.contains(output) || new HashSet<>(inputs).size() != inputs.size()) {
            throw new OnnxExportException("input and output names must differ: " + inputs + " -> " + output);
        }
        for (String name : options.dynamicAxes().keySet()) {
            if (!inputs.contains(name) && !name.equals(output)) {
                throw new OnnxExportException("dynamic axes given for '" + name + "', which is neither an input " + inputs
                        + " nor the output '" + output + "'");
            }
        }
        List<Map<Integer, String>> axes = new ArrayList<>();
        Map<String, Emitter.Axis> symbolAxes = new LinkedHashMap<>();
        for (int i = 0; i < examples.length; i++) {
            Map<Integer, String> ax = new LinkedHashMap<>();
            for (Map.Entry<Integer, String> e : options.dynamicAxes().getOrDefault(inputs.get(i), Map.of()).entrySet()) {
                int axis = e.getKey() < 0 ? e.getKey() + examples[i].dim() : e.getKey();
                if (axis < 0 || axis >= examples[i].dim()) {
                    throw new OnnxExportException("dynamic axis " + e.getKey() + " of input '" + inputs.get(i) + "' is out of range for its "
                            + examples[i].dim() + " dims " + java.util.Arrays.toString(examples[i].shape()));
                }
                ax.put(axis, e.getValue());
                symbolAxes.putIfAbsent(e.getValue(), new Emitter.Axis(inputs.get(i), axis));
            }
            axes.add(ax);
        }
        Traces traces = new Traces(module, forward);
        CallSite.EXPORTING.set(module);
        try {
            Traces.Program program = traces.trace(examples, axes, LayerForms.FUSED);
            Emitter e = new Emitter(traces, program, inputs, examples, symbolAxes, options.opset());
            String result;
            try {
                result = e.emitAll(program.base());
            } catch (Emitter.Unsupported u) {
                throw new OnnxExportException("cannot export: " + u.getMessage());
            }
            e.nodes().add(new OnnxProto.Node("Identity", List.of(result), List.of(output), List.of(), "output_identity"));
            List<OnnxProto.Node> kept = reachable(e.nodes(), output);
            Set<String> used = new HashSet<>();
            for (OnnxProto.Node n : kept) {
                used.addAll(n.inputs());
            }
            List<OnnxProto.Named> inits = new ArrayList<>();
            for (Map.Entry<String, Tensor> init : e.initializers().entrySet()) {
                if (used.contains(init.getKey())) {
                    inits.add(new OnnxProto.Named(init.getKey(), init.getValue()));
                }
            }
            List<OnnxProto.ValueInfo> in = new ArrayList<>();
            for (int i = 0; i < examples.length; i++) {
                in.add(info(inputs.get(i), examples[i].dtype(), examples[i].shape(), axes.get(i)));
            }
            Map<Integer, String> outAxes = outputAxes(program, options.dynamicAxes().getOrDefault(output, Map.of()));
            List<OnnxProto.ValueInfo> out = List.of(info(output, program.output().dtype(), program.output().shape(), outAxes));
            return new Model(OnnxProto.model("jgrad", kept, inits, in, out, options.opset(), options.producerName(), options.producerVersion()),
                    kept.size(), inits.size());
        } finally {
            CallSite.EXPORTING.remove();
        }
    }

    /** The output's dims that change with a dynamic axis: named as the options say, else after the axis they follow. */
    private static Map<Integer, String> outputAxes(Traces.Program p, Map<Integer, String> given) {
        Map<Integer, String> out = new HashMap<>();
        int[] base = p.outputShapes().get(0);
        for (Map.Entry<Integer, String> e : given.entrySet()) {
            out.put(e.getKey() < 0 ? e.getKey() + base.length : e.getKey(), e.getValue());
        }
        for (int d = 0; d < base.length; d++) {
            if (out.containsKey(d)) {
                continue;
            }
            for (int k = 1; k < p.outputShapes().size(); k++) {
                if (p.outputShapes().get(k)[d] != base[d]) {
                    String sym = p.symbols().get(k - 1);
                    boolean follows = base[d] == p.baseSizes()[k - 1] && p.outputShapes().get(k)[d] == p.variedSizes()[k - 1];
                    out.put(d, follows ? sym : null);
                }
            }
        }
        return out;
    }

    private static OnnxProto.ValueInfo info(String name, DType dtype, int[] shape, Map<Integer, String> axes) {
        long[] dims = new long[shape.length];
        String[] symbols = new String[shape.length];
        for (int d = 0; d < shape.length; d++) {
            boolean dynamic = axes.containsKey(d);
            dims[d] = dynamic ? -1 : shape[d];
            symbols[d] = dynamic ? axes.get(d) : null;
        }
        return new OnnxProto.ValueInfo(name, OnnxProto.elemType(dtype), dims, symbols);
    }

    /** The nodes the output depends on, in their order (dead code left by annotations and definitions dropped). */
    private static List<OnnxProto.Node> reachable(List<OnnxProto.Node> nodes, String output) {
        Map<String, OnnxProto.Node> producer = new HashMap<>();
        for (OnnxProto.Node n : nodes) {
            for (String o : n.outputs()) {
                producer.put(o, n);
            }
        }
        Set<OnnxProto.Node> keep = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        Deque<String> todo = new ArrayDeque<>(List.of(output));
        while (!todo.isEmpty()) {
            OnnxProto.Node n = producer.get(todo.pop());
            if (n != null && keep.add(n)) {
                for (String in : n.inputs()) {
                    if (!in.isEmpty()) {
                        todo.push(in);
                    }
                }
            }
        }
        List<OnnxProto.Node> out = new ArrayList<>();
        for (OnnxProto.Node n : nodes) {
            if (keep.contains(n)) {
                out.add(n);
            }
        }
        return out;
    }
}
