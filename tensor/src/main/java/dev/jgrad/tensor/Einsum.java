package dev.jgrad.tensor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code torch.einsum}, written once over {@link ArrayOps} so it runs on tensors and, unchanged, on
 * differentiable values (its gradient then comes from the primitives it is made of).
 *
 * <p>Each operand first takes the diagonal of repeated subscripts ({@code ii}) and sums away the
 * subscripts no one else needs; then operands are contracted left to right with one batched matmul
 * each (shared subscripts still needed later are batch dims, the others are summed by the product);
 * a final permute puts the output subscripts in order. {@code ...} stands for the same broadcast
 * dims in every operand, aligned from the right.
 */
public final class Einsum {
    private static final int ELLIPSIS_BASE = 1000;

    private Einsum() {
    }

    /** {@code torch.einsum(equation, operands)}. */
    public static Tensor einsum(String equation, List<Tensor> operands) {
        return run(equation, operands);
    }

    /** einsum over any implementation of the shared operations. */
    public static <T extends ArrayOps<T>> T run(String equation, List<T> operands) {
        String eq = equation.replace(" ", "");
        int arrow = eq.indexOf("->");
        String lhs = arrow >= 0 ? eq.substring(0, arrow) : eq;
        String[] terms = lhs.split(",", -1);
        if (terms.length != operands.size()) {
            throw new ShapeException("einsum(): more operands were provided than specified in the equation"
                    .replace("more", terms.length < operands.size() ? "more" : "fewer")
                    + " (equation '" + equation + "' has " + terms.length + " operand terms, got " + operands.size() + " operands)");
        }
        // Labels of every operand, with ... expanded into codes counted from the right.
        List<List<Integer>> labels = new ArrayList<>();
        int maxEllipsis = 0;
        for (int i = 0; i < terms.length; i++) {
            List<Integer> l = parseTerm(terms[i], operands.get(i).dim(), i, equation);
            labels.add(l);
            for (int c : l) {
                if (c >= ELLIPSIS_BASE) {
                    maxEllipsis = Math.max(maxEllipsis, c - ELLIPSIS_BASE + 1);
                }
            }
        }
        List<Integer> output = new ArrayList<>();
        if (arrow >= 0) {
            String rhs = eq.substring(arrow + 2);
            for (int i = 0; i < rhs.length(); i++) {
                char ch = rhs.charAt(i);
                if (ch == '.') {
                    if (!rhs.startsWith("...", i)) {
                        throw new ShapeException("einsum(): found '.' for output but it is not part of any ellipsis ('...')");
                    }
                    for (int e = maxEllipsis - 1; e >= 0; e--) {
                        output.add(ELLIPSIS_BASE + e);
                    }
                    i += 2;
                } else {
                    checkLetter(ch, equation);
                    if (output.contains((int) ch)) {
                        throw new ShapeException("einsum(): output subscript " + ch + " appears more than once in the output");
                    }
                    boolean present = false;
                    for (List<Integer> l : labels) {
                        present |= l.contains((int) ch);
                    }
                    if (!present) {
                        throw new ShapeException("einsum(): output subscript " + ch + " does not appear in the equation for any input operand");
                    }
                    output.add((int) ch);
                }
            }
        } else {
            for (int e = maxEllipsis - 1; e >= 0; e--) {
                output.add(ELLIPSIS_BASE + e);
            }
            Map<Integer, Integer> counts = new HashMap<>();
            for (List<Integer> l : labels) {
                for (int c : l) {
                    counts.merge(c, 1, Integer::sum);
                }
            }
            counts.keySet().stream().filter(c -> c < ELLIPSIS_BASE && counts.get(c) == 1).sorted().forEach(output::add);
        }
        // Sizes: every subscript has one size, or 1 where it broadcasts.
        Map<Integer, Integer> sizes = new HashMap<>();
        for (int i = 0; i < operands.size(); i++) {
            int[] shape = operands.get(i).shape();
            List<Integer> l = labels.get(i);
            for (int d = 0; d < shape.length; d++) {
                int c = l.get(d);
                Integer seen = sizes.get(c);
                if (seen == null || seen == 1) {
                    sizes.put(c, shape[d]);
                } else if (shape[d] != seen && shape[d] != 1) {
                    String name = c >= ELLIPSIS_BASE ? "..." : String.valueOf((char) c);
                    throw new ShapeException("einsum(): subscript " + name + " has size " + shape[d] + " for operand " + i
                            + " which does not broadcast with previously seen size " + seen
                            + "\n  equation '" + equation + "', operand shapes " + shapes(operands));
                }
            }
        }
        // Per operand: diagonals of repeated subscripts, then sum subscripts used nowhere else.
        List<T> ops = new ArrayList<>();
        List<List<Integer>> opLabels = new ArrayList<>();
        for (int i = 0; i < operands.size(); i++) {
            T t = operands.get(i);
            List<Integer> l = new ArrayList<>(labels.get(i));
            boolean repeated = true;
            while (repeated) {
                repeated = false;
                for (int a = 0; a < l.size() && !repeated; a++) {
                    for (int b = a + 1; b < l.size() && !repeated; b++) {
                        if (l.get(a).equals(l.get(b))) {
                            int c = l.get(a);
                            t = t.diagonal(0, a, b);
                            l.remove(b);
                            l.remove(a);
                            l.add(c);
                            repeated = true;
                        }
                    }
                }
            }
            ops.add(t);
            opLabels.add(l);
        }
        for (int i = 0; i < ops.size(); i++) {
            List<Integer> l = opLabels.get(i);
            List<Integer> drop = new ArrayList<>();
            for (int d = 0; d < l.size(); d++) {
                int c = l.get(d);
                if (!output.contains(c) && !usedElsewhere(opLabels, i, c)) {
                    drop.add(d);
                }
            }
            if (!drop.isEmpty()) {
                ops.set(i, ops.get(i).sum(toArray(drop), false));
                for (int k = drop.size() - 1; k >= 0; k--) {
                    l.remove((int) drop.get(k));
                }
            }
        }
        T result = ops.get(0);
        List<Integer> resLabels = opLabels.get(0);
        for (int i = 1; i < ops.size(); i++) {
            Set<Integer> later = new LinkedHashSet<>(output);
            for (int j = i + 1; j < ops.size(); j++) {
                later.addAll(opLabels.get(j));
            }
            Labelled<T> c = contract(result, resLabels, ops.get(i), opLabels.get(i), later, sizes);
            result = c.value();
            resLabels = c.labels();
        }
        // Sum what is left over, then order as the output asks.
        List<Integer> drop = new ArrayList<>();
        for (int d = 0; d < resLabels.size(); d++) {
            if (!output.contains(resLabels.get(d))) {
                drop.add(d);
            }
        }
        if (!drop.isEmpty()) {
            result = result.sum(toArray(drop), false);
            List<Integer> kept = new ArrayList<>();
            for (int d = 0; d < resLabels.size(); d++) {
                if (!drop.contains(d)) {
                    kept.add(resLabels.get(d));
                }
            }
            resLabels = kept;
        }
        int[] perm = new int[output.size()];
        int[] target = new int[output.size()];
        for (int k = 0; k < output.size(); k++) {
            perm[k] = resLabels.indexOf(output.get(k));
            target[k] = sizes.get(output.get(k));
        }
        result = result.permute(perm);
        boolean stretch = false;
        int[] rs = result.shape();
        for (int k = 0; k < rs.length; k++) {
            stretch |= rs[k] != target[k];
        }
        return stretch ? result.expand(target) : result;
    }

