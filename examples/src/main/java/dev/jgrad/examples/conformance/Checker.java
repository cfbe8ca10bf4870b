package dev.jgrad.examples.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Compares a results document with the expected values of a corpus, by the rules of the corpus's
 * {@code check.py}: shapes equal, bool and int64 exact, floats within {@code atol + rtol * |expected|}
 * (NaN must be NaN, an infinity the same infinity), an expected error matched by its kind.
 */
public final class Checker {
    /** The nn-level ops that {@code --forward-only} and {@code --no-nn} leave out, as in check.py. */
    public static final Set<String> NN_OPS = Set.of("mse_loss", "l1_loss", "cross_entropy", "nll_loss", "bce_with_logits",
            "layer_norm", "embedding", "attention", "multi_head_attention", "sgd", "adam", "adamw");

    /** Which cases and values to judge. */
    public enum Mode { ALL, NO_NN, FORWARD_ONLY }

    /** Passed and failed counts per family, and the failures with their reasons. */
    public record Report(Map<String, int[]> families, List<String> failures) {
        public int passed() {
            return families.values().stream().mapToInt(f -> f[0]).sum();
        }

        public int failed() {
            return failures.size();
        }

        /** check.py's output: a line per family, the failures, and "N passed, M failed". */
        public String render(int maxFailures) {
            StringBuilder sb = new StringBuilder();
            for (Map.Entry<String, int[]> e : families.entrySet()) {
                int[] f = e.getValue();
                sb.append(String.format("%-20s %4d/%d%n", e.getKey(), f[0], f[0] + f[1]));
            }
            for (int i = 0; i < Math.min(maxFailures, failures.size()); i++) {
                sb.append("FAIL ").append(failures.get(i)).append('\n');
            }
            if (failures.size() > maxFailures) {
                sb.append("... and ").append(failures.size() - maxFailures).append(" more failures\n");
            }
            return sb.append(passed()).append(" passed, ").append(failed()).append(" failed").toString();
        }
    }

    private Checker() {
    }

    /**
     * Judges {@code results} against {@code corpus}. A case or result that is not shaped as the format says (not an object,
     * no id, a field of the wrong kind) is a failure that names it, never an exception: a corpus is input.
     */
    @SuppressWarnings("unchecked")
    public static Report check(Map<String, Object> corpus, Map<String, Object> results, Mode mode) {
        Map<String, Map<String, Object>> byId = new LinkedHashMap<>();
        Object resultList = results.get("results");
        if (resultList instanceof List) {
            for (Object o : (List<Object>) resultList) {
                if (o instanceof Map) {
                    byId.put(String.valueOf(((Map<String, Object>) o).get("id")), (Map<String, Object>) o);
                }
            }
        }
        Map<String, int[]> families = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        Object caseList = corpus.get("cases");
        List<Object> cases = caseList instanceof List ? (List<Object>) caseList : List.of();
        for (int i = 0; i < cases.size(); i++) {
            Object o = cases.get(i);
            if (!(o instanceof Map) || !(((Map<String, Object>) o).get("id") instanceof String)) {
                families.computeIfAbsent(MALFORMED, k -> new int[2])[1]++;
                failures.add("cases[" + i + "]: not a case (an object with a string id), but " + describe(o));
                continue;
            }
            Map<String, Object> c = (Map<String, Object>) o;
            String id = (String) c.get("id");
            String why;
            try {
                why = judge(c, byId.get(id), mode);
            } catch (ClassCastException | NullPointerException | IllegalArgumentException | IndexOutOfBoundsException e) {
                why = "malformed case or result (" + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")";
            }
            if (why == SKIPPED) {
                continue;
            }
            String family = id.split("\\.")[0];
            int[] f = families.computeIfAbsent(family, k -> new int[2]);
            f[why == null ? 0 : 1]++;
            if (why != null) {
                failures.add(id + ": " + why);
            }
        }
        return new Report(families, failures);
    }

    /** The family under which cases that are not cases at all are counted. */
    static final String MALFORMED = "(malformed)";
    /** What {@link #judge} returns for a case the mode leaves out. */
    private static final String SKIPPED = new String("skipped");

    /** Why the case failed, null when it passed, {@link #SKIPPED} when the mode leaves it out. */
    @SuppressWarnings("unchecked")
    private static String judge(Map<String, Object> c, Map<String, Object> result, Mode mode) {
        Map<String, Object> answer = c;
        boolean nn = ((List<Object>) c.getOrDefault("steps", List.of())).stream()
                .anyMatch(st -> NN_OPS.contains(String.valueOf(((Map<String, Object>) st).get("op"))));
        if (mode != Mode.ALL && nn) {
            return SKIPPED;
        }
        if (mode == Mode.FORWARD_ONLY) {
            answer = forwardOnly(c);
            if (answer == null) {
                return SKIPPED;
            }
        }
        return checkCase(c, result, answer);
    }

