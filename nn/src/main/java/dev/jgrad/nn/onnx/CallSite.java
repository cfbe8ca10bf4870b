package dev.jgrad.nn.onnx;

import dev.jgrad.autograd.Trace;
import dev.jgrad.nn.Module;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Where a recorded op came from, for the export's messages: its name as a user knows it, its module and its call site. */
final class CallSite {
    /** The model being exported on this thread, for naming the module an op was recorded in. */
    static final ThreadLocal<Module> EXPORTING = new ThreadLocal<>();

    private CallSite() {
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
