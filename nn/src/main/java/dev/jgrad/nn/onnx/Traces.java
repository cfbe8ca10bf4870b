package dev.jgrad.nn.onnx;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Trace;
import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.Module;
import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Runs the forward once at the example's sizes and once more for each dynamic axis with that axis alone at another
 * size, and compares the recordings: the same ops must run (else the forward's structure depends on the size: a
 * loop over the sequence), and each number the ops were given is then a constant or a {@link SymbolicInt} of the
 * axes' sizes. A constant tensor that differs between the runs was computed outside the recording (from a size, or
 * from the input's values with plain tensor ops) and is refused, except {@code arange(n)} of a size, which the graph
 * makes with Range.
 */
final class Traces {
    /** Where a tensor an op reads comes from: an input, a parameter or buffer, an earlier op's output, or a constant. */
    record Ref(String kind, int index, int output, String name, Tensor constant) {
        static Ref input(int i) {
            return new Ref("input", i, 0, null, null);
        }

        static Ref state(String name) {
            return new Ref("state", -1, 0, name, null);
        }

        static Ref call(int j, int o) {
            return new Ref("call", j, o, null, null);
        }

        static Ref constant(Tensor t) {
            return new Ref("const", -1, 0, null, t);
        }
    }

    /** The recording at the example's sizes, the numbers that follow a size, the constants that are ranges of one. */
    record Program(List<Trace.Call> calls, Tensor output, Map<String, SymbolicInt> symbolic, Map<String, SymbolicInt> ranges,
                   List<String> symbols, Run base, List<int[]> outputShapes, long[] baseSizes, long[] variedSizes,
                   Map<Integer, String> unstable, Map<String, Fill> fills, Map<String, boolean[]> dynamicDims) {
        /** Which dims of output {@code o} of call {@code j} change size between the runs (null: none). */
        boolean[] dynamic(int j, int o) {
            return dynamicDims.get(j + "/" + o);
        }
    }

    /** A constant that is one value everywhere in every run, of a shape that follows the dynamic axes (zero states). */
    record Fill(double value, dev.jgrad.tensor.DType dtype, List<SymbolicInt> shape) {
    }

    /** The model being exported on this thread, for naming the module an op was recorded in. */
    static final ThreadLocal<Module> EXPORTING = new ThreadLocal<>();

    private final Module module;
    private final Function<Variable[], Variable> forward;
    private final Map<Tensor, String> state = new IdentityHashMap<>();
    private Map<String, Fill> fills;

    Traces(Module module, Function<Variable[], Variable> forward) {
        this.module = module;
        this.forward = forward;
        for (Map.Entry<String, Tensor> e : module.stateDict().entrySet()) {
            state.putIfAbsent(e.getValue(), e.getKey());
        }
        for (Map.Entry<String, dev.jgrad.nn.Parameter> e : module.namedParameters().entrySet()) {
            state.putIfAbsent(e.getValue().data(), e.getKey());
        }
    }

    /** The parameter or buffer name of a tensor of the module, or null. */
    String stateName(Tensor t) {
        return state.get(t);
    }

    /** One run of the forward under a trace, in eval mode and without recording gradients. */
    record Run(List<Trace.Call> calls, Tensor output, Tensor[] inputs) {
    }

    Run run(Tensor[] inputs, Set<String> mapped) {
        boolean training = module.isTraining();
        module.eval();
        try (NoGrad g = NoGrad.enter(); Trace trace = Trace.start(mapped)) {
            Variable[] in = new Variable[inputs.length];
            for (int i = 0; i < in.length; i++) {
                in[i] = Variable.of(inputs[i]);
            }
            Variable out = forward.apply(in);
            if (out == null) {
                throw new OnnxExportException("the forward returned null");
            }
            return new Run(collapse(trace.calls()), out.data(), inputs);
        } finally {
            module.train(training);
        }
    }

    /**
     * The calls with each annotation the exporter maps in place of the calls it stands for (a GRU's loop over time, an
     * attention's products), so runs at different sizes compare op for op where the annotation hides the difference.
     */
    static List<Trace.Call> collapse(List<Trace.Call> calls) {
        List<Trace.Call> out = new ArrayList<>();
        List<Integer> original = new ArrayList<>();
        for (int j = 0; j < calls.size(); j++) {
            Trace.Call c = calls.get(j);
            if (c.annotation() && c.from() >= 0 && LayerForms.ANNOTATIONS.contains(c.op())) {
                while (!original.isEmpty() && original.get(original.size() - 1) >= c.from()) {
                    original.remove(original.size() - 1);
                    out.remove(out.size() - 1);
                }
            }
            out.add(c);
            original.add(j);
        }
        return out;
    }

