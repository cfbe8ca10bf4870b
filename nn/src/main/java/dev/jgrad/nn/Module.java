package dev.jgrad.nn;

import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The base of every layer and model, as {@code nn.Module}: named parameters and submodules in the order
 * they were registered, train/eval mode, and state dicts whose names are PyTorch's ({@code 0.weight} in a
 * Sequential, {@code attn.out_proj.bias}), so checkpoints move between jgrad and PyTorch.
 */
public abstract class Module {
    private final Map<String, Parameter> parameters = new LinkedHashMap<>();
    private final Map<String, Tensor> buffers = new LinkedHashMap<>();
    private final Map<String, Module> children = new LinkedHashMap<>();
    private boolean training = true;

    /** Registers a parameter under {@code name}; a null parameter (a disabled bias) is not registered. */
    protected <P extends Parameter> P registerParameter(String name, P p) {
        checkName(name);
        if (p != null) {
            parameters.put(name, p);
        }
        return p;
    }

    /**
     * Registers a buffer: state that is saved and loaded with the parameters but not learned, such as batch
     * norm's running statistics ({@code register_buffer}). The module updates it in place.
     */
    protected Tensor registerBuffer(String name, Tensor t) {
        checkName(name);
        if (t != null) {
            buffers.put(name, t.keep());
        }
        return t;
    }

    /** Adds {@code m} as the submodule {@code name}: its parameters join this module's under {@code name.}; returns m. */
    protected <M extends Module> M registerModule(String name, M m) {
        checkName(name);
        children.put(name, m);
        return m;
    }

    private void checkName(String name) {
        if (name.isEmpty() || name.contains(".")) {
            throw new IllegalArgumentException("a parameter or module name must be non-empty and without '.', got '" + name + "'");
        }
        if (parameters.containsKey(name) || buffers.containsKey(name) || children.containsKey(name)) {
            throw new IllegalArgumentException("'" + name + "' is already registered in " + getClass().getSimpleName());
        }
    }

    /** Every parameter of this module and its submodules, each once, in registration order. */
    public List<Parameter> parameters() {
        return new ArrayList<>(namedParameters().values());
    }

    /** Parameters by their dotted names, as {@code named_parameters()}. */
    public Map<String, Parameter> namedParameters() {
        Map<String, Parameter> out = new LinkedHashMap<>();
        Map<Parameter, Boolean> seen = new IdentityHashMap<>();
        collect("", out, seen);
        return out;
    }

    private void collect(String prefix, Map<String, Parameter> out, Map<Parameter, Boolean> seen) {
        for (Map.Entry<String, Parameter> e : parameters.entrySet()) {
            if (seen.put(e.getValue(), Boolean.TRUE) == null) {
                out.put(prefix + e.getKey(), e.getValue());
            }
        }
        for (Map.Entry<String, Module> e : children.entrySet()) {
            e.getValue().collect(prefix + e.getKey() + ".", out, seen);
        }
    }

    /** Direct submodules by name. */
    public Map<String, Module> children() {
        return Collections.unmodifiableMap(children);
    }

    /** Zeroes the gradients of every parameter, keeping their buffers. */
    public void zeroGrad() {
        for (Parameter p : parameters()) {
            p.zeroGrad();
        }
    }

    /** Sets training mode here and in every submodule (dropout is active in training only). */
    public Module train(boolean mode) {
        training = mode;
        for (Module m : children.values()) {
            m.train(mode);
        }
        return this;
    }

    /** Sets training mode here and in every submodule; returns this. */
    public Module train() {
        return train(true);
    }

    /** Sets eval mode here and in every submodule (dropout off, batch norm's running statistics); returns this. */
    public Module eval() {
        return train(false);
    }

    /** Whether the module is in training mode. */
    public boolean isTraining() {
        return training;
    }

    /** The number of scalar parameters. */
    public long parameterCount() {
        long n = 0;
        for (Parameter p : parameters()) {
            n += p.numel();
        }
        return n;
    }

