package dev.jgrad.nn.optim;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.nn.Parameter;
import dev.jgrad.nn.StateDictException;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.internal.fused.ParameterPasses;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The base of the optimizers: a list of parameters, a learning rate that schedulers may change, and
 * per-parameter state that can be saved and restored, so training resumes to the same numbers.
 * Updates run with recording off and write into the parameters' data in place.
 */
public abstract class Optimizer {
    /** The parameters updated, in order. */
    protected final List<Parameter> params;
    /** The learning rate (of every group). */
    protected double lr;
    /** Per parameter (by position), named state tensors: "momentum_buffer", "exp_avg", ... */
    protected final List<Map<String, Tensor>> state = new ArrayList<>();
    /** The steps made. */
    protected long steps;

    /** An optimizer of {@code params} at rate {@code lr} (refused when not finite and 0 or more). */
    protected Optimizer(List<Parameter> params, double lr) {
        if (params.isEmpty()) {
            throw new IllegalArgumentException("optimizer got an empty parameter list");
        }
        this.params = new ArrayList<>(params);
        this.lr = checkedLr(lr);
        for (int i = 0; i < params.size(); i++) {
            state.add(new LinkedHashMap<>());
        }
    }

    /** One update of every parameter that has a gradient. */
    public final void step() {
        steps++;
        try (NoGrad g = NoGrad.enter()) {
            List<Integer> withGrad = new ArrayList<>();
            for (int i = 0; i < params.size(); i++) {
                if (params.get(i).grad() != null) {
                    withGrad.add(i);
                }
            }
            updateAll(withGrad);
            for (int i : withGrad) {
                // The state lives across steps, so it outlives the step's Memory.scope().
                state.get(i).values().forEach(Tensor::keep);
            }
        }
    }

    /**
     * Updates the parameters at these positions (each has a gradient), in order; an optimizer that can update many in one
     * pass overrides this.
     */
    protected void updateAll(List<Integer> indices) {
        for (int i : indices) {
            update(i, params.get(i).data(), params.get(i).grad(), state.get(i));
        }
    }

    /** Updates one parameter in place from its gradient and its state. */
    protected abstract void update(Tensor p, Tensor grad, Map<String, Tensor> state);

    /** Updates parameter {@code index} (its position in {@link #params()}); optimizers with per-parameter settings override this. */
    protected void update(int index, Tensor p, Tensor grad, Map<String, Tensor> state) {
        update(p, grad, state);
    }

    /** Zeroes every parameter's gradient, keeping the buffers (float32 ones in one pass, {@link ParameterPasses}). */
    public void zeroGrad() {
        Tensor[] gs = gradients(params);
        if (ParameterPasses.applies(gs) && distinct(gs)) {
            ParameterPasses.zero(gs);
            return;
        }
        for (Parameter p : params) {
            p.zeroGrad();
        }
    }

    /** The gradients these parameters have (those without one left out). */
    static Tensor[] gradients(List<Parameter> params) {
        return params.stream().map(Parameter::grad).filter(g -> g != null).toArray(Tensor[]::new);
    }

