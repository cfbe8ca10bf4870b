package dev.jgrad.nn.optim;

import dev.jgrad.nn.Parameter;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parameters that share a weight decay, as a PyTorch parameter group {@code {"params": [...], "weight_decay": wd}}.
 * {@link #decayMatrices} splits a model's parameters as nanoGPT's {@code configure_optimizers} does: weights of two or
 * more dims (linear layers, embeddings) decay, biases and norm gains do not.
 */
public record ParamGroup(List<Parameter> params, double weightDecay) {
    /** Copies the list and checks the decay: finite, 0 or more. */
    public ParamGroup {
        if (!(weightDecay >= 0) || Double.isInfinite(weightDecay)) {
            throw new IllegalArgumentException("Invalid weight_decay: " + weightDecay);
        }
        params = List.copyOf(params);
    }

    /** Two groups: the parameters of 2 or more dims with {@code weightDecay}, the others with none (empty groups left out). */
    public static List<ParamGroup> decayMatrices(List<Parameter> params, double weightDecay) {
        List<Parameter> decay = new ArrayList<>();
        List<Parameter> none = new ArrayList<>();
        for (Parameter p : params) {
            (p.dim() >= 2 ? decay : none).add(p);
        }
        List<ParamGroup> groups = new ArrayList<>();
        if (!decay.isEmpty()) {
            groups.add(new ParamGroup(decay, weightDecay));
        }
        if (!none.isEmpty()) {
            groups.add(new ParamGroup(none, 0.0));
        }
        return groups;
    }

    static List<Parameter> all(List<ParamGroup> groups) {
        List<Parameter> out = new ArrayList<>();
        Map<Parameter, Boolean> seen = new IdentityHashMap<>();
        for (ParamGroup g : groups) {
            for (Parameter p : g.params()) {
                if (seen.put(p, Boolean.TRUE) != null) {
                    throw new IllegalArgumentException("some parameters appear in more than one parameter group");
                }
                out.add(p);
            }
        }
        return out;
    }

    static double[] decays(List<ParamGroup> groups) {
        int n = 0;
        for (ParamGroup g : groups) {
            n += g.params().size();
        }
        double[] d = new double[n];
        int i = 0;
        for (ParamGroup g : groups) {
            for (int k = 0; k < g.params().size(); k++) {
                d[i++] = g.weightDecay();
            }
        }
        return d;
    }
}
