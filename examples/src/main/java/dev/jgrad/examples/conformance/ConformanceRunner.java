package dev.jgrad.examples.conformance;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a corpus in the {@code jgrad-oracle/1} format through jgrad's API and produces a
 * {@code jgrad-results/1} document. It reads each case's inputs, steps, backward and report, never its
 * expected values, so it works on a corpus handed out without answers. One case failing never stops
 * the others: an op's own exception becomes {@code status: error} with its kind and jgrad's message, an
 * op jgrad lacks makes the case {@code unsupported}.
 */
public final class ConformanceRunner {
    private final Map<String, CoreOps.Handler> ops = new HashMap<>();

    public ConformanceRunner() {
        ops.putAll(CoreOps.table());
        ops.putAll(NnOps.table());
        ops.putAll(LayerOps.table());
    }

    /** Counts of results by status. */
    public record Summary(int ok, int error, int unsupported) {
        public int total() {
            return ok + error + unsupported;
        }

        @Override
        public String toString() {
            return total() + " cases: " + ok + " ok, " + error + " error, " + unsupported + " unsupported";
        }
    }

    /** Runs every case of a parsed corpus; returns the results document. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> run(Map<String, Object> corpus) {
        Object cases = corpus.get("cases");
        if (!(cases instanceof List)) {
            throw new IllegalArgumentException("not a jgrad-oracle corpus: no \"cases\" list");
        }
        List<Object> results = new ArrayList<>();
        int i = 0;
        for (Object c : (List<Object>) cases) {
            if (c instanceof Map && ((Map<String, Object>) c).get("id") instanceof String) {
                results.add(runCase((Map<String, Object>) c));
            } else {
                Map<String, Object> bad = new LinkedHashMap<>();
                bad.put("id", "#" + i);
                bad.put("status", "error");
                bad.put("kind", "malformed");
                bad.put("message", c instanceof Map ? "case " + i + " has no \"id\" string" : "case " + i + " is " + jsonType(c) + ", not an object");
                results.add(bad);
            }
            i++;
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("format", "jgrad-results/1");
        doc.put("results", results);
        return doc;
    }

    private static String jsonType(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof String) {
            return "a string";
        }
        if (v instanceof Number) {
            return "a number";
        }
        if (v instanceof Boolean) {
            return "a boolean";
        }
        return v instanceof List ? "a list" : "an object";
    }

    @SuppressWarnings("unchecked")
    public static Summary summarize(Map<String, Object> results) {
        int ok = 0;
        int error = 0;
        int unsupported = 0;
        for (Object o : (List<Object>) results.get("results")) {
            String status = String.valueOf(((Map<String, Object>) o).get("status"));
            if ("ok".equals(status)) {
                ok++;
            } else if ("error".equals(status)) {
                error++;
            } else {
                unsupported++;
            }
        }
        return new Summary(ok, error, unsupported);
    }

    /**
     * Runs one case; never throws. A malformed case (a field of the wrong type) or one too large for the
     * heap is an error result of its own, and the run goes on with the next.
     */
    @SuppressWarnings("unchecked")
    public Map<String, Object> runCase(Map<String, Object> c) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("id", c.get("id"));
        Object where = "inputs";
        try {
            List<Map<String, Object>> steps = (List<Map<String, Object>>) c.getOrDefault("steps", List.of());
            for (Map<String, Object> st : steps) {
                if (!ops.containsKey(String.valueOf(st.get("op")))) {
                    result.put("status", "unsupported");
                    result.put("message", "op '" + st.get("op") + "' is not implemented");
                    return result;
                }
            }
            Map<String, Variable> env = new HashMap<>();
            Map<String, Variable> inputs = new HashMap<>();
            Map<String, Object> in = (Map<String, Object>) c.getOrDefault("inputs", Map.of());
            for (Map.Entry<String, Object> e : in.entrySet()) {
                Map<String, Object> spec = (Map<String, Object>) e.getValue();
                Tensor t = Values.read(spec);
                Variable v = Variable.of(t, Boolean.TRUE.equals(spec.get("requires_grad")));
                env.put(e.getKey(), v);
                inputs.put(e.getKey(), v);
            }
            for (int k = 0; k < steps.size(); k++) {
                where = k;
                Map<String, Object> raw = steps.get(k);
                Step s = new Step(raw, env);
                Object out;
                if (Boolean.TRUE.equals(raw.get("no_grad"))) {
                    try (NoGrad g = NoGrad.enter()) {
                        out = ops.get(s.op).run(s);
                    }
                } else {
                    out = ops.get(s.op).run(s);
                }
                bind(raw, out, env);
            }
            Map<String, Object> backward = (Map<String, Object>) c.get("backward");
            if (backward != null) {
                where = "backward";
                Variable root = env.get(String.valueOf(backward.get("root")));
                if (root == null) {
                    throw new IllegalArgumentException("backward root '" + backward.get("root") + "' is not bound");
                }
                Object g = backward.get("grad");
                if (g == null) {
                    root.backward();
                } else {
                    root.backward(Values.read((Map<String, Object>) g));
                }
            }
            where = "report";
            Map<String, Object> values = new LinkedHashMap<>();
            for (Object name : (List<Object>) c.getOrDefault("report", List.of())) {
                String n = String.valueOf(name);
                values.put(n, Values.write(report(n, env, inputs)));
            }
            result.put("status", "ok");
            result.put("values", values);
        } catch (UnsupportedOpException e) {
            result.put("status", "unsupported");
            result.put("message", e.getMessage());
        } catch (ClassCastException e) {
            result.clear();
            result.put("id", String.valueOf(c.get("id")));
            result.put("status", "error");
            result.put("kind", "malformed");
            result.put("message", "the case does not follow jgrad-oracle/1 (a field has the wrong type) at " + where);
            result.put("step", where);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            result.put("status", "error");
            result.put("kind", e instanceof OutOfMemoryError ? "memory" : ErrorKind.of(e).pyName());
            result.put("message", e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
            result.put("step", where);
        }
        return result;
    }

    @SuppressWarnings("unchecked")
    private static void bind(Map<String, Object> raw, Object out, Map<String, Variable> env) {
        if (raw.get("outs") != null) {
            List<Object> names = (List<Object>) raw.get("outs");
            List<Variable> values = (List<Variable>) out;
            if (values.size() != names.size()) {
                throw new IllegalArgumentException(raw.get("op") + " returned " + values.size() + " results, the case names "
                        + names.size());
            }
            for (int i = 0; i < names.size(); i++) {
                env.put(String.valueOf(names.get(i)), values.get(i));
            }
        } else if (raw.get("out") != null) {
            env.put(String.valueOf(raw.get("out")), (Variable) out);
        }
    }

    private static Tensor report(String name, Map<String, Variable> env, Map<String, Variable> inputs) {
        if (name.startsWith("grad:")) {
            Variable v = inputs.get(name.substring(5));
            if (v == null) {
                throw new IllegalArgumentException("report asks for " + name + " but there is no such input");
            }
            return v.grad() != null ? v.grad() : Tensor.zerosLike(v.data());
        }
        Variable v = env.get(name);
        if (v == null) {
            throw new IllegalArgumentException("report asks for '" + name + "', which no step produced");
        }
        return v.data();
    }
}
