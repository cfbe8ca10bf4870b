package dev.jgrad.nn.optim;

import dev.jgrad.nn.Parameter;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.internal.fused.ParameterPasses;

import java.util.List;

/** Gradient clipping, as {@code torch.nn.utils.clip_grad_norm_}. */
public final class ClipGrad {
    private ClipGrad() {
    }

    /**
     * Scales every gradient by {@code maxNorm / (total + 1e-6)} when the global L2 norm of all gradients
     * exceeds {@code maxNorm}; returns the norm before clipping.
     */
    public static double clipGradNorm(List<Parameter> params, double maxNorm) {
        Tensor[] gs = Optimizer.gradients(params);
        // Float32 gradients in one pass over all of them (ParameterPasses), else one op per gradient.
        boolean together = ParameterPasses.applies(gs) && Optimizer.distinct(gs);
        double total = norm(gs, together);
        double coef = maxNorm / (total + 1e-6);
        if (coef < 1) {
            if (together) {
                ParameterPasses.scale(gs, coef);
            } else {
                for (Tensor g : gs) {
                    g.muli(coef);
                }
            }
        }
        return total;
    }

    /** The global L2 norm of all gradients, as {@link #clipGradNorm} measures it, without changing them. */
    public static double gradNorm(List<Parameter> params) {
        Tensor[] gs = Optimizer.gradients(params);
        return norm(gs, ParameterPasses.applies(gs) && Optimizer.distinct(gs));
    }

    private static double norm(Tensor[] gs, boolean together) {
        if (together) {
            return Math.sqrt(ParameterPasses.sumOfSquares(gs));
        }
        double sq = 0;
        for (Tensor g : gs) {
            // In the gradient's own type, as torch.norm: a float64 copy of every gradient cost a tenth of a GPT step.
            sq += g.square().sum().item();
        }
        return Math.sqrt(sq);
    }
}
