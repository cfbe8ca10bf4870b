package dev.jgrad.nn.onnx;

import dev.jgrad.autograd.Trace;
import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the ONNX graph from a traced program: the names of values, the nodes, the initializers, and the numbers
 * that follow a dynamic axis (read from the inputs' shapes in the graph). The op forms themselves are in
 * {@link PrimitiveForms} (one per primitive of {@link Variable}) and {@link LayerForms} (the layers' annotations).
 */
final class Emitter {
    /** Where a dynamic axis's size is read: input {@code input}'s axis {@code axis}. */
    record Axis(String input, int axis) {
    }

    final int opset;
    private final Traces.Program program;
    private final Traces traces;
    private final List<OnnxProto.Node> nodes = new ArrayList<>();
    private final Map<String, Tensor> initializers = new LinkedHashMap<>();
    private final Map<String, DType> dtypes = new HashMap<>();
    private final Map<String, Integer> ranks = new HashMap<>();
    /** The latest name of each traced tensor: what a skipped annotation's output is called. */
    private final Map<Tensor, String> latest = new IdentityHashMap<>();
    private final Map<Tensor, String> constants = new IdentityHashMap<>();
    private final Map<String, String> poisoned = new HashMap<>();
    private final Map<String, String> symbolValues = new HashMap<>();
    private final Map<String, Axis> symbolAxes;
    private final Map<String, String> names = new HashMap<>();
    private final List<String> inputNames;
    private int counter;

    /** The call being emitted and its index. */
    Trace.Call call;
    int callIndex;
    private List<Map<Integer, Object>> refs;

    Emitter(Traces traces, Traces.Program program, List<String> inputNames, Tensor[] inputs, Map<String, Axis> symbolAxes, int opset) {
        this.traces = traces;
        this.program = program;
        this.inputNames = inputNames;
        this.symbolAxes = symbolAxes;
        this.opset = opset;
        for (int i = 0; i < inputs.length; i++) {
            dtypes.put(inputNames.get(i), inputs[i].dtype());
            ranks.put(inputNames.get(i), inputs[i].dim());
        }
    }

    // ------------------------------------------------------------------ the walk

    /** Emits every call, in order; returns the graph's name for the program's output. */
    String emitAll(Traces.Run base) {
        refs = program.baseRefs();
        List<Trace.Call> calls = program.calls();
        for (int j = 0; j < calls.size(); j++) {
            call = calls.get(j);
            callIndex = j;
            String[] outs;
            try {
                outs = emit(call);
            } catch (Unsupported u) {
                outs = new String[call.outputs().length];
                for (int o = 0; o < outs.length; o++) {
                    outs[o] = fresh("unsupported");
                    poisoned.put(outs[o], u.getMessage());
                }
            }
            if (outs == null) {
                outs = new String[call.outputs().length];
                for (int o = 0; o < outs.length; o++) {
                    outs[o] = latest.get(call.outputs()[o]);
                }
            }
            for (int o = 0; o < outs.length && o < call.outputs().length; o++) {
                if (outs[o] != null) {
                    names.put(j + "/" + o, outs[o]);
                    latest.put(call.outputs()[o], outs[o]);
                    dtypes.putIfAbsent(outs[o], call.outputs()[o].dtype());
                    ranks.putIfAbsent(outs[o], call.outputs()[o].dim());
                }
            }
        }
        return valueOfRef(refOfOutput(base), program.output());
    }

    private Traces.Ref refOfOutput(Traces.Run base) {
        Tensor out = base.output();
        for (int j = base.calls().size() - 1; j >= 0; j--) {
            Tensor[] outs = base.calls().get(j).outputs();
            for (int o = 0; o < outs.length; o++) {
                if (outs[o] == out) {
                    return Traces.Ref.call(j, o);
                }
            }
        }
        for (int i = 0; i < base.inputs().length; i++) {
            if (base.inputs()[i] == out) {
                return Traces.Ref.input(i);
            }
        }
        String state = traces.stateName(out);
        return state != null ? Traces.Ref.state(state) : Traces.Ref.constant(out);
    }

    private String[] emit(Trace.Call c) {
        String unstable = program.unstable().get(callIndex);
        if (unstable != null) {
            throw new Unsupported(unstable);
        }
        if (c.annotation() && !c.op().equals("custom")) {
            return LayerForms.emit(this, c);
        }
        return PrimitiveForms.emit(this, c);
    }

    /** Whether the output of this custom call already has a value (its definition's alias). */
    boolean hasValue(int j, int o) {
        return names.containsKey(j + "/" + o);
    }

    // ------------------------------------------------------------------ values

    /** The graph's name for argument {@code a} of the current call (a variable or a tensor). */
    String in(int a) {
        return valueOfRef(refs.get(callIndex).get(a), argTensor(call.args()[a]));
    }

    /** Which dims of argument {@code a} (a traced value or an input) change size with a dynamic axis; null: none. */
    boolean[] dynamicDims(int a) {
        Traces.Ref r = (Traces.Ref) refs.get(callIndex).get(a);
        if (r.kind().equals("call")) {
            return program.dynamic(r.index(), r.output());
        }
        if (r.kind().equals("input")) {
            Tensor t = argTensor(call.args()[a]);
            boolean[] d = new boolean[t.dim()];
            boolean any = false;
            for (Axis ax : symbolAxes.values()) {
                if (ax.input().equals(inputNames.get(r.index()))) {
                    d[ax.axis()] = true;
                    any = true;
                }
            }
            return any ? d : null;
        }
        return null;
    }

    /** The name for element {@code i} of list argument {@code a}. */
    String inList(int a, int i) {
        Object r = ((List<?>) refs.get(callIndex).get(a)).get(i);
        Object arg = call.args()[a];
        Object el = arg instanceof List<?> l ? l.get(i) : ((Object[]) arg)[i];
        return valueOfRef(r, argTensor(el));
    }

    /** The name for key {@code key} of map argument {@code a}. */
    String inMap(int a, String key) {
        Object r = ((Map<?, ?>) refs.get(callIndex).get(a)).get(key);
        return valueOfRef(r, argTensor(((Map<?, ?>) call.args()[a]).get(key)));
    }

    /** The name for a tensor inside argument {@code a}, at {@code path} in its lists (an index entry's tensor). */
    String inPath(int a, Tensor t, int... path) {
        Object r = refs.get(callIndex).get(a);
        for (int p : path) {
            r = ((List<?>) r).get(p);
        }
        return valueOfRef(r, t);
    }

    /** A number recorded at {@code path} (below the call) as a 1-element int64 tensor, computed where it follows an axis. */
    String intAt(String path, long value) {
        SymbolicInt s = program.symbolic().get(callIndex + ":" + path);
        return s == null ? longs(value) : symbolic(s);
    }

    static Tensor argTensor(Object arg) {
        return arg instanceof Variable v ? v.data() : (Tensor) arg;
    }

    private String valueOfRef(Object refObj, Tensor t) {
        Traces.Ref r = (Traces.Ref) refObj;
        String name = switch (r.kind()) {
            case "input" -> inputNames.get(r.index());
            case "state" -> {
                initializers.putIfAbsent(r.name(), t);
                dtypes.put(r.name(), t.dtype());
                ranks.put(r.name(), t.dim());
                yield r.name();
            }
            case "call" -> {
                String n = names.get(r.index() + "/" + r.output());
                if (n == null) {
                    throw new Unsupported(unnamed(r.index()));
                }
                yield n;
            }
            default -> constant(t);
        };
        String poison = poisoned.get(name);
        if (poison != null) {
            throw new Unsupported(poison);
        }
        return name;
    }

    private String unnamed(int j) {
        Trace.Call c = program.calls().get(j);
        return "op '" + CallSite.describe(c) + "' has no ONNX form here" + CallSite.at(c);
    }

    /** An initializer holding {@code t} (once per tensor), or, where the traces saw {@code arange(n)} of a size, a Range. */
    String constant(Tensor t) {
        String have = constants.get(t);
        if (have != null) {
            return have;
        }
        for (int a = 0; a < call.args().length; a++) {
            Traces.Fill fill = program.fills().get(callIndex + ":" + a);
            if (fill != null && argTensor(call.args()[a]) == t) {
                List<String> dims = new ArrayList<>();
                for (SymbolicInt s : fill.shape()) {
                    dims.add(s.isConstant() ? longs(s.offset()) : symbolic(s));
                }
                String shape = dims.isEmpty() ? longs() : node("Concat", List.of(attr("axis", 0L)), dims.toArray(new String[0]));
                String f = node("Expand", scalar(fill.value(), fill.dtype()), shape);
                rankTyped(f, fill.shape().size(), fill.dtype());
                return f;
            }
            SymbolicInt n = program.ranges().get(callIndex + ":" + a);
            if (n != null && argTensor(call.args()[a]) == t) {
                String end = node("Squeeze", symbolic(n));
                String r = node("Range", scalarLong(0), end, scalarLong(1));
                dtypes.put(r, DType.INT64);
                return r;
            }
        }
        String name = fresh("const");
        initializers.put(name, t);
        dtypes.put(name, t.dtype());
        ranks.put(name, t.dim());
        constants.put(t, name);
        return name;
    }

    /** A 1-d int64 initializer. */
    String longs(long... values) {
        String name = fresh("const");
        initializers.put(name, Tensor.of(values, values.length));
        dtypes.put(name, DType.INT64);
        return name;
    }

    /** A 0-d int64 initializer. */
    String scalarLong(long value) {
        String name = fresh("const");
        initializers.put(name, Tensor.scalar(value, DType.INT64));
        dtypes.put(name, DType.INT64);
        return name;
    }

    /** A 0-d initializer of {@code dtype}. */
    String scalar(double value, DType dtype) {
        String name = fresh("const");
        initializers.put(name, Tensor.scalar(value, dtype));
        dtypes.put(name, dtype);
        return name;
    }

    /**
     * Argument {@code a} (an int or int[]) as a 1-d int64 tensor: an initializer where every element is a constant,
     * else a Concat of the elements, those that follow a dynamic axis computed from the input's shape.
     */
    String ints(int a) {
        Object v = call.args()[a];
        int[] values = v instanceof int[] arr ? arr : new int[] {(Integer) v};
        String prefix = callIndex + ":" + a;
        boolean constant = true;
        List<SymbolicInt> el = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            SymbolicInt s = program.symbolic().get(v instanceof int[] ? prefix + "[" + i + "]" : prefix);
            el.add(s == null ? SymbolicInt.constant(values[i]) : s);
            constant &= s == null;
        }
        if (constant) {
            long[] l = new long[values.length];
            for (int i = 0; i < l.length; i++) {
                l[i] = values[i];
            }
            return longs(l);
        }
        List<String> parts = new ArrayList<>();
        for (SymbolicInt s : el) {
            parts.add(s.isConstant() ? longs(s.offset()) : symbolic(s));
        }
        return parts.size() == 1 ? parts.get(0) : node("Concat", List.of(attr("axis", 0L)), parts.toArray(new String[0]));
    }

    /** Argument {@code a} (an int or an int[] element path) as a number that must not follow a dynamic axis. */
    long constInt(int a) {
        return constInts(a)[0];
    }

    /** Argument {@code a} as numbers that must not follow a dynamic axis (axes, kernel sizes). */
    long[] constInts(int a) {
        Object v = call.args()[a];
        String prefix = callIndex + ":" + a;
        int[] values = v instanceof int[] arr ? arr : new int[] {(Integer) v};
        long[] out = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            if (program.symbolic().containsKey(v instanceof int[] ? prefix + "[" + i + "]" : prefix)) {
                throw new Unsupported("op '" + CallSite.describe(call) + "' was given " + Arrays.toString(values)
                        + ", which follows a dynamic axis where ONNX needs a fixed number" + CallSite.at(call));
            }
            out[i] = values[i];
        }
        return out;
    }

    /** Whether argument path {@code path} of the current call follows a dynamic axis. */
    boolean isSymbolic(String path) {
        return program.symbolic().containsKey(callIndex + ":" + path);
    }

    /** A 1-element int64 tensor holding the expression's value, computed from the inputs' shapes. */
    String symbolic(SymbolicInt s) {
        String v = null;
        for (String sym : s.symbols()) {
            String size = symbolSize(sym);
            v = v == null ? size : node("Mul", v, size);
        }
        if (s.scale() != 1) {
            v = node("Mul", v, longs(s.scale()));
        }
        if (s.offset() != 0) {
            v = node("Add", v, longs(s.offset()));
        }
        dtypes.put(v, DType.INT64);
        return v;
    }

    private String symbolSize(String symbol) {
        return symbolValues.computeIfAbsent(symbol, sym -> {
            Axis ax = symbolAxes.get(sym);
            String shape = node("Shape", ax.input());
            String size = node("Gather", List.of(attr("axis", 0L)), shape, longs(ax.axis()));
            dtypes.put(size, DType.INT64);
            return size;
        });
    }

    // ------------------------------------------------------------------ nodes

    /** A node with one output and no attributes; returns the output's name. */
    String node(String op, String... inputs) {
        return node(op, List.of(), inputs);
    }

    /** A node with one output. */
    String node(String op, List<OnnxProto.Attribute> attributes, String... inputs) {
        return nodeN(op, 1, attributes, inputs)[0];
    }

    /** A node with {@code outputs} outputs; an empty input name is an omitted optional input. */
    String[] nodeN(String op, int outputs, List<OnnxProto.Attribute> attributes, String... inputs) {
        String[] outs = new String[outputs];
        for (int i = 0; i < outputs; i++) {
            outs[i] = fresh(op);
        }
        nodes.add(new OnnxProto.Node(op, Arrays.asList(inputs), Arrays.asList(outs), attributes, fresh("n_" + op)));
        return outs;
    }

    /** A Cast of {@code value} to {@code dtype}, or the value itself where it has that type already. */
    String cast(String value, DType dtype) {
        DType have = dtypes.get(value);
        if (have == dtype) {
            return value;
        }
        String c = node("Cast", List.of(attr("to", (long) OnnxProto.elemType(dtype))), value);
        dtypes.put(c, dtype);
        return c;
    }

    /** Records the type of a value made by a mapping. */
    String typed(String value, DType dtype) {
        dtypes.put(value, dtype);
        return value;
    }

    DType dtype(String value) {
        return dtypes.get(value);
    }

    /** The rank of a value whose rank is known (traced values, inputs, initializers, and those a mapping set). */
    Integer rank(String value) {
        return ranks.get(value);
    }

    /** Records the rank and type of a value made by a mapping. */
    String rankTyped(String value, int rank, DType dtype) {
        ranks.put(value, rank);
        dtypes.put(value, dtype);
        return value;
    }

    static OnnxProto.Attribute attr(String name, Object value) {
        return new OnnxProto.Attribute(name, value);
    }

    String fresh(String base) {
        return base + "_" + (counter++);
    }

    /** A reduction over {@code axes}: as an attribute before opset 18 (ReduceSum: always an input), as an input from 18. */
    String reduce(String op, String x, long[] axes, boolean keepdim) {
        List<OnnxProto.Attribute> attrs = new ArrayList<>();
        attrs.add(attr("keepdims", keepdim ? 1L : 0L));
        if (axes == null) {
            return node(op, attrs, x);
        }
        if (op.equals("ReduceSum") || opset >= 18) {
            return node(op, attrs, x, longs(axes));
        }
        attrs.add(attr("axes", axes));
        return node(op, attrs, x);
    }

    // ------------------------------------------------------------------ the result

    List<OnnxProto.Node> nodes() {
        return nodes;
    }

    Map<String, Tensor> initializers() {
        return initializers;
    }

    /** The error of a value that could not be made, or null. */
    String poison(String name) {
        return poisoned.get(name);
    }

    /** An op this exporter has no form for: becomes an error only where the graph's output needs it. */
    static final class Unsupported extends RuntimeException {
        Unsupported(String message) {
            super(message, null, false, false);
        }
    }
}
