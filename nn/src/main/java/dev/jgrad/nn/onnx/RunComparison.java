package dev.jgrad.nn.onnx;

import dev.jgrad.autograd.Trace;
import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The runs of one export, compared op by op (see {@link Traces}): the same ops, and for each number an op was given, a
 * constant or a formula of the dynamic axes; a constant tensor that changes is an {@code arange} of a size, a one-value
 * fill of a shape that follows the axes, or refused.
 */
final class RunComparison {
    private final Map<String, Traces.Fill> fills;

    RunComparison(Map<String, Traces.Fill> fills) {
        this.fills = fills;
    }

    /**
     * Compares the runs op by op. A different op sequence is an error at once; an op whose numbers or constants cannot be
     * followed is put in {@code unstable} with its error, which counts only if the graph's output needs that op (a
     * layer's annotation may stand for it).
     */
    void compare(List<Traces.Run> runs, List<List<Map<Integer, Object>>> resolved, List<String> symbols, long[] base, long[] varied,
                 Map<String, SymbolicInt> symbolic, Map<String, SymbolicInt> ranges, Map<Integer, String> unstable) {
        Traces.Run r0 = runs.get(0);
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
                throw new OnnxExportException("op '" + CallSite.describe(call) + "' was given " + Arrays.toString(nums) + " at the traced sizes of "
                        + symbols + ": no whole-number formula of those sizes gives it; export with those axes fixed" + CallSite.at(call));
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
                        throw new OnnxExportException("op '" + CallSite.describe(call) + "' was given " + Arrays.toString(arr) + " and "
                                + Arrays.toString(other) + " at different sizes: a list whose length follows a size cannot be"
                                + " exported" + CallSite.at(call));
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
        if (v0 instanceof Traces.Ref r0 && r0.kind().equals("const")) {
            boolean same = true;
            for (Object v : values) {
                Traces.Ref r = (Traces.Ref) v;
                same &= r.kind().equals("const") && sameTensor(r.constant(), r0.constant());
            }
            if (!same) {
                SymbolicInt n = arangeLength(values, symbols, base, varied);
                Traces.Fill fill = n == null ? fill(values, symbols, base, varied) : null;
                if (fill != null) {
                    fills.put(path, fill);
                    return;
                }
                if (n == null) {
                    throw new OnnxExportException("op '" + CallSite.describe(call) + "' read a constant of shape "
                            + Arrays.toString(r0.constant().shape()) + " that changes with the size of " + symbols
                            + ": it was computed with plain tensor ops, outside the recording; compute it from the input"
                            + " with variable ops (or a narrow of a buffer) so the graph can follow" + CallSite.at(call));
                }
                ranges.put(path, n);
            }
            return;
        }
        for (Object v : values) {
            if (!java.util.Objects.equals(v, v0) && !(v instanceof Double d && v0 instanceof Double d0 && d.equals(d0))) {
                throw new OnnxExportException("op '" + CallSite.describe(call) + "' was given " + v0 + " and " + v
                        + " at different sizes of " + symbols + ": a setting that follows a size cannot be exported" + CallSite.at(call));
            }
        }
    }

    /**
     * The dims of each op's outputs whose size changes between the runs (what a mapping may not take as fixed: a squeeze,
     * a count of elements); an output whose rank changes makes the structure depend on the size.
     */
    static Map<String, boolean[]> dynamicDims(List<Traces.Run> runs, List<String> symbols, long[] base, long[] varied) {
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
                        throw new OnnxExportException("op '" + CallSite.describe(calls.get(j)) + "' gives " + s0.length + " dims with '"
                                + symbols.get(k - 1) + "' at " + base[k - 1] + " and " + sk.length + " at " + varied[k - 1]
                                + " (a squeeze of a dim that is 1 at one size?): that axis cannot be dynamic" + CallSite.at(calls.get(j)));
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
            Tensor t = ((Traces.Ref) values.get(k)).constant();
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
    private static Traces.Fill fill(List<Object> values, List<String> symbols, long[] base, long[] varied) {
        Tensor t0 = ((Traces.Ref) values.get(0)).constant();
        if (t0.numel() == 0) {
            return null;
        }
        double v0 = t0.toDoubleArray()[0];
        for (Object o : values) {
            Tensor t = ((Traces.Ref) o).constant();
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
                sizes[k] = ((Traces.Ref) values.get(k)).constant().size(d);
            }
            SymbolicInt s = SymbolicInt.fit(sizes, symbols, base, varied);
            if (s == null) {
                return null;
            }
            dims.add(s);
        }
        return new Traces.Fill(v0, t0.dtype(), dims);
    }

    private static boolean sameTensor(Tensor a, Tensor b) {
        return a == b || (Arrays.equals(a.shape(), b.shape()) && a.dtype() == b.dtype()
                && Arrays.equals(a.toDoubleArray(), b.toDoubleArray()));
    }

    private static OnnxExportException structure(String sym, long base, long varied, Trace.Call a, Trace.Call b) {
        return new OnnxExportException("the forward ran '" + CallSite.describe(a) + "' with '" + sym + "' at " + base + " where it ran '"
                + CallSite.describe(b) + "' at " + varied + ": its structure depends on that size, so that axis cannot be dynamic" + CallSite.at(a));
    }
}
