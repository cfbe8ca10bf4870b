package dev.jgrad.autograd;

import dev.jgrad.tensor.ArrayOps;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every public method of {@link Tensor} exists on {@link Variable}, with {@code Variable} wherever the
 * tensor's method takes or gives the tensor itself, or it is on the list below with the reason why not.
 * Methods of the shared {@link ArrayOps} surface are on both by construction; this catches a method added
 * to Tensor alone.
 */
class VariableParityTest {
    /** Tensor methods Variable does not have, by name, and why. */
    private static final Map<String, String> TENSOR_ONLY = Map.ofEntries(
            Map.entry("zeros", "creation: make a Tensor and wrap it, Variable.of(Tensor.zeros(...), true)"),
            Map.entry("thresholdBackward", "a backward kernel: autograd records it (as relu's derivative), users call relu"),
            Map.entry("leakyReluBackward", "a backward kernel: autograd records it (as leakyRelu's derivative), users call leakyRelu"),
            Map.entry("geluBackward", "a backward kernel: autograd records it (as gelu's derivative), users call gelu"),
            Map.entry("sigmoidBackward", "a backward kernel: autograd runs it (as sigmoid's derivative), users call sigmoid"),
            Map.entry("tanhBackward", "a backward kernel: autograd runs it (as tanh's derivative), users call tanh"),
            Map.entry("siluBackward", "a backward kernel: autograd runs it (as silu's derivative), users call silu"),
            Map.entry("softmaxBackward", "a backward kernel: autograd runs it (as softmax's derivative), users call softmax"),
            Map.entry("logSoftmaxBackward", "a backward kernel: autograd runs it (as log_softmax's derivative), users call logSoftmax"),
            Map.entry("ones", "creation"),
            Map.entry("full", "creation"),
            Map.entry("zerosLike", "creation"),
            Map.entry("onesLike", "creation"),
            Map.entry("fullLike", "creation"),
            Map.entry("of", "creation (Variable.of wraps a tensor instead)"),
            Map.entry("fromDoubles", "creation"),
            Map.entry("arange", "creation"),
            Map.entry("linspace", "creation"),
            Map.entry("eye", "creation"),
            Map.entry("rand", "creation"),
            Map.entry("uniform", "creation"),
            Map.entry("randn", "creation"),
            Map.entry("randint", "creation"),
            Map.entry("scalarLike", "creation; the shared surface has newScalar(value)"),
            Map.entry("keep", "memory scopes: keep the tensor, v.data().keep() (a Variable's grad is kept by autograd)"),
            Map.entry("strides", "memory layout: ask data()"),
            Map.entry("stride", "memory layout"),
            Map.entry("storageOffset", "memory layout"),
            Map.entry("storage", "memory layout"),
            Map.entry("matmulSummed", "a kernel of matmul's backward (the gradient of a broadcast operand); differentiable code writes"
                    + " a.matmul(b).sumTo(n, p)"),
            Map.entry("version", "memory layout: the in-place counter autograd checks"),
            Map.entry("sharesStorage", "memory layout"),
            Map.entry("isContiguous", "memory layout"),
            Map.entry("getDouble", "reading values: data().getDouble(...)"),
            Map.entry("getLong", "reading values"),
            Map.entry("getBool", "reading values"),
            Map.entry("toFloatArray", "reading values"),
            Map.entry("toDoubleArray", "reading values"),
            Map.entry("toLongArray", "reading values"),
            Map.entry("toBooleanArray", "reading values"),
            Map.entry("set", "an element write has no gradient rule; use indexPut"),
            Map.entry("addcmuli", "an optimizer's fused update, run on data() with recording off"),
            Map.entry("addcdivi", "an optimizer's fused update, run on data() with recording off"),
            Map.entry("indexAddi", "in-place index writes are not recorded; indexAdd is the differentiable form"),
            Map.entry("indexPuti", "in-place index writes are not recorded; indexPut is the differentiable form"),
            Map.entry("broadcastShapes", "shape arithmetic, no values"));