    /** An intermediate result and the subscript of each of its dims. */
    private record Labelled<T>(T value, List<Integer> labels) {
    }

    /** Contracts two operands with one batched matmul: [batch, left, shared] @ [batch, shared, right]. */
    private static <T extends ArrayOps<T>> Labelled<T> contract(T x, List<Integer> lx, T y, List<Integer> ly,
                                                                     Set<Integer> later, Map<Integer, Integer> sizes) {
        List<Integer> batch = new ArrayList<>();
        List<Integer> left = new ArrayList<>();
        List<Integer> sum = new ArrayList<>();
        List<Integer> right = new ArrayList<>();
        for (int c : lx) {
            if (ly.contains(c)) {
                (later.contains(c) ? batch : sum).add(c);
            } else {
                left.add(c);
            }
        }
        for (int c : ly) {
            if (!lx.contains(c)) {
                right.add(c);
            }
        }
        T a = arrange(x, lx, batch, left, sum, sizes);
        T b = arrange(y, ly, batch, sum, right, sizes);
        int bn = prod(batch, sizes);
        int m = prod(left, sizes);
        int k = prod(sum, sizes);
        int n = prod(right, sizes);
        T r = a.reshape(bn, m, k).matmul(b.reshape(bn, k, n));
        int[] shape = new int[batch.size() + left.size() + right.size()];
        int i = 0;
        List<Integer> labels = new ArrayList<>();
        for (List<Integer> group : List.of(batch, left, right)) {
            for (int c : group) {
                shape[i++] = sizes.get(c);
                labels.add(c);
            }
        }
        return new Labelled<>(r.reshape(shape), labels);
    }

