package dev.jgrad.autograd;

import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Backward: walks the recorded graph from the root in reverse topological order, runs each node's rule,
 * sums each input's gradient down to the input's shape (the one place where broadcast dims are reduced),
 * accumulates gradients of values used more than once, and adds into the {@code grad} of leaves.
 * Unless the graph is retained, each node's saved tensors are freed as soon as its rule has run.
 */
final class Engine {
    static final String FREED_MESSAGE = "Trying to backward through the graph a second time (or directly access saved tensors"
            + " after they have already been freed). Saved intermediate values of the graph are freed when you call"
            + " backward(). Call backward(grad, true) (retain_graph) the first time if you need to backward through the"
            + " graph a second time";

    private Engine() {
    }

    static void backward(Variable root, Tensor grad, boolean retainGraph) {
        if (!root.requiresGrad()) {
            throw new AutogradException("element 0 of tensors does not require grad and does not have a grad_fn"
                    + " (the root of backward was computed without any input that requires grad, or under NoGrad)");
        }
        if (grad == null) {
            if (root.data.numel() != 1) {
                throw new AutogradException("grad can be implicitly created only for scalar outputs (the root has shape "
                        + Shape.str(root.data.shape()) + "; reduce it with sum() or mean(), or pass the gradient: backward(grad))");
            }
            grad = Tensor.onesLike(root.data);
        } else if (!Arrays.equals(grad.shape(), root.data.shape())) {
            throw new AutogradException("Mismatch in shape: grad_output[0] has a shape of " + Shape.str(grad.shape())
                    + " and output[0] has a shape of " + Shape.str(root.data.shape()) + ".");
        }
        grad = grad.to(root.data.dtype());
        if (root.gradFn == null) {
            accumulate(root, grad);
            return;
        }
        Map<Node, Integer> deps = dependencies(root.gradFn);
        Buffers buffers = new Buffers();
        buffers.add(root.gradFn, grad);
        Deque<Node> ready = new ArrayDeque<>();
        ready.push(root.gradFn);
        while (!ready.isEmpty()) {
            Node n = ready.pop();
            Tensor g = buffers.remove(n);
            Tensor[] inputGrads = null;
            if (g != null) {
                if (n.retainer != null) {
                    Variable r = n.retainer;
                    r.grad = (r.grad == null ? g.clone() : r.grad.add(g)).keep();
                }
                inputGrads = n.fn.apply(g, n);
                if (Anomaly.isEnabled()) {
                    checkBackward(n, g, inputGrads);
                }
            }
            for (int i = 0; i < n.edges.length; i++) {
                Edge e = n.edges[i];
                if (e == null) {
                    continue;
                }
                Tensor gi = inputGrads == null ? null : inputGrads[i];
                if (gi != null && n.region != null) {
                    // A view's gradient goes into its region of the input's gradient.
                    gi = gi.to(n.inputTypes[i]);
                    if (e.leaf != null) {
                        accumulateInto(e.leaf, n.region, gi);
                    } else {
                        buffers.addInto(e.node, n.region, gi, n.inputShapes[i]);
                    }
                } else if (gi != null) {
                    gi = toInput(gi, n, i);
                    if (e.leaf != null) {
                        accumulate(e.leaf, gi);
                    } else {
                        buffers.add(e.node, gi);
                    }
                }
                if (e.leaf != null) {
                    continue;
                }
                int left = deps.merge(e.node, -1, Integer::sum);
                if (left == 0) {
                    ready.push(e.node);
                }
            }
            if (!retainGraph) {
                n.release();
            }
        }
    }