    private static String describe(Object o) {
        String s = o == null ? "null" : o instanceof Map ? "an object without a string id" : o instanceof List ? "a list" : "'" + o + "'";
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> forwardOnly(Map<String, Object> c) {
        Map<String, Object> err = (Map<String, Object>) c.get("expect_error");
        if (err != null) {
            return "backward".equals(String.valueOf(err.get("step"))) || "autograd".equals(err.get("kind")) ? null : c;
        }
        Map<String, Object> exp = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : ((Map<String, Object>) c.get("expect")).entrySet()) {
            if (!e.getKey().startsWith("grad:")) {
                exp.put(e.getKey(), e.getValue());
            }
        }
        if (exp.isEmpty()) {
            return null;
        }
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("id", c.get("id"));
        a.put("expect", exp);
        return a;
    }

    @SuppressWarnings("unchecked")
    static String checkCase(Map<String, Object> c, Map<String, Object> res, Map<String, Object> answer) {
        if (res == null) {
            return "no result";
        }
        Object status = res.get("status");
        Map<String, Object> want = (Map<String, Object>) answer.get("expect_error");
        if (want != null) {
            if (!"error".equals(status)) {
                return "expected a " + want.get("kind") + " error (" + want.get("message") + "), got status " + status;
            }
            if (!want.get("kind").equals(res.get("kind"))) {
                return "error kind " + res.get("kind") + " != " + want.get("kind") + ": " + res.get("message");
            }
            Object msg = res.get("message");
            return msg == null || String.valueOf(msg).isEmpty() ? "error without a message" : null;
        }
        if (!"ok".equals(status)) {
            return "status " + status + ": " + res.get("message");
        }
        Map<String, Object> values = (Map<String, Object>) res.getOrDefault("values", Map.of());
        Map<String, Object> tol = (Map<String, Object>) c.getOrDefault("tol", Map.of());
        Object expect = answer.get("expect");
        if (!(expect instanceof Map)) {
            return "the case has neither expect nor expect_error";
        }
        for (Map.Entry<String, Object> e : ((Map<String, Object>) expect).entrySet()) {
            String why = compare(e.getKey(), (Map<String, Object>) values.get(e.getKey()), (Map<String, Object>) e.getValue(), tol);
            if (why != null) {
                return why;
            }
        }
        return null;
    }

    private static String compare(String name, Map<String, Object> got, Map<String, Object> exp, Map<String, Object> tol) {
        if (got == null) {
            return name + ": missing";
        }
        if (!String.valueOf(got.get("shape")).equals(String.valueOf(exp.get("shape")))) {
            return name + ": shape " + got.get("shape") + " != " + exp.get("shape");
        }
        String edt = String.valueOf(exp.get("dtype"));
        String gdt = String.valueOf(got.getOrDefault("dtype", edt));
        boolean eInt = edt.equals("bool") || edt.equals("int64");
        boolean gInt = gdt.equals("bool") || gdt.equals("int64");
        if (eInt != gInt || edt.equals("bool") != gdt.equals("bool")) {
            return name + ": dtype " + gdt + " != " + edt;
        }
        List<?> gd = (List<?>) got.get("data");
        List<?> ed = (List<?>) exp.get("data");
        if (gd.size() != ed.size()) {
            return name + ": " + gd.size() + " values != " + ed.size();
        }
        double rtol = tol.containsKey("rtol") ? Values.number(tol.get("rtol")) : edt.equals("float32") ? 1e-4 : 1e-10;
        double atol = tol.containsKey("atol") ? Values.number(tol.get("atol")) : edt.equals("float32") ? 1e-5 : 1e-10;
        int bad = 0;
        int first = -1;
        for (int i = 0; i < ed.size(); i++) {
            double g = Values.number(gd.get(i));
            double e = Values.number(ed.get(i));
            boolean ok = eInt ? g == e : close(g, e, rtol, atol);
            if (!ok) {
                bad++;
                first = first < 0 ? i : first;
            }
        }
        if (bad > 0) {
            return name + ": " + bad + "/" + ed.size() + " values differ, first at " + first + ": got " + gd.get(first)
                    + " expected " + ed.get(first);
        }
        return null;
    }

    static boolean close(double g, double e, double rtol, double atol) {
        if (Double.isNaN(e)) {
            return Double.isNaN(g);
        }
        if (Double.isInfinite(e)) {
            return g == e;
        }
        if (Double.isNaN(g) || Double.isInfinite(g)) {
            return false;
        }
        return Math.abs(g - e) <= atol + rtol * Math.abs(e);
    }
}