    /**
     * Whether no two of these tensors share memory: one pass over all of them must not reach an element twice (two
     * parameters over one tensor would be updated twice at once).
     */
    static boolean distinct(Tensor[] ts) {
        for (int i = 0; i < ts.length; i++) {
            for (int j = i + 1; j < ts.length; j++) {
                if (ts[i].sharesStorage(ts[j])) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The learning rate. */
    public double lr() {
        return lr;
    }

    /** Sets the learning rate (a finite number, 0 or more). */
    public void setLr(double lr) {
        this.lr = checkedLr(lr);
    }

    private static double checkedLr(double lr) {
        if (!(lr >= 0) || Double.isInfinite(lr)) {
            throw new IllegalArgumentException("Invalid learning rate: " + lr + " (a finite number, 0 or more)");
        }
        return lr;
    }

    /** The parameters updated, in order. */
    public List<Parameter> params() {
        return params;
    }

    /** The hyperparameters, as strings (saved in a checkpoint's metadata). */
    protected abstract Map<String, String> hyperparameters();

    /** A copy of the state: tensors named {@code state.<param index>.<name>}, and the hyperparameters and step count as metadata. */
    public Map<String, Tensor> stateTensors() {
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (int i = 0; i < state.size(); i++) {
            for (Map.Entry<String, Tensor> e : state.get(i).entrySet()) {
                out.put("state." + i + "." + e.getKey(), e.getValue().clone());
            }
        }
        return out;
    }

    /** The hyperparameters, the kind of optimizer, the rate, the step count and the parameter count, as strings for a checkpoint's metadata. */
    public Map<String, String> stateMetadata() {
        Map<String, String> meta = new LinkedHashMap<>(hyperparameters());
        meta.put("optimizer", getClass().getSimpleName());
        meta.put("lr", Double.toString(lr));
        meta.put("steps", Long.toString(steps));
        meta.put("params", Integer.toString(params.size()));
        return meta;
    }

    /**
     * Restores state saved by {@link #stateTensors()} and {@link #stateMetadata()}. Every entry is checked
     * (optimizer type, parameter count, names, shapes) before anything changes.
     */
    public void loadState(Map<String, Tensor> tensors, Map<String, String> meta) {
        List<String> problems = new ArrayList<>();
        if (meta.get("optimizer") == null) {
            throw new StateDictException("Error(s) in loading optimizer state:\n  the file names no optimizer (no 'optimizer' metadata): "
                    + "it is not an optimizer state saved by jgrad");
        }
        if (!getClass().getSimpleName().equals(meta.get("optimizer"))) {
            problems.add("the state is for optimizer " + meta.get("optimizer") + ", this is " + getClass().getSimpleName());
        }
        if (!Integer.toString(params.size()).equals(meta.get("params"))) {
            problems.add("the state is for " + meta.get("params") + " parameters, this optimizer has " + params.size());
        }
        List<Map<String, Tensor>> next = new ArrayList<>();
        for (int i = 0; i < params.size(); i++) {
            next.add(new LinkedHashMap<>());
        }
        for (Map.Entry<String, Tensor> e : tensors.entrySet()) {
            String[] parts = e.getKey().split("\\.", 3);
            int i;
            try {
                i = parts.length == 3 && parts[0].equals("state") ? Integer.parseInt(parts[1]) : -1;
            } catch (NumberFormatException ex) {
                i = -1;
            }
            if (i < 0 || i >= params.size()) {
                problems.add("unexpected: " + e.getKey());
                continue;
            }
            Tensor t = e.getValue();
            Tensor p = params.get(i).data();
            if (t.dim() > 0 && !java.util.Arrays.equals(t.shape(), p.shape())) {
                problems.add("shape mismatch for " + e.getKey() + ": the file has " + Shape.str(t.shape()) + ", the parameter "
                        + Shape.str(p.shape()));
                continue;
            }
            next.get(i).put(parts[2], (t.dim() > 0 ? t.to(p.dtype()).clone() : t.clone()).keep());
        }
        if (!problems.isEmpty()) {
            throw new StateDictException("Error(s) in loading optimizer state:\n  " + String.join("\n  ", problems));
        }
        for (int i = 0; i < params.size(); i++) {
            state.get(i).clear();
            state.get(i).putAll(next.get(i));
        }
        lr = Double.parseDouble(meta.getOrDefault("lr", Double.toString(lr)));
        steps = Long.parseLong(meta.getOrDefault("steps", "0"));
    }

    /** A 0-d float64 step counter in a state map. */
    protected static double bumpStep(Map<String, Tensor> s) {
        Tensor step = s.computeIfAbsent("step", k -> Tensor.scalar(0, DType.FLOAT64));
        double v = step.item() + 1;
        step.fill(v);
        return v;
    }
}