    /**
     * The program: the base run and one run per symbol (inputs narrowed or grown along that symbol's axes), compared.
     * {@code axes[i]} maps input i's dynamic axes to their symbols.
     */
    Program trace(Tensor[] inputs, List<Map<Integer, String>> axes, Set<String> mapped) {
        List<String> symbols = new ArrayList<>();
        Map<String, Integer> baseSize = new LinkedHashMap<>();
        for (int i = 0; i < inputs.length; i++) {
            for (Map.Entry<Integer, String> e : axes.get(i).entrySet()) {
                int size = inputs[i].size(e.getKey());
                Integer known = baseSize.putIfAbsent(e.getValue(), size);
                if (known != null && known != size) {
                    throw new OnnxExportException("dynamic axis '" + e.getValue() + "' has size " + known + " in one input and " + size
                            + " in another: axes that share a name must share a size");
                }
                if (!symbols.contains(e.getValue())) {
                    symbols.add(e.getValue());
                }
            }
        }
        Run base = run(inputs, mapped);
        List<Run> runs = new ArrayList<>(List.of(base));
        long[] baseSizes = new long[symbols.size()];
        long[] variedSizes = new long[symbols.size()];
        for (int s = 0; s < symbols.size(); s++) {
            String sym = symbols.get(s);
            int size = baseSize.get(sym);
            int other = size >= 3 ? size - 1 : size + 1;
            baseSizes[s] = size;
            variedSizes[s] = other;
            Tensor[] varied = new Tensor[inputs.length];
            for (int i = 0; i < inputs.length; i++) {
                Tensor t = inputs[i];
                for (Map.Entry<Integer, String> e : axes.get(i).entrySet()) {
                    if (e.getValue().equals(sym)) {
                        t = resize(t, e.getKey(), other);
                    }
                }
                varied[i] = t;
            }
            Run r;
            try {
                r = run(varied, mapped);
            } catch (RuntimeException e) {
                throw new OnnxExportException("the forward fails with dynamic axis '" + sym + "' at " + other + " instead of " + size
                        + " (" + e.getMessage() + "): that axis cannot be dynamic", e);
            }
            runs.add(r);
        }
        Map<String, SymbolicInt> symbolic = new LinkedHashMap<>();
        Map<String, SymbolicInt> ranges = new LinkedHashMap<>();
        Map<Integer, String> unstable = new LinkedHashMap<>();
        Map<String, Fill> fills = new LinkedHashMap<>();
        this.fills = fills;
        compare(runs, symbols, baseSizes, variedSizes, symbolic, ranges, unstable);
        Map<String, boolean[]> dynamicDims = dynamicDims(runs, symbols, baseSizes, variedSizes);
        List<int[]> shapes = new ArrayList<>();
        for (Run r : runs) {
            shapes.add(r.output().shape());
        }
        return new Program(base.calls(), base.output(), symbolic, ranges, symbols, base, shapes, baseSizes, variedSizes, unstable, fills, dynamicDims);
    }

    /** {@code t} with axis {@code axis} cut to {@code size}, or grown to it by repeating its first entries. */
    private static Tensor resize(Tensor t, int axis, int size) {
        int now = t.size(axis);
        if (size <= now) {
            return t.narrow(axis, 0, size).contiguous();
        }
        return Tensor.cat(List.of(t, t.narrow(axis, 0, size - now)), axis).contiguous();
    }

    /** Each tensor an op of a run reads, resolved to where it comes from. */
    List<Map<Integer, Object>> resolve(Run run) {
        Map<Tensor, Ref> where = new IdentityHashMap<>();
        for (int i = 0; i < run.inputs().length; i++) {
            where.put(run.inputs()[i], Ref.input(i));
        }
        List<Map<Integer, Object>> out = new ArrayList<>();
        List<Trace.Call> calls = run.calls();
        for (int j = 0; j < calls.size(); j++) {
            Trace.Call c = calls.get(j);
            Map<Integer, Object> refs = new LinkedHashMap<>();
            for (int a = 0; a < c.args().length; a++) {
                refs.put(a, refOf(c.args()[a], where));
            }
            out.add(refs);
            for (int o = 0; o < c.outputs().length; o++) {
                where.put(c.outputs()[o], Ref.call(j, o));
            }
        }
        return out;
    }

