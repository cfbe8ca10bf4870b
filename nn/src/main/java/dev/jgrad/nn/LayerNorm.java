package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Tensor;

/** {@code nn.LayerNorm(normalized_shape, eps=1e-5)}: weight ones, bias zeros. */
public class LayerNorm extends Layer {
    /** The scale over the normalised shape; null without {@code elementwiseAffine}. */
    public final Parameter weight;
    /** The shift over the normalised shape; null without {@code elementwiseAffine}. */
    public final Parameter bias;
    private final int[] normalizedShape;
    private final double eps;

    /** Layer norm over the last dims {@code normalizedShape}, eps 1e-5, with a scale and a shift. */
    public LayerNorm(int... normalizedShape) {
        this(normalizedShape, 1e-5, true);
    }

    /** {@code nn.LayerNorm} with every option. */
    public LayerNorm(int[] normalizedShape, double eps, boolean elementwiseAffine) {
        this(normalizedShape, eps, elementwiseAffine, true);
    }

    /** With {@code bias} false, a weight and no bias, as PyTorch 2.1's {@code LayerNorm(..., bias=False)} and nanoGPT's own. */
    public LayerNorm(int[] normalizedShape, double eps, boolean elementwiseAffine, boolean bias) {
        this.normalizedShape = normalizedShape.clone();
        this.eps = eps;
        this.weight = registerParameter("weight", elementwiseAffine ? new Parameter(Tensor.ones(normalizedShape)) : null);
        this.bias = registerParameter("bias", elementwiseAffine && bias ? new Parameter(Tensor.zeros(normalizedShape)) : null);
    }

    @Override
    public Variable forward(Variable x) {
        return Functional.layerNorm(x, normalizedShape, weight, bias, eps);
    }

    @Override
    protected String extraRepr() {
        StringBuilder s = new StringBuilder("(");
        for (int i = 0; i < normalizedShape.length; i++) {
            s.append(normalizedShape[i]).append(normalizedShape.length == 1 ? "," : (i + 1 < normalizedShape.length ? ", " : ""));
        }
        return s.append("), eps=").append(eps).append(", elementwise_affine=").append(weight != null ? "True" : "False").toString();
    }
}