    /** Buffers by their dotted names, as {@code named_buffers()}. */
    public Map<String, Tensor> namedBuffers() {
        Map<String, Tensor> out = new LinkedHashMap<>();
        collectBuffers("", out);
        return out;
    }

    private void collectBuffers(String prefix, Map<String, Tensor> out) {
        buffers.forEach((k, v) -> out.put(prefix + k, v));
        children.forEach((k, m) -> m.collectBuffers(prefix + k + ".", out));
    }

    /**
     * Parameter and buffer values by name (shared with the module, not copied), in PyTorch's order: each
     * module's own parameters, then its buffers, then its submodules'.
     */
    public Map<String, Tensor> stateDict() {
        Map<String, Tensor> out = new LinkedHashMap<>();
        collectState("", out, new IdentityHashMap<>());
        return out;
    }

    private void collectState(String prefix, Map<String, Tensor> out, Map<Parameter, Boolean> seen) {
        for (Map.Entry<String, Parameter> e : parameters.entrySet()) {
            if (seen.put(e.getValue(), Boolean.TRUE) == null) {
                out.put(prefix + e.getKey(), e.getValue().data());
            }
        }
        buffers.forEach((k, v) -> out.put(prefix + k, v));
        children.forEach((k, m) -> m.collectState(prefix + k + ".", out, seen));
    }

    /**
     * Copies values into the parameters and buffers by name. Every name, shape and dtype is checked before
     * anything is copied, so a state dict that does not fit leaves the module as it was; the error lists
     * every missing, unexpected and mismatched entry. A missing {@code num_batches_tracked} (checkpoints
     * from before PyTorch 0.4.1 lack it) counts as 0, as PyTorch's batch norm does.
     */
    public void loadStateDict(Map<String, Tensor> state) {
        if (state == null) {
            throw new StateDictException("loadStateDict: the state dict is null");
        }
        Map<String, Tensor> own = stateDict();
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, Tensor> e : own.entrySet()) {
            Tensor t = state.get(e.getKey());
            Tensor have = e.getValue();
            if (t == null) {
                if (!e.getKey().endsWith("num_batches_tracked")) {
                    problems.add("missing: " + e.getKey() + " (" + have.dtype() + " " + Shape.str(have.shape()) + ")");
                }
            } else if (!java.util.Arrays.equals(t.shape(), have.shape())) {
                problems.add("shape mismatch for " + e.getKey() + ": the file has " + Shape.str(t.shape())
                        + ", the model " + Shape.str(have.shape()));
            } else if (t.dtype() != have.dtype()) {
                problems.add("dtype mismatch for " + e.getKey() + ": the file has " + t.dtype() + ", the model " + have.dtype());
            }
        }
        for (String k : state.keySet()) {
            if (!own.containsKey(k)) {
                problems.add("unexpected: " + k);
            }
        }
        if (!problems.isEmpty()) {
            throw new StateDictException("Error(s) in loading state_dict for " + getClass().getSimpleName() + ":\n  "
                    + String.join("\n  ", problems));
        }
        for (Map.Entry<String, Tensor> e : own.entrySet()) {
            Tensor t = state.get(e.getKey());
            if (t == null) {
                e.getValue().zero();
            } else {
                e.getValue().copyFrom(t);
            }
        }
    }

    /** The part inside the parentheses of this module's line in {@link #toString()}, as {@code extra_repr}. */
    protected String extraRepr() {
        return "";
    }

    /** PyTorch's module printout: {@code Linear(in_features=4, out_features=16, bias=True)}, children indented. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(getClass().getSimpleName()).append('(');
        String extra = extraRepr();
        if (children.isEmpty()) {
            return sb.append(extra).append(')').toString();
        }
        if (!extra.isEmpty()) {
            sb.append("\n  ").append(extra);
        }
        for (Map.Entry<String, Module> e : children.entrySet()) {
            String child = e.getValue().toString().replace("\n", "\n  ");
            sb.append("\n  (").append(e.getKey()).append("): ").append(child);
        }
        return sb.append("\n)").toString();
    }
}
