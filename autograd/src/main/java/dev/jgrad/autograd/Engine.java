package dev.jgrad.autograd;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Memory;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Backward: walks the recorded graph from the roots in reverse topological order, runs each node's rule,
 * sums each input's gradient down to the input's shape (the one place where broadcast dims are reduced),
 * accumulates gradients of values used more than once, and either adds into the {@code grad} of leaves
 * ({@link #backward}) or returns the gradients of chosen inputs ({@link #grad}, nothing accumulated).
 * Unless the graph is retained, each node's saved values are freed as soon as its rule has run.
 *
 * <p>Rules compute with {@link Variable} ops. Without {@code createGraph} the pass runs with grad mode off,
 * so those ops record nothing and gradients are buffered and summed in place as plain tensors; with it,
 * grad mode is on, every op of the pass is recorded, and the gradients it returns have a history.
 */
final class Engine {
    static final String FREED_MESSAGE = "Trying to backward through the graph a second time (or directly access saved tensors"
            + " after they have already been freed). Saved intermediate values of the graph are freed when you call"
            + " backward() or Autograd.grad(). Pass retainGraph (or createGraph) the first time if you need to backward"
            + " through the graph a second time";

    private Engine() {
    }

    /** Backward from one root, adding into the grad of every leaf it reaches. */
    static void backward(Variable root, Variable grad, boolean retainGraph, boolean createGraph) {
        run(new Variable[] {root}, new Variable[] {grad}, null, retainGraph, createGraph, false);
    }

    /** The gradients of {@code outputs} with respect to {@code inputs}, as {@code torch.autograd.grad}. */
    static Variable[] grad(Variable[] outputs, Variable[] gradOutputs, Variable[] inputs, boolean retainGraph,
                           boolean createGraph, boolean allowUnused) {
        if (inputs.length == 0) {
            throw new IllegalArgumentException("grad requires at least one input");
        }
        return run(outputs, gradOutputs, inputs, retainGraph, createGraph, allowUnused);
    }

    private static Variable[] run(Variable[] roots, Variable[] rootGrads, Variable[] inputs, boolean retainGraph,
                                  boolean createGraph, boolean allowUnused) {
        Variable[] seeds = new Variable[roots.length];
        for (int i = 0; i < roots.length; i++) {
            seeds[i] = seed(roots[i], rootGrads == null ? null : rootGrads[i], i, inputs != null);
        }
        Map<Variable, Integer> leafInputs = new IdentityHashMap<>();
        Map<Node, Integer> nodeInputs = new IdentityHashMap<>();
        if (inputs != null) {
            for (int j = 0; j < inputs.length; j++) {
                Variable in = inputs[j];
                if (!in.requiresGrad()) {
                    throw new AutogradException("One of the differentiated Tensors does not require grad (input " + j + ", of shape "
                            + Shape.str(in.shape()) + "; make it with Variable.of(t, true), or leave it out)");
                }
                if (in.gradFn == null) {
                    leafInputs.putIfAbsent(in, j);
                } else {
                    nodeInputs.putIfAbsent(in.gradFn, j);
                }
            }
        }
        boolean previousMode = GradMode.set(createGraph);
        // A first-order pass that frees its graph makes every tensor in it for itself alone: the gradients flowing between
        // nodes, their sums, the rules' temporaries. What leaves the pass is kept (a leaf's grad, a retained grad, what
        // grad() returns), so the pass runs in a Memory scope of its own and its arrays go back to this thread's pool
        // when it ends, for the next pass to take, instead of to the collector: a loop without a scope of its own then
        // allocates half as much a step (the backward's half), and the collector copies the forward's live tensors half
        // as often.
        Memory.Scope scope = !createGraph && !retainGraph ? Memory.scope() : null;
        try {
            Pass pass = new Pass(inputs, leafInputs, nodeInputs, createGraph, retainGraph);
            pass.execute(roots, seeds);
            if (inputs == null) {
                return null;
            }
            Variable[] results = new Variable[inputs.length];
            for (int j = 0; j < inputs.length; j++) {
                Integer first = inputs[j].gradFn == null ? leafInputs.get(inputs[j]) : nodeInputs.get(inputs[j].gradFn);
                results[j] = pass.results[first];
                if (results[j] == null && !allowUnused) {
                    throw new AutogradException("One of the differentiated Tensors appears to not have been used in the graph. Set"
                            + " allowUnused=true if this is the desired behavior. (input " + j + ", of shape " + Shape.str(inputs[j].shape())
                            + ", is not reached from the output)");
                }
                if (results[j] != null) {
                    results[j].data.keep();
                }
            }
            return results;
        } finally {
            if (scope != null) {
                scope.close();
            }
            GradMode.set(previousMode);
        }
    }

    /** The gradient the pass starts from at a root: given (of the root's shape), or one for a one-element root. */
    private static Variable seed(Variable root, Variable grad, int i, boolean forGrad) {
        if (!root.requiresGrad()) {
            throw new AutogradException("element " + i + " of tensors does not require grad and does not have a grad_fn"
                    + " (the output was computed without any input that requires grad, under NoGrad, or is a gradient taken"
                    + " without createGraph)");
        }
        if (grad == null) {
            if (root.data.numel() != 1) {
                throw new AutogradException("grad can be implicitly created only for scalar outputs (output " + i + " has shape "
                        + Shape.str(root.data.shape()) + "; reduce it with sum() or mean(), or pass its gradient)");
            }
            return new Variable(Tensor.onesLike(root.data));
        }
        if (!Arrays.equals(grad.shape(), root.data.shape())) {
            String message = "Mismatch in shape: grad_output[" + i + "] has a shape of " + Shape.str(grad.shape())
                    + " and output[" + i + "] has a shape of " + Shape.str(root.data.shape()) + ".";
            throw forGrad ? new ShapeException(message) : new AutogradException(message);
        }
        return grad.dtype() == root.dtype() ? grad : grad.to(root.dtype());
    }

    /** One walk of the graph. */
    private static final class Pass {
        final Variable[] results;
        private final Map<Variable, Integer> leafInputs;
        private final Map<Node, Integer> nodeInputs;
        private final boolean forGrad;
        private final boolean createGraph;
        private final boolean retainGraph;
        private final Buffers buffers;
        /** With inputs: the nodes from which some input is reached; the others need not run. */
        private Set<Node> needed;

        Pass(Variable[] inputs, Map<Variable, Integer> leafInputs, Map<Node, Integer> nodeInputs, boolean createGraph,
             boolean retainGraph) {
            this.forGrad = inputs != null;
            this.results = forGrad ? new Variable[inputs.length] : null;
            this.leafInputs = leafInputs;
            this.nodeInputs = nodeInputs;
            this.createGraph = createGraph;
            this.retainGraph = retainGraph;
            this.buffers = new Buffers(createGraph);
        }

        void execute(Variable[] roots, Variable[] seeds) {
            Node[] rootNodes = new Node[roots.length];
            for (int i = 0; i < roots.length; i++) {
                rootNodes[i] = roots[i].gradFn;
            }
            if (forGrad) {
                needed = neededNodes(rootNodes);
            }
            Map<Node, Integer> deps = dependencies(rootNodes);
            for (int i = 0; i < roots.length; i++) {
                if (rootNodes[i] == null) {
                    toLeaf(roots[i], seeds[i]);
                } else if (deps.containsKey(rootNodes[i])) {
                    buffers.add(rootNodes[i], seeds[i]);
                }
            }
            Deque<Node> ready = new ArrayDeque<>();
            for (Node r : rootNodes) {
                if (r != null && deps.get(r) != null && deps.get(r) == 0 && !ready.contains(r)) {
                    ready.push(r);
                }
            }
            while (!ready.isEmpty()) {
                Node n = ready.pop();
                step(n, deps, ready);
            }
        }

        private void step(Node n, Map<Node, Integer> deps, Deque<Node> ready) {
            Variable g = buffers.remove(n);
            Variable[] inputGrads = null;
            if (g != null) {
                if (forGrad) {
                    Integer j = nodeInputs.get(n);
                    if (j != null) {
                        results[j] = sum(results[j], g);
                    }
                } else if (n.retainer != null) {
                    Variable r = n.retainer;
                    r.grad = (r.grad == null ? g.data.clone() : r.grad.add(g.data)).keep();
                }
                if (runs(n)) {
                    inputGrads = apply(n, g);
                }
            }
            for (int i = 0; i < n.edges.length; i++) {
                Edge e = n.edges[i];
                if (e == null || (forGrad && !(e.leaf != null ? leafInputs.containsKey(e.leaf) : needed.contains(e.node)))) {
                    continue;
                }
                Variable gi = inputGrads == null ? null : inputGrads[i];
                if (gi != null) {
                    deliver(n, i, e, gi);
                }
                if (e.leaf == null && deps.merge(e.node, -1, Integer::sum) == 0) {
                    ready.push(e.node);
                }
            }
            if (!retainGraph) {
                n.release();
            }
        }

        /** Whether n's rule must run: always in backward; for grad, where an edge leads on to an input. */
        private boolean runs(Node n) {
            if (!forGrad) {
                return true;
            }
            for (Edge e : n.edges) {
                if (e != null && (e.leaf != null ? leafInputs.containsKey(e.leaf) : needed.contains(e.node))) {
                    return true;
                }
            }
            return false;
        }

        private Variable[] apply(Node n, Variable g) {
            boolean previous = Anomaly.enterBackward();
            Variable[] out;
            try {
                out = n.fn.apply(g, n);
            } finally {
                Anomaly.exitBackward(previous);
            }
            if (Anomaly.isEnabled()) {
                checkBackward(n, g.data, out);
            }
            return out;
        }

        /** Input i's gradient, brought to its shape and type, into its node's buffer or its leaf. */
        private void deliver(Node n, int i, Edge e, Variable gi) {
            if (n.region != null) {
                gi = cast(gi, n.inputTypes[i]);
                if (!createGraph && e.leaf == null) {
                    buffers.addInto(e.node, n.region, gi, n.inputShapes[i]);
                    return;
                }
                if (!createGraph && !forGrad) {
                    accumulateInto(e.leaf, n.region, gi.data);
                    return;
                }
                gi = embed(n, gi, n.inputShapes[i]);
            } else {
                gi = toInput(gi, n, i);
            }
            if (e.leaf != null) {
                toLeaf(e.leaf, gi);
            } else {
                buffers.add(e.node, gi);
            }
        }

        private void toLeaf(Variable leaf, Variable g) {
            if (forGrad) {
                Integer j = leafInputs.get(leaf);
                if (j != null) {
                    results[j] = sum(results[j], g);
                }
            } else if (createGraph) {
                Variable have = leaf.gradVariable != null ? leaf.gradVariable : (leaf.grad == null ? null : new Variable(leaf.grad));
                leaf.gradVariable = have == null ? g : have.add(g);
                leaf.grad = leaf.gradVariable.data.keep();
            } else {
                accumulate(leaf, g.data);
            }
        }

        private Variable sum(Variable a, Variable b) {
            return a == null ? b : a.add(b);
        }

        /** The nodes from which a node input or a leaf input is reached (post-order, without recursion). */
        private Set<Node> neededNodes(Node[] rootNodes) {
            Set<Node> result = Collections.newSetFromMap(new IdentityHashMap<>());
            Map<Node, Integer> next = new IdentityHashMap<>();
            Deque<Node> stack = new ArrayDeque<>();
            for (Node r : rootNodes) {
                if (r == null || next.containsKey(r)) {
                    continue;
                }
                next.put(r, 0);
                stack.push(r);
                while (!stack.isEmpty()) {
                    Node n = stack.peek();
                    int k = next.get(n);
                    if (k < n.edges.length) {
                        next.put(n, k + 1);
                        Edge e = n.edges[k];
                        if (e != null && e.node != null && !next.containsKey(e.node)) {
                            next.put(e.node, 0);
                            stack.push(e.node);
                        }
                        continue;
                    }
                    stack.pop();
                    boolean need = nodeInputs.containsKey(n);
                    for (Edge e : n.edges) {
                        need |= e != null && (e.leaf != null ? leafInputs.containsKey(e.leaf) : result.contains(e.node));
                    }
                    if (need) {
                        result.add(n);
                    }
                }
            }
            return result;
        }

        /** How many edges from nodes of this pass point at each node of it. */
        private Map<Node, Integer> dependencies(Node[] rootNodes) {
            Map<Node, Integer> deps = new IdentityHashMap<>();
            Deque<Node> stack = new ArrayDeque<>();
            for (Node r : rootNodes) {
                if (r != null && !deps.containsKey(r) && (needed == null || needed.contains(r))) {
                    deps.put(r, 0);
                    stack.push(r);
                }
            }
            while (!stack.isEmpty()) {
                Node n = stack.pop();
                for (Edge e : n.edges) {
                    if (e == null || e.node == null || (needed != null && !needed.contains(e.node))) {
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
    }

    /**
     * A gradient in the output's shape, summed down to input i's shape and type: the one place where the
     * dims an input was broadcast along are reduced. A rule whose gradient is no broadcast of its input's
     * shape is a bug in that rule, and the error names it.
     */
    private static Variable toInput(Variable g, Node n, int i) {
        int[] shape = n.inputShapes[i];
        int[] have = g.shape();
        if (Arrays.equals(have, shape)) {
            return cast(g, n.inputTypes[i]);
        }
        if (!Shape.broadcastsTo(shape, have)) {
            throw new AutogradException("the backward of '" + n.name() + "' returned a gradient of shape " + Shape.str(have)
                    + " for its input " + i + " of shape " + Shape.str(shape) + ", which it cannot be summed down to\n"
                    + Shape.aligned(new String[] {"gradient", "input"}, new int[][] {have, shape}, -1));
        }
        return cast(g.sumTo(shape), n.inputTypes[i]);
    }

    private static Variable cast(Variable g, DType type) {
        return g.dtype() == type ? g : g.to(type);
    }

    /**
     * A view's gradient placed into zeros of its input's shape, as an op of its own whose backward takes
     * the same view of the incoming gradient: how a recorded pass (createGraph) differentiates a view's backward.
     */
    private static Variable embed(Node n, Variable g, int[] shape) {
        Tensor z = Tensor.zeros(g.dtype(), shape);
        n.region.of(new Variable(z)).data.addi(g.data);
        Node.Region region = n.region;
        return Op.of(n.name() + "_backward", z, g).backward((gg, m) -> new Variable[] {region.of(gg)});
    }

    /**
     * The gradients waiting for each node, summed as they arrive. Without createGraph a gradient that
     * arrives first is kept as it is (a backward rule may have passed on a tensor that is also used
     * elsewhere), so it is never written to; a sum the engine made is its own, and later gradients are
     * added into it in place. With createGraph every sum is a recorded add.
     */
    private static final class Buffers {
        private final boolean createGraph;
        private final Map<Node, Variable> waiting = new IdentityHashMap<>();
        private final Set<Node> owned = Collections.newSetFromMap(new IdentityHashMap<>());

        Buffers(boolean createGraph) {
            this.createGraph = createGraph;
        }

        void add(Node m, Variable g) {
            Variable cur = waiting.get(m);
            if (cur == null) {
                waiting.put(m, g);
            } else if (createGraph) {
                waiting.put(m, cur.add(g));
            } else if (owned.contains(m)) {
                cur.data.addi(g.data);
            } else {
                waiting.put(m, new Variable(cur.data.add(g.data)));
                owned.add(m);
            }
        }

        /** Adds {@code g} into {@code region} of m's gradient, of shape {@code shape}, made here if need be (first order only). */
        void addInto(Node m, Node.Region region, Variable g, int[] shape) {
            Variable cur = waiting.get(m);
            if (cur == null) {
                cur = new Variable(Tensor.zeros(g.dtype(), shape));
            } else if (!owned.contains(m)) {
                cur = new Variable(cur.data.clone());
            }
            waiting.put(m, cur);
            owned.add(m);
            region.of(cur).data.addi(g.data);
        }

        Variable remove(Node m) {
            owned.remove(m);
            return waiting.remove(m);
        }
    }

    /** A view's gradient added into its region of a leaf's grad (made, zero, where there is none). */
    static void accumulateInto(Variable leaf, Node.Region region, Tensor g) {
        if (leaf.grad == null) {
            leaf.grad = Tensor.zeros(g.dtype(), leaf.data.shape()).keep();
        }
        region.of(new Variable(leaf.grad)).data.addi(g);
    }

    /** Leaves add into their grad, in place where one exists (so buffers are reused across steps). */
    static void accumulate(Variable leaf, Tensor g) {
        if (leaf.grad == null) {
            leaf.grad = g.clone().keep();
        } else {
            leaf.grad.addi(g);
        }
    }

    private static void checkBackward(Node n, Tensor g, Variable[] inputGrads) {
        if (g.isFloatingPoint() && !g.allFinite()) {
            return;
        }
        for (int i = 0; i < inputGrads.length; i++) {
            Tensor gi = inputGrads[i] == null ? null : inputGrads[i].data;
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
