package dev.jgrad.examples.conformance;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One step of a case with its arguments resolved against the values bound so far, and typed access to its attributes. */
final class Step {
    final String op;
    private final Map<String, Object> raw;
    private final List<Object> args;
    private final Map<String, Variable> env;

    Step(Map<String, Object> raw, Map<String, Variable> env) {
        this.raw = raw;
        this.env = env;
        this.op = String.valueOf(raw.get("op"));
        this.args = new ArrayList<>();
        Object a = raw.get("args");
        if (a instanceof List) {
            for (Object o : (List<?>) a) {
                args.add(resolve(o, env));
            }
        }
    }

    private static Object resolve(Object o, Map<String, Variable> env) {
        if (o instanceof String) {
            Variable v = env.get(o);
            if (v == null) {
                throw new IllegalArgumentException("unknown name '" + o + "' in args");
            }
            return v;
        }
        if (o instanceof List) {
            List<Object> r = new ArrayList<>();
            for (Object x : (List<?>) o) {
                r.add(resolve(x, env));
            }
            return r;
        }
        return o;
    }

    /** A value bound earlier, named in an attribute (index tensors, masks). */
    Variable named(String name) {
        Variable v = env.get(name);
        if (v == null) {
            throw new IllegalArgumentException(op + ": unknown name '" + name + "'");
        }
        return v;
    }

    int argc() {
        return args.size();
    }

    boolean isScalar(int i) {
        Object o = i < args.size() ? args.get(i) : null;
        return o instanceof Number || o instanceof Boolean;
    }

    boolean isAbsent(int i) {
        return i >= args.size() || args.get(i) == null;
    }

    Variable var(int i) {
        Object o = args.get(i);
        if (!(o instanceof Variable)) {
            throw new IllegalArgumentException(op + ": argument " + i + " must be a tensor, got " + o);
        }
        return (Variable) o;
    }

    Tensor tensor(int i) {
        return var(i).data();
    }

    double num(int i) {
        return Values.number(args.get(i));
    }

    @SuppressWarnings("unchecked")
    List<Variable> vars(int i) {
        List<Variable> r = new ArrayList<>();
        for (Object o : (List<Object>) args.get(i)) {
            r.add((Variable) o);
        }
        return r;
    }

    boolean has(String key) {
        return raw.containsKey(key) && raw.get(key) != null;
    }

    Object attr(String key) {
        return raw.get(key);
    }

    int integer(String key, int dflt) {
        Object o = raw.get(key);
        return o == null ? dflt : ((Number) o).intValue();
    }

    int integer(String key) {
        Object o = raw.get(key);
        if (o == null) {
            throw new IllegalArgumentException(op + ": missing attribute '" + key + "'");
        }
        return ((Number) o).intValue();
    }

    double real(String key, double dflt) {
        Object o = raw.get(key);
        return o == null ? dflt : Values.number(o);
    }

    boolean flag(String key, boolean dflt) {
        Object o = raw.get(key);
        return o == null ? dflt : (Boolean) o;
    }

    String text(String key, String dflt) {
        Object o = raw.get(key);
        return o == null ? dflt : String.valueOf(o);
    }

    /** An int or a list of ints; null where absent. */
    int[] dims(String key) {
        Object o = raw.get(key);
        if (o == null) {
            return null;
        }
        if (o instanceof Number) {
            return new int[] {((Number) o).intValue()};
        }
        return Values.ints(o);
    }

    int[] ints(String key) {
        Object o = raw.get(key);
        if (o == null) {
            throw new IllegalArgumentException(op + ": missing attribute '" + key + "'");
        }
        return Values.ints(o);
    }
}
