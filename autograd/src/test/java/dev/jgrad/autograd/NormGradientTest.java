package dev.jgrad.autograd;

import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * norm's gradients where central differences cannot judge them (a zero norm, zero elements, ties), against those of
 * PyTorch 2.13's {@code torch.linalg.vector_norm(x, p, dim=1).sum().backward()} on the same float64 values.
 */
class NormGradientTest {
    /** Rows with zeros in them, a row of zeros, and a tie for the largest |x|. */
    private static final double[] X = {0, -1.5, 2, 0, 0, 0, 0, 0, 3, -3, 1, 0.5};

    private static double[] gradient(double p) {
        Variable x = Variable.of(Tensor.of(X.clone(), 3, 4), true);
        x.norm(p, 1, false).sum().backward();
        return x.grad().toDoubleArray();
    }

    @Test
    void euclideanNormsGradientIsZeroWhereTheNormIsZero() {
        assertArrayEquals(new double[] {0, -0.6, 0.8, 0, 0, 0, 0, 0, 0.6837634587578276, -0.6837634587578276, 0.2279211529192759,
            0.11396057645963795}, gradient(2), 1e-15);
    }

    @Test
    void otherOrdersHaveZeroGradientsAtZeroElements() {
        assertArrayEquals(new double[] {0, -1, 1, 0, 0, 0, 0, 0, 1, -1, 1, 1}, gradient(1), 1e-15);
        assertArrayEquals(new double[] {0, -0.7329564758289748, 0.8463452372482763, 0, 0, 0, 0, 0, 0.7619603554389167,
            -0.7619603554389167, 0.4399180163244815, 0.31106901250917524}, gradient(1.5), 1e-14);
        assertArrayEquals(new double[] {0, -0.4448513517305356, 0.7908468475209521, 0, 0, 0, 0, 0, 0.62136021314451,
            -0.62136021314451, 0.06904002368272333, 0.017260005920680832}, gradient(3), 1e-14);
        assertArrayEquals(new double[] {0, -2.154700538379252, 1.8660254037844386, 0, 0, 0, 0, 0, 2.9855985596534893,
            -2.9855985596534893, 5.171208396324302, 7.313193047939451}, gradient(0.5), 1e-13);
    }

    @Test
    void infiniteNormsShareTheGradientAmongTies() {
        assertArrayEquals(new double[] {0, 0, 1, 0, 0, 0, 0, 0, 0.5, -0.5, 0, 0}, gradient(Double.POSITIVE_INFINITY), 0);
        assertArrayEquals(new double[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, gradient(Double.NEGATIVE_INFINITY), 0);
    }

    /** The whole tensor's norm, and a second derivative through createGraph (torch.autograd.grad twice). */
    @Test
    void theNormOfEverythingAndItsSecondDerivative() {
        Variable x = Variable.of(Tensor.of(X.clone(), 3, 4), true);
        x.norm().backward();
        assertArrayEquals(new double[] {0, -0.2970442628930023, 0.39605901719066977, 0, 0, 0, 0, 0, 0.5940885257860046,
            -0.5940885257860046, 0.19802950859533489, 0.09901475429766744}, x.grad().toDoubleArray(), 1e-15);
        Variable y = Variable.of(Tensor.of(new double[] {0.3, -0.4, 1.2}, 3), true);
        Variable g = Autograd.grad(y.norm(), y, true);
        assertArrayEquals(new double[] {0.23076923076923075, -0.3076923076923077, 0.923076923076923}, g.data().toDoubleArray(), 1e-15);
        Variable h = Autograd.grad(g.sum(), y, false);
        assertArrayEquals(new double[] {0.6190259444697314, 0.9695038689121529, 0.16841147018661806}, h.data().toDoubleArray(), 1e-14);
    }

    /** The count of nonzero elements has no gradient to give, as PyTorch's. */
    @Test
    void theZeroOrderNormIsAConstant() {
        Variable x = Variable.of(Tensor.of(X.clone(), 3, 4), true);
        assertFalse(x.norm(0, 1, false).requiresGrad());
    }
}