    @Test
    void variableHasEveryTensorMethodOrAReasonWhyNot() {
        List<Method> variableMethods = publicMethods(Variable.class);
        List<String> missing = new ArrayList<>();
        Map<String, Boolean> listedAndSeen = new TreeMap<>();
        for (Method m : publicMethods(Tensor.class)) {
            if (m.getDeclaringClass() == Object.class || m.getName().equals("toString")) {
                continue;
            }
            if (TENSOR_ONLY.containsKey(m.getName())) {
                listedAndSeen.put(m.getName(), true);
                continue;
            }
            if (variableMethods.stream().noneMatch(v -> counterpart(m, v))) {
                missing.add(describe(m));
            }
        }
        assertTrue(missing.isEmpty(), "Variable lacks these Tensor methods (add them, or list them with a reason): " + missing);
        List<String> stale = new ArrayList<>(TENSOR_ONLY.keySet());
        stale.removeAll(listedAndSeen.keySet());
        assertTrue(stale.isEmpty(), "listed as Tensor-only but Tensor has no such method: " + stale);
        for (String name : TENSOR_ONLY.keySet()) {
            boolean onVariable = variableMethods.stream().anyMatch(v -> v.getName().equals(name)
                    && !isInherited(v) && !name.equals("of"));
            assertTrue(!onVariable, name + " is listed as Tensor-only but Variable has it");
        }
    }

    @Test
    void theCheckSeesAMissingMethod() {
        Method exp = publicMethods(Tensor.class).stream().filter(m -> m.getName().equals("matmul")).findFirst().orElseThrow();
        assertTrue(publicMethods(Variable.class).stream().anyMatch(v -> counterpart(exp, v)));
        Method storage = publicMethods(Tensor.class).stream().filter(m -> m.getName().equals("getDouble")).findFirst().orElseThrow();
        assertTrue(publicMethods(Variable.class).stream().noneMatch(v -> counterpart(storage, v)));
    }

    @Test
    void sharedCompositesAreInheritedNotRewritten() {
        // Variable implements primitives only: no overload or composite of the shared surface is declared again.
        List<String> redeclared = new ArrayList<>();
        for (Method v : Variable.class.getDeclaredMethods()) {
            if (v.isBridge() || v.isSynthetic() || Modifier.isStatic(v.getModifiers())) {
                continue;
            }
            for (Method d : ArrayOps.class.getMethods()) {
                if (d.isDefault() && counterpart(d, v) && !OPTIMIZED.contains(v.getName())) {
                    redeclared.add(describe(v));
                }
            }
        }
        assertEquals(List.of(), redeclared);
    }

    /** Defaults Variable overrides to read the shape without copying it. */
    private static final List<String> OPTIMIZED = List.of("dim", "numel");

    private static boolean isInherited(Method v) {
        return v.getDeclaringClass() != Variable.class;
    }

    private static List<Method> publicMethods(Class<?> c) {
        List<Method> out = new ArrayList<>();
        for (Method m : c.getMethods()) {
            if (!m.isBridge() && !m.isSynthetic()) {
                out.add(m);
            }
        }
        return out;
    }

    /** Same name, and each parameter the same type or Variable where the tensor method takes Tensor. */
    private static boolean counterpart(Method t, Method v) {
        if (!t.getName().equals(v.getName()) || t.getParameterCount() != v.getParameterCount()
                || Modifier.isStatic(t.getModifiers()) != Modifier.isStatic(v.getModifiers())) {
            return false;
        }
        Class<?>[] tp = t.getParameterTypes();
        Class<?>[] vp = v.getParameterTypes();
        for (int i = 0; i < tp.length; i++) {
            boolean same = tp[i] == vp[i];
            boolean lifted = (tp[i] == Tensor.class || tp[i] == ArrayOps.class) && (vp[i] == Variable.class || vp[i] == ArrayOps.class)
                    || (tp[i] == Tensor[].class && vp[i] == Variable[].class);
            if (!same && !lifted) {
                return false;
            }
        }
        return true;
    }

    private static String describe(Method m) {
        StringBuilder sb = new StringBuilder(m.getName()).append('(');
        Class<?>[] p = m.getParameterTypes();
        for (int i = 0; i < p.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(p[i].getSimpleName());
        }
        return sb.append(')').toString();
    }
}