    private Object refOf(Object arg, Map<Tensor, Ref> where) {
        if (arg instanceof Variable v) {
            return refOf(v.data(), where);
        }
        if (arg instanceof Tensor t) {
            Ref r = where.get(t);
            if (r != null) {
                return r;
            }
            String name = state.get(t);
            return name != null ? Ref.state(name) : Ref.constant(t);
        }
        if (arg instanceof List<?> list) {
            List<Object> l = new ArrayList<>();
            for (Object o : list) {
                l.add(refOf(o, where));
            }
            return l;
        }
        if (arg instanceof dev.jgrad.tensor.Index ix) {
            // An index entry as [kind, position, start, stop, step, tensor], so runs compare field by field.
            List<Object> l = new ArrayList<>();
            l.add(ix.kind());
            l.add(ix.position());
            l.add(ix.start());
            l.add(ix.stop());
            l.add(ix.step());
            l.add(ix.tensor() == null ? null : refOf(ix.tensor(), where));
            return l;
        }
        if (arg instanceof Object[] arr) {
            return refOf(Arrays.asList(arr), where);
        }
        if (arg instanceof Map<?, ?> map) {
            Map<Object, Object> m = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                m.put(e.getKey(), refOf(e.getValue(), where));
            }
            return m;
        }
        return arg;
    }

    /**
     * Compares the runs op by op. A different op sequence is an error at once; an op whose numbers or constants cannot be
     * followed is put in {@code unstable} with its error, which counts only if the graph's output needs that op (a
     * layer's annotation may stand for it).
     */
    private void compare(List<Run> runs, List<String> symbols, long[] base, long[] varied, Map<String, SymbolicInt> symbolic,
                         Map<String, SymbolicInt> ranges, Map<Integer, String> unstable) {
        Run r0 = runs.get(0);
        List<List<Map<Integer, Object>>> resolved = new ArrayList<>();
        for (Run r : runs) {
            resolved.add(resolve(r));
        }
        for (int k = 1; k < runs.size(); k++) {
            List<Trace.Call> a = r0.calls();
            List<Trace.Call> b = runs.get(k).calls();
            for (int j = 0; j < Math.min(a.size(), b.size()); j++) {
                if (!a.get(j).op().equals(b.get(j).op()) || a.get(j).args().length != b.get(j).args().length) {
                    throw structure(symbols.get(k - 1), base[k - 1], varied[k - 1], a.get(j), b.get(j));
                }
            }
            if (a.size() != b.size()) {
                throw new OnnxExportException("the forward ran " + a.size() + " ops with '" + symbols.get(k - 1) + "' at " + base[k - 1]
                        + " and " + b.size() + " at " + varied[k - 1] + ": its structure depends on that size (a loop over it?),"
                        + " so that axis cannot be dynamic; export with it fixed");
            }
        }
        for (int j = 0; j < r0.calls().size(); j++) {
            Trace.Call call = r0.calls().get(j);
            for (int a = 0; a < call.args().length; a++) {
                List<Object> values = new ArrayList<>();
                for (List<Map<Integer, Object>> res : resolved) {
                    values.add(res.get(j).get(a));
                }
                try {
                    compareValue(call, j + ":" + a, values, symbols, base, varied, symbolic, ranges);
                } catch (OnnxExportException e) {
                    unstable.putIfAbsent(j, e.getMessage());
                }
            }
        }
    }

    private void compareValue(Trace.Call call, String path, List<Object> values, List<String> symbols, long[] base, long[] varied,
                              Map<String, SymbolicInt> symbolic, Map<String, SymbolicInt> ranges) {
        Object v0 = values.get(0);
        if (v0 instanceof Integer || v0 instanceof Long) {
            long[] nums = new long[values.size()];
            for (int k = 0; k < nums.length; k++) {
                nums[k] = ((Number) values.get(k)).longValue();
            }
            SymbolicInt s = SymbolicInt.fit(nums, symbols, base, varied);
            if (s == null) {
                throw new OnnxExportException("op '" + describe(call) + "' was given " + Arrays.toString(nums) + " at the traced sizes of "
                        + symbols + ": no whole-number formula of those sizes gives it; export with those axes fixed" + at(call));
            }
            if (!s.isConstant()) {
                symbolic.put(path, s);
            }
            return;
        }
        if (v0 instanceof int[] arr) {
            for (int i = 0; i < arr.length; i++) {
                List<Object> el = new ArrayList<>();
                for (Object v : values) {
                    int[] other = (int[]) v;
                    if (other.length != arr.length) {
                        throw new OnnxExportException("op '" + describe(call) + "' was given " + Arrays.toString(arr) + " and "
                                + Arrays.toString(other) + " at different sizes: a list whose length follows a size cannot be"
                                + " exported" + at(call));
                    }
                    el.add(other[i]);
                }
                compareValue(call, path + "[" + i + "]", el, symbols, base, varied, symbolic, ranges);
            }
            return;
        }
        if (v0 instanceof List<?> l0) {
            for (int i = 0; i < l0.size(); i++) {
                List<Object> el = new ArrayList<>();
                for (Object v : values) {
                    el.add(((List<?>) v).get(i));
                }
                compareValue(call, path + "[" + i + "]", el, symbols, base, varied, symbolic, ranges);
            }
            return;
        }
        if (v0 instanceof Map<?, ?> m0) {
            for (Object key : m0.keySet()) {
                List<Object> el = new ArrayList<>();
                for (Object v : values) {
                    el.add(((Map<?, ?>) v).get(key));
                }
                compareValue(call, path + "." + key, el, symbols, base, varied, symbolic, ranges);
            }
            return;
        }
        if (v0 instanceof Ref r0 && r0.kind().equals("const")) {
            boolean same = true;
            for (Object v : values) {
                Ref r = (Ref) v;
                same &= r.kind().equals("const") && sameTensor(r.constant(), r0.constant());
            }
            if (!same) {
                SymbolicInt n = arangeLength(values, symbols, base, varied);
                Fill fill = n == null ? fill(values, symbols, base, varied) : null;
                if (fill != null) {
                    fills.put(path, fill);
                    return;
                }
                if (n == null) {
                    throw new OnnxExportException("op '" + describe(call) + "' read a constant of shape "
                            + Arrays.toString(r0.constant().shape()) + " that changes with the size of " + symbols
                            + ": it was computed with plain tensor ops, outside the recording; compute it from the input"
                            + " with variable ops (or a narrow of a buffer) so the graph can follow" + at(call));
                }
                ranges.put(path, n);
            }
            return;
        }
        for (Object v : values) {
            if (!java.util.Objects.equals(v, v0) && !(v instanceof Double d && v0 instanceof Double d0 && d.equals(d0))) {
                throw new OnnxExportException("op '" + describe(call) + "' was given " + v0 + " and " + v
                        + " at different sizes of " + symbols + ": a setting that follows a size cannot be exported" + at(call));
            }
        }
    }

    /**
     * The dims of each op's outputs whose size changes between the runs (what a mapping may not take as fixed: a squeeze,
     * a count of elements); an output whose rank changes makes the structure depend on the size.
     */
    private static Map<String, boolean[]> dynamicDims(List<Run> runs, List<String> symbols, long[] base, long[] varied) {
        Map<String, boolean[]> out = new LinkedHashMap<>();
        List<Trace.Call> calls = runs.get(0).calls();
        for (int j = 0; j < calls.size(); j++) {
            for (int o = 0; o < calls.get(j).outputs().length; o++) {
                int[] s0 = calls.get(j).outputs()[o].shape();
                boolean[] dyn = new boolean[s0.length];
                boolean any = false;
                for (int k = 1; k < runs.size(); k++) {
                    int[] sk = runs.get(k).calls().get(j).outputs()[o].shape();
                    if (sk.length != s0.length) {
                        throw new OnnxExportException("op '" + describe(calls.get(j)) + "' gives " + s0.length + " dims with '"
                                + symbols.get(k - 1) + "' at " + base[k - 1] + " and " + sk.length + " at " + varied[k - 1]
                                + " (a squeeze of a dim that is 1 at one size?): that axis cannot be dynamic" + at(calls.get(j)));
                    }
                    for (int d = 0; d < s0.length; d++) {
                        if (sk[d] != s0[d]) {
                            dyn[d] = true;
                            any = true;
                        }
                    }
                }
                if (any) {
                    out.put(j + "/" + o, dyn);
                }
            }
        }
        return out;
    }

    /** Where each run's constant is {@code arange(n)} (int64, 0..n-1), n as a symbolic size; else null. */
    private static SymbolicInt arangeLength(List<Object> values, List<String> symbols, long[] base, long[] varied) {
        long[] n = new long[values.size()];
        for (int k = 0; k < n.length; k++) {
            Tensor t = ((Ref) values.get(k)).constant();
            if (t.dim() != 1 || t.dtype() != dev.jgrad.tensor.DType.INT64) {
                return null;
            }
            long[] v = t.toLongArray();
            for (int i = 0; i < v.length; i++) {
                if (v[i] != i) {
                    return null;
                }
            }
            n[k] = v.length;
        }
        return SymbolicInt.fit(n, symbols, base, varied);
    }

    /** Where each run's constant holds one value everywhere (the same in every run), that value and its shape's formulas. */
    private static Fill fill(List<Object> values, List<String> symbols, long[] base, long[] varied) {
        Tensor t0 = ((Ref) values.get(0)).constant();
        if (t0.numel() == 0) {
            return null;
        }
        double v0 = t0.toDoubleArray()[0];
        for (Object o : values) {
            Tensor t = ((Ref) o).constant();
            if (t.dim() != t0.dim() || t.dtype() != t0.dtype()) {
                return null;
            }
            for (double d : t.toDoubleArray()) {
                if (Double.compare(d, v0) != 0) {
                    return null;
                }
            }
        }
        List<SymbolicInt> dims = new ArrayList<>();
        for (int d = 0; d < t0.dim(); d++) {
            long[] sizes = new long[values.size()];
            for (int k = 0; k < sizes.length; k++) {
                sizes[k] = ((Ref) values.get(k)).constant().size(d);
            }
            SymbolicInt s = SymbolicInt.fit(sizes, symbols, base, varied);
            if (s == null) {
                return null;
            }
            dims.add(s);
        }
        return new Fill(v0, t0.dtype(), dims);
    }

    private static boolean sameTensor(Tensor a, Tensor b) {
        return a == b || (Arrays.equals(a.shape(), b.shape()) && a.dtype() == b.dtype()
                && Arrays.equals(a.toDoubleArray(), b.toDoubleArray()));
    }

    private static OnnxExportException structure(String sym, long base, long varied, Trace.Call a, Trace.Call b) {
        return new OnnxExportException("the forward ran '" + describe(a) + "' with '" + sym + "' at " + base + " where it ran '"
                + describe(b) + "' at " + varied + ": its structure depends on that size, so that axis cannot be dynamic" + at(a));
    }

    /** An op's name as a user knows it. */
    static String describe(Trace.Call c) {
        if (c.op().equals("custom")) {
            return (String) c.args()[0];
        }
        if ((c.op().equals("unary") || c.op().equals("binary")) && c.args().length > 1) {
            Object fn = c.args()[c.op().equals("unary") ? 1 : 1];
            return fn.toString().toLowerCase(java.util.Locale.ROOT);
        }
        return c.op();
    }

    /** Where the op was called, for messages: the first frames of the model's code. */
    static String at(Trace.Call c) {
        StringBuilder b = new StringBuilder(modulePath(c));
        int shown = 0;
        for (StackTraceElement e : c.site()) {
            if (e.getClassName().equals(Traces.class.getName())) {
                break;
            }
            if (e.getClassName().startsWith("java.") || e.getClassName().startsWith("jdk.")) {
                continue;
            }
            b.append(shown == 0 ? "\n  called at " : " <- ").append(simpleName(e.getClassName()))
                    .append('.').append(e.getMethodName()).append(':').append(e.getLineNumber());
            if (++shown == 3) {
                break;
            }
        }
        return b.toString();
    }

    /** The module the op ran in: the innermost frame in a class of the model's modules, with that module's path. */
    private static String modulePath(Trace.Call c) {
        Module root = EXPORTING.get();
        if (root == null) {
            return "";
        }
        Map<String, Module> all = new LinkedHashMap<>();
        collect(root, "", all);
        for (StackTraceElement e : c.site()) {
            List<String> paths = new ArrayList<>();
            for (Map.Entry<String, Module> m : all.entrySet()) {
                if (m.getValue().getClass().getName().equals(e.getClassName())) {
                    paths.add(m.getKey().isEmpty() ? "(the model)" : m.getKey());
                }
            }
            if (!paths.isEmpty()) {
                String kind = simpleName(e.getClassName());
                String where = paths.size() <= 3 ? String.join(", ", paths) : paths.get(0) + ", ... (" + paths.size() + " of them)";
                return "\n  in module " + where + " (" + kind + ")";
            }
        }
        return "";
    }

    private static void collect(Module m, String path, Map<String, Module> out) {
        out.put(path, m);
        for (Map.Entry<String, Module> e : m.children().entrySet()) {
            collect(e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey(), out);
        }
    }

    /** A class's name without its package or enclosing class. */
    private static String simpleName(String className) {
        String s = className.substring(className.lastIndexOf('.') + 1);
        return s.substring(s.lastIndexOf('$') + 1);
    }
}
