package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.BinaryOp;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.OptimizerKernels;
import dev.jgrad.tensor.internal.kernels.Parallel;
import dev.jgrad.tensor.internal.kernels.Tuning;

import static dev.jgrad.tensor.internal.TensorAccess.bumpVersion;
import static dev.jgrad.tensor.internal.TensorAccess.copy;
import static dev.jgrad.tensor.internal.TensorAccess.doubles;
import static dev.jgrad.tensor.internal.TensorAccess.floats;
import static dev.jgrad.tensor.internal.TensorAccess.offset;

/**
 * Adam's update as one pass over a parameter, its gradient and its moments, in place, instead of a chain of ops
 * with a temporary per step. Plain arithmetic on tensors, nothing of gradients: the nn optimizers call it.
 */
public final class AdamStep {
    private AdamStep() {
    }

    /**
     * {@link #adam} on many parameters in one job ({@link ParameterPasses}), parameter i first scaled by
     * {@code decay[i]} (AdamW's {@code p *= 1 - lr * wd}, rounded to float32 as {@code muli} rounds it), each with its
     * own {@code l2}, step size and bias correction: the same arithmetic element by element, so the same bits as a call
     * per parameter. Every tensor float32 and contiguous ({@link ParameterPasses#applies}); no gradient shares memory
     * with a parameter or a moment.
     */
    public static void adamAll(Tensor[] p, Tensor[] g, Tensor[] m, Tensor[] v, double[] decay, double b1, double b2, double[] l2,
                               double[] stepSize, double[] bc2Sqrt, double eps) {
        float[] d = new float[p.length];
        for (int i = 0; i < p.length; i++) {
            if (!java.util.Arrays.equals(p[i].shape(), g[i].shape()) || !java.util.Arrays.equals(p[i].shape(), m[i].shape())
                    || !java.util.Arrays.equals(p[i].shape(), v[i].shape())) {
                throw new IllegalArgumentException("adam: parameter " + i + ", its gradient and moments must have one shape, got "
                        + Shape.str(p[i].shape()) + ", " + Shape.str(g[i].shape()) + ", " + Shape.str(m[i].shape()) + ", " + Shape.str(v[i].shape()));
            }
            d[i] = (float) decay[i];
        }
        ParameterPasses.forEachShare(ParameterPasses.sizes(p), (i, from, to) -> {
            float[] pa = floats(p[i]);
            int po = offset(p[i]) + from;
            if (decay[i] != 1) {
                Kernels.ELEMENTWISE.binaryScalar(BinaryOp.MUL, pa, po, d, i, pa, po, to - from);
            }
            Kernels.OPTIMIZER.adam(pa, po, floats(g[i]), offset(g[i]) + from, floats(m[i]), offset(m[i]) + from,
                    floats(v[i]), offset(v[i]) + from, to - from, (float) b1, (float) b2, (float) l2[i], (float) stepSize[i],
                    (float) bc2Sqrt[i], (float) eps);
        });
        for (Tensor[] ts : new Tensor[][] {p, m, v}) {
            for (Tensor t : ts) {
                bumpVersion(t);
            }
        }
    }

    /**
     * One Adam step in place, PyTorch's formula: {@code g' = g + l2 * p}; {@code m = b1 m + (1-b1) g'};
     * {@code v = b2 v + (1-b2) g'^2}; {@code p -= stepSize * m / (sqrt(v) / bc2Sqrt + eps)}. Decoupled
     * decay (AdamW) is applied by the caller before ({@code p *= 1 - lr * wd}). Moments below
     * {@link OptimizerKernels#FLUSH} become 0. {@code p}, {@code m} and {@code v} are floating tensors of one shape and
     * type; non-contiguous ones are updated through contiguous copies.
     */
    public static void adam(Tensor p, Tensor g, Tensor m, Tensor v, double b1, double b2, double l2, double stepSize,
                            double bc2Sqrt, double eps) {
        if (!p.isFloatingPoint() || !java.util.Arrays.equals(p.shape(), g.shape()) || !java.util.Arrays.equals(p.shape(), m.shape())
                || !java.util.Arrays.equals(p.shape(), v.shape()) || m.dtype() != p.dtype() || v.dtype() != p.dtype()) {
            throw new IllegalArgumentException("adam: parameter, gradient and moments must be floating tensors of one shape, got "
                    + p.dtype() + " " + Shape.str(p.shape()) + ", " + Shape.str(g.shape()) + ", " + m.dtype() + " " + Shape.str(m.shape())
                    + ", " + v.dtype() + " " + Shape.str(v.shape()));
        }
        Tensor pc = p.isContiguous() ? p : p.clone();
        Tensor mc = m.isContiguous() ? m : m.clone();
        Tensor vc = v.isContiguous() ? v : v.clone();
        Tensor gc = g.dtype() == p.dtype() && g.isContiguous() && !g.sharesStorage(p) && !g.sharesStorage(m) && !g.sharesStorage(v)
                ? g : g.to(p.dtype()).clone();
        int po = offset(pc);
        int go = offset(gc);
        int mo = offset(mc);
        int vo = offset(vc);
        // Element by element, so a large parameter's range is split across the threads with the same result.
        if (p.dtype() == DType.FLOAT32) {
            float[] pa = floats(pc);
            float[] ga = floats(gc);
            float[] ma = floats(mc);
            float[] va = floats(vc);
            Parallel.forRange(p.numel(), Tuning.parallelMin(), (lo, hi) -> Kernels.OPTIMIZER.adam(pa, po + lo, ga, go + lo, ma, mo + lo,
                    va, vo + lo, hi - lo, (float) b1, (float) b2, (float) l2, (float) stepSize, (float) bc2Sqrt, (float) eps));
        } else {
            double[] pa = doubles(pc);
            double[] ga = doubles(gc);
            double[] ma = doubles(mc);
            double[] va = doubles(vc);
            Parallel.forRange(p.numel(), Tuning.parallelMin(), (lo, hi) -> Kernels.OPTIMIZER.adam(pa, po + lo, ga, go + lo, ma, mo + lo,
                    va, vo + lo, hi - lo, b1, b2, l2, stepSize, bc2Sqrt, eps));
        }
        for (Tensor[] pair : new Tensor[][] {{p, pc}, {m, mc}, {v, vc}}) {
            if (pair[0] != pair[1]) {
                copy(pair[1], pair[0]);
            }
            bumpVersion(pair[0]);
        }
    }
}
