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
                   Map<Integer, String> unstable, Map<String, Fill> fills, Map<String, boolean[]> dynamicDims,
                   List<Map<Integer, Object>> baseRefs) {
        /** Which dims of output {@code o} of call {@code j} change size between the runs (null: none). */
        boolean[] dynamic(int j, int o) {
            return dynamicDims.get(j + "/" + o);
        }
    }

    /** A constant that is one value everywhere in every run, of a shape that follows the dynamic axes (zero states). */
    record Fill(double value, dev.jgrad.tensor.DType dtype, List<SymbolicInt> shape) {
    }


    private final Module module;
    private final Function<Variable[], Variable> forward;
    private final Map<Tensor, String> state = new IdentityHashMap<>();

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
        List<List<Map<Integer, Object>>> resolved = new ArrayList<>();
        for (Run r : runs) {
            resolved.add(resolve(r));
        }
        new RunComparison(fills).compare(runs, resolved, symbols, baseSizes, variedSizes, symbolic, ranges, unstable);
        Map<String, boolean[]> dynamicDims = RunComparison.dynamicDims(runs, symbols, baseSizes, variedSizes);
        List<int[]> shapes = new ArrayList<>();
        for (Run r : runs) {
            shapes.add(r.output().shape());
        }
        return new Program(base.calls(), base.output(), symbolic, ranges, symbols, base, shapes, baseSizes, variedSizes, unstable, fills, dynamicDims,
                resolved.get(0));
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
    private List<Map<Integer, Object>> resolve(Run run) {
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
}
