package dev.jgrad.autograd;

import dev.jgrad.tensor.ArrayOps;
import dev.jgrad.tensor.BinaryOp;
import dev.jgrad.tensor.UnaryOp;
import dev.jgrad.tensor.ValuesIndices;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A new op cannot be left out of the registry, and so out of the gradient checks: every public method of
 * {@link Variable} that makes a Variable is exercised by a row of {@link OpRegistry#ALL} or is listed below with the
 * reason it needs none; every differentiable elementwise op of the tables ({@link UnaryOp}, {@link BinaryOp}) is
 * recorded by some row's sample.
 */
class OpRegistryCoverageTest {
    /** Methods that make a Variable without a gradient rule of their own to check, and why. */
    private static final Map<String, String> NOT_OPS = Map.ofEntries(
            Map.entry("of", "wraps a tensor: a leaf, no rule"),
            Map.entry("constant", "wraps a tensor that requires no gradient"),
            Map.entry("scalar", "makes a 0-d leaf"),
            Map.entry("newScalar", "makes a 0-d constant of the same dtype"),
            Map.entry("detach", "cuts the history: its gradient is none by definition"),
            Map.entry("gradVariable", "reads the accumulated gradient; not an op"),
            Map.entry("requiresGrad", "sets a flag on a leaf"),
            Map.entry("retainGrad", "keeps a non-leaf's gradient; no rule"),
            Map.entry("to", "a dtype conversion; the rule casts the gradient back, checked by AutogradRulesTest"),
            Map.entry("unary", "the primitive behind every named elementwise op (each a row, and the tables' coverage below)"),
            Map.entry("binary", "the primitive behind every named binary op (each a row, and the tables' coverage below)"),
            Map.entry("inplace", "the primitive behind addi, subi, muli, divi (each a row)"),
            Map.entry("fill", "fills in place with a constant: the gradient is zero, checked by AutogradRulesTest"),
            Map.entry("zero", "fills in place with zeros, as fill"),
            Map.entry("max", "max(dim) is a row ('max dim'); max() of all elements is amax"),
            Map.entry("min", "min(dim) is a row ('min dim'); min() of all elements is amin"),
            Map.entry("self", "the surface's handle on this value, for its default methods"),
            Map.entry("eq", "a bool result: no gradient"),
            Map.entry("ne", "a bool result: no gradient"),
            Map.entry("lt", "a bool result: no gradient"),
            Map.entry("le", "a bool result: no gradient"),
            Map.entry("gt", "a bool result: no gradient"),
            Map.entry("ge", "a bool result: no gradient"),
            Map.entry("isnan", "a bool result: no gradient"),
            Map.entry("logicalAnd", "a bool result: no gradient"),
            Map.entry("logicalOr", "a bool result: no gradient"),
            Map.entry("logicalXor", "a bool result: no gradient"),
            Map.entry("logicalNot", "a bool result: no gradient"),
            Map.entry("all", "a bool result: no gradient"),
            Map.entry("any", "a bool result: no gradient"),
            Map.entry("argmax", "an int64 result: no gradient"),
            Map.entry("argmin", "an int64 result: no gradient"),
            Map.entry("argsort", "an int64 result: no gradient"),
            Map.entry("nonzero", "an int64 result: no gradient"),
            Map.entry("oneHot", "an int64 result: no gradient"));

    /** The names of Variable's public methods that return a Variable (or the surface's T, a list or values with indices). */
    private static Set<String> variableMakingMethods() {
        Set<String> names = new TreeSet<>();
        for (Method m : Variable.class.getMethods()) {
            Class<?> r = m.getReturnType();
            if (!Modifier.isPublic(m.getModifiers()) || m.isBridge() || m.isSynthetic()) {
                continue;
            }
            if (r == Variable.class || r == ArrayOps.class || r == List.class || r == ValuesIndices.class) {
                names.add(m.getName());
            }
        }
        return names;
    }

    @Test
    void everyMethodThatMakesAVariableHasARegistryRowOrAReason() {
        Set<String> covered = new HashSet<>();
        OpRegistry.ALL.forEach(op -> covered.addAll(op.methods()));
        Set<String> missing = new TreeSet<>();
        Set<String> stale = new TreeSet<>(NOT_OPS.keySet());
        for (String name : variableMakingMethods()) {
            stale.remove(name);
            if (!covered.contains(name) && !NOT_OPS.containsKey(name)) {
                missing.add(name);
            }
        }
        assertEquals(Set.of(), missing, "methods of Variable with no row in OpRegistry: add a row (or a reason to NOT_OPS)");
        assertEquals(Set.of(), stale, "NOT_OPS lists methods Variable no longer has");
        Set<String> unknown = new TreeSet<>(covered);
        unknown.removeAll(variableMakingMethods());
        assertEquals(Set.of(), unknown, "registry rows name methods Variable does not have");
    }

    @Test
    void everyDifferentiableElementwiseOpIsRecordedBySomeRow() {
        Set<String> recorded = new HashSet<>();
        for (OpInfo op : OpRegistry.ALL) {
            OpInfo.Sample sample = op.sampler().draw(new RandomShapes(7));
            Variable[] vars = new Variable[sample.inputs().length];
            for (int i = 0; i < vars.length; i++) {
                vars[i] = Variable.of(sample.inputs()[i].clone(), true);
            }
            recorded.addAll(nodeNames(sample.fn().apply(vars)));
        }
        Set<String> missing = new TreeSet<>();
        for (UnaryOp u : UnaryOp.values()) {
            if (u.differentiable() && !recorded.contains(u.pyName())) {
                missing.add(u.name());
            }
        }
        for (BinaryOp b : BinaryOp.values()) {
            if (b.differentiable() && !recorded.contains(b.pyName())) {
                missing.add(b.name());
            }
        }
        assertEquals(Set.of(), missing, "elementwise ops that no registry row records");
        assertTrue(recorded.contains("matmul") && recorded.contains("index"), "the graph walk sees the rows' nodes: " + recorded);
    }

    private static Set<String> nodeNames(Variable out) {
        Set<String> names = new HashSet<>();
        Set<Node> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        Deque<Node> todo = new ArrayDeque<>();
        if (out.gradFn != null) {
            todo.add(out.gradFn);
        }
        while (!todo.isEmpty()) {
            Node n = todo.pop();
            if (!seen.add(n)) {
                continue;
            }
            names.add(n.name());
            for (Edge e : n.edges) {
                if (e != null && e.node != null) {
                    todo.add(e.node);
                }
            }
        }
        return names;
    }
}
