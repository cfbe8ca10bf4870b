package dev.jgrad.examples.conformance;

import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.Attention;
import dev.jgrad.nn.Functional;
import dev.jgrad.nn.Losses;
import dev.jgrad.nn.Parameter;
import dev.jgrad.nn.Reduction;
import dev.jgrad.nn.optim.Adam;
import dev.jgrad.nn.optim.AdamW;
import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.nn.optim.SGD;
import dev.jgrad.tensor.Tensor;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The corpus ops of the nn layer: losses, layer norm, embedding, attention and the optimizers. */
final class NnOps {
    private NnOps() {
    }

    static Map<String, CoreOps.Handler> table() {
        Map<String, CoreOps.Handler> t = new HashMap<>();
        t.put("mse_loss", s -> Losses.mseLoss(s.var(0), s.var(1), reduction(s)));
        t.put("l1_loss", s -> Losses.l1Loss(s.var(0), s.var(1), reduction(s)));
        t.put("cross_entropy", s -> Losses.crossEntropy(s.var(0), s.tensor(1), reduction(s),
                s.integer("ignore_index", Losses.IGNORE_INDEX), s.real("label_smoothing", 0.0)));
        t.put("nll_loss", s -> Losses.nllLoss(s.var(0), s.tensor(1), reduction(s), s.integer("ignore_index", Losses.IGNORE_INDEX)));
        t.put("bce_with_logits", s -> Losses.bceWithLogits(s.var(0), s.var(1), reduction(s)));
        t.put("layer_norm", s -> Functional.layerNorm(s.var(0), s.ints("normalized_shape"),
                s.isAbsent(1) ? null : s.var(1), s.isAbsent(2) ? null : s.var(2), s.real("eps", 1e-5)));
        t.put("embedding", s -> Functional.embedding(s.tensor(0), s.var(1)));
        t.put("attention", s -> Attention.scaledDotProduct(s.var(0), s.var(1), s.var(2),
                s.isAbsent(3) ? null : s.tensor(3), s.flag("causal", false), s.real("scale", Double.NaN)));
        t.put("multi_head_attention", s -> Attention.multiHead(s.var(0), s.var(1), s.var(2), s.integer("num_heads"),
                s.var(3), s.isAbsent(4) ? null : s.var(4), s.var(5), s.isAbsent(6) ? null : s.var(6),
                s.has("key_padding_mask") ? s.named(s.text("key_padding_mask", null)).data() : null,
                s.has("attn_mask") ? s.named(s.text("attn_mask", null)).data() : null,
                s.flag("causal", false)));
        t.put("sgd", s -> optimize(s, "sgd"));
        t.put("adam", s -> optimize(s, "adam"));
        t.put("adamw", s -> optimize(s, "adamw"));
        return t;
    }

    private static Reduction reduction(Step s) {
        return Reduction.parse(s.text("reduction", "mean"));
    }

    /** {@code torch.optim.X([p], **hyper)} run for {@code steps} steps, each with the gradient args[1]. */
    @SuppressWarnings("unchecked")
    private static Variable optimize(Step s, String kind) {
        Map<String, Object> h = s.has("hyper") ? (Map<String, Object>) s.attr("hyper") : Map.of();
        double lr = num(h, "lr", 1e-3);
        double wd = num(h, "weight_decay", kind.equals("adamw") ? 0.01 : 0.0);
        Parameter p = new Parameter(s.tensor(0).clone());
        Tensor g = s.tensor(1);
        List<Parameter> params = List.of(p);
        Optimizer opt;
        switch (kind) {
            case "sgd":
                opt = new SGD(params, lr, num(h, "momentum", 0), num(h, "dampening", 0), Boolean.TRUE.equals(h.get("nesterov")), wd);
                break;
            default: {
                List<?> betas = (List<?>) h.getOrDefault("betas", List.of(0.9, 0.999));
                double b1 = ((Number) betas.get(0)).doubleValue();
                double b2 = ((Number) betas.get(1)).doubleValue();
                double eps = num(h, "eps", 1e-8);
                opt = kind.equals("adam") ? new Adam(params, lr, b1, b2, eps, wd) : new AdamW(params, lr, b1, b2, eps, wd);
            }
        }
        int steps = s.integer("steps", 1);
        for (int i = 0; i < steps; i++) {
            p.setGrad(g.clone());
            opt.step();
        }
        return Variable.of(p.data());
    }

    private static double num(Map<String, Object> h, String key, double dflt) {
        Object o = h.get(key);
        return o == null ? dflt : ((Number) o).doubleValue();
    }
}