    /** Permutes t to the order g1 + g2 + g3 and expands broadcast (size-1) subscripts to their full size. */
    private static <T extends ArrayOps<T>> T arrange(T t, List<Integer> l, List<Integer> g1, List<Integer> g2,
                                                     List<Integer> g3, Map<Integer, Integer> sizes) {
        List<Integer> order = new ArrayList<>(g1);
        order.addAll(g2);
        order.addAll(g3);
        int[] perm = new int[order.size()];
        int[] full = new int[order.size()];
        for (int i = 0; i < perm.length; i++) {
            perm[i] = l.indexOf(order.get(i));
            full[i] = sizes.get(order.get(i));
        }
        T p = t.permute(perm);
        return java.util.Arrays.equals(p.shape(), full) ? p : p.expand(full);
    }

    private static int prod(List<Integer> labels, Map<Integer, Integer> sizes) {
        int p = 1;
        for (int c : labels) {
            p *= sizes.get(c);
        }
        return p;
    }

    private static boolean usedElsewhere(List<List<Integer>> labels, int self, int c) {
        for (int j = 0; j < labels.size(); j++) {
            if (j != self && labels.get(j).contains(c)) {
                return true;
            }
        }
        return false;
    }

    private static int[] toArray(List<Integer> l) {
        int[] r = new int[l.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = l.get(i);
        }
        return r;
    }

    private static List<Integer> parseTerm(String term, int ndim, int operand, String equation) {
        List<Integer> letters = new ArrayList<>();
        int ellipsisAt = -1;
        for (int i = 0; i < term.length(); i++) {
            char ch = term.charAt(i);
            if (ch == '.') {
                if (!term.startsWith("...", i) || ellipsisAt >= 0) {
                    throw new ShapeException("einsum(): found '.' for operand " + operand + " that is not part of any ellipsis ('...')");
                }
                ellipsisAt = letters.size();
                i += 2;
            } else {
                checkLetter(ch, equation);
                letters.add((int) ch);
            }
        }
        int ell = ndim - letters.size();
        if (ellipsisAt < 0 && ell != 0 || ell < 0) {
            throw new ShapeException("einsum(): the number of subscripts in the equation (" + letters.size()
                    + ") does not match the number of dimensions (" + ndim + ") for operand " + operand
                    + (ellipsisAt < 0 ? " and no ellipsis was given" : ""));
        }
        List<Integer> out = new ArrayList<>(letters.subList(0, Math.max(ellipsisAt, 0)));
        if (ellipsisAt >= 0) {
            for (int e = ell - 1; e >= 0; e--) {
                out.add(ELLIPSIS_BASE + e);
            }
            out.addAll(letters.subList(ellipsisAt, letters.size()));
        } else {
            out = letters;
        }
        return out;
    }

    private static void checkLetter(char ch, String equation) {
        if (!(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z')) {
            throw new ShapeException("einsum(): invalid subscript given at index of '" + ch + "' in the equation string '" + equation
                    + "', subscripts must be in [a-zA-Z]");
        }
    }

    private static <T extends ArrayOps<T>> String shapes(List<T> operands) {
        StringBuilder sb = new StringBuilder();
        for (T t : operands) {
            sb.append(sb.length() == 0 ? "" : ", ").append(Shape.str(t.shape()));
        }
        return sb.toString();
    }
}