    /**
     * A gradient in the output's shape, summed down to input i's shape and type: the one place where the
     * dims an input was broadcast along are reduced. A rule whose gradient is no broadcast of its input's
     * shape is a bug in that rule, and the error names it.
     */
    private static Tensor toInput(Tensor g, Node n, int i) {
        int[] shape = n.inputShapes[i];
        int[] have = g.shape();
        if (Arrays.equals(have, shape)) {
            return g.to(n.inputTypes[i]);
        }
        if (!Shape.broadcastsTo(shape, have)) {
            throw new AutogradException("the backward of '" + n.name() + "' returned a gradient of shape " + Shape.str(have)
                    + " for its input " + i + " of shape " + Shape.str(shape) + ", which it cannot be summed down to\n"
                    + Shape.aligned(new String[] {"gradient", "input"}, new int[][] {have, shape}, -1));
        }
        return g.sumTo(shape).to(n.inputTypes[i]);
    }

    /** How many edges from nodes of this graph point at each node. */
    private static Map<Node, Integer> dependencies(Node root) {
        Map<Node, Integer> deps = new IdentityHashMap<>();
        deps.put(root, 0);
        Deque<Node> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            Node n = stack.pop();
            for (Edge e : n.edges) {
                if (e == null || e.node == null) {
                    continue;
                }
                Integer d = deps.get(e.node);
                if (d == null) {
                    deps.put(e.node, 1);
                    stack.push(e.node);
                } else {
                    deps.put(e.node, d + 1);
                }
            }
        }
        return deps;
    }

    /**
     * The gradients waiting for each node, summed as they arrive. A gradient that arrives first is kept
     * as it is (a backward rule may have passed on a tensor that is also used elsewhere), so it is never
     * written to; a sum the engine made is its own, and later gradients are added into it in place.
     */
    private static final class Buffers {
        private final Map<Node, Tensor> waiting = new IdentityHashMap<>();
        private final Set<Node> owned = Collections.newSetFromMap(new IdentityHashMap<>());

        void add(Node m, Tensor g) {
            Tensor cur = waiting.get(m);
            if (cur == null) {
                waiting.put(m, g);
            } else if (owned.contains(m)) {
                cur.addi(g);
            } else {
                waiting.put(m, cur.add(g));
                owned.add(m);
            }
        }

        /** Adds {@code g} into {@code region} of m's gradient, of shape {@code shape}, made here if need be. */
        void addInto(Node m, Node.Region region, Tensor g, int[] shape) {
            Tensor cur = waiting.get(m);
            if (cur == null) {
                cur = Tensor.zeros(g.dtype(), shape);
            } else if (!owned.contains(m)) {
                cur = cur.clone();
            }
            waiting.put(m, cur);
            owned.add(m);
            region.of(cur).addi(g);
        }

        Tensor remove(Node m) {
            owned.remove(m);
            return waiting.remove(m);
        }
    }

    /** A view's gradient added into its region of a leaf's grad (made, zero, where there is none). */
    static void accumulateInto(Variable leaf, Node.Region region, Tensor g) {
        if (leaf.grad == null) {
            leaf.grad = Tensor.zeros(g.dtype(), leaf.data.shape()).keep();
        }
        region.of(leaf.grad).addi(g);
    }

    /** Leaves add into their grad, in place where one exists (so buffers are reused across steps). */
    static void accumulate(Variable leaf, Tensor g) {
        if (leaf.grad == null) {
            leaf.grad = g.clone().keep();
        } else {
            leaf.grad.addi(g);
        }
    }

    private static void checkBackward(Node n, Tensor g, Tensor[] inputGrads) {
        if (g.isFloatingPoint() && !g.allFinite()) {
            return;
        }
        for (int i = 0; i < inputGrads.length; i++) {
            Tensor gi = inputGrads[i];
            if (gi == null || !gi.isFloatingPoint() || gi.allFinite()) {
                continue;
            }
            throw new AnomalyException(n.name(), false, "anomaly in backward: the gradient of '" + n.name() + "' with respect to its input "
                    + i + " (shape " + Shape.str(n.inputShapes[i]) + ") has " + Anomaly.describe(gi)
                    + ", from a finite incoming gradient of shape " + Shape.str(g.shape()) + "\n"
                    + "  '" + n.name() + "' was recorded at " + (n.site == null ? "<unknown: enable anomaly mode before the forward pass>" : n.site));
        }
    }
}
