package dev.jgrad.autograd;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Autograd.grad, createGraph to any order, PyTorch's errors, and the helpers of torch.autograd.functional. */
class HigherOrderTest {
    private static final Generator GEN = new Generator(5);

    private static Tensor randn(int... shape) {
        return Tensor.randn(GEN, shape).to(DType.FLOAT64);
    }

    private static void close(Tensor expected, Tensor got) {
        assertArrayEquals(expected.shape(), got.shape());
        double[] e = expected.toDoubleArray();
        double[] g = got.toDoubleArray();
        for (int i = 0; i < e.length; i++) {
            assertEquals(e[i], g[i], 1e-9 * Math.max(1, Math.abs(e[i])), "element " + i);
        }
    }

    @Test
    void thirdDerivativeOfAPolynomialTimesASine() {
        // f = x^4 sin(x): f''' = 24x sin x + 36x^2 cos x - 12x^3 sin x - x^4 cos x
        Tensor xs = randn(5);
        Variable x = Variable.of(xs, true);
        Variable f = x.pow(4.0).mul(x.sin()).sum();
        Variable d1 = Autograd.grad(f, x, true);
        Variable d2 = Autograd.grad(d1.sum(), x, true);
        Variable d3 = Autograd.grad(d2.sum(), x, false);
        Tensor s = xs.sin();
        Tensor c = xs.cos();
        Tensor want = xs.mul(24).mul(s).add(xs.square().mul(36).mul(c)).sub(xs.pow(3.0).mul(12).mul(s)).sub(xs.pow(4.0).mul(c));
        close(want, d3.data());
        assertFalse(d3.requiresGrad(), "without createGraph the gradient is a constant");
        assertNull(x.grad(), "grad accumulates nothing into .grad");
    }

    @Test
    void backwardWithCreateGraphLeavesAGradientThatCanBeDifferentiated() {
        Tensor xs = randn(4);
        Variable x = Variable.of(xs, true);
        x.exp().mul(x).sum().backward((Tensor) null, false, true);
        Variable g = x.gradVariable();
        assertTrue(g.requiresGrad());
        close(xs.exp().mul(xs.add(1.0)), g.data());
        Variable gg = Autograd.grad(g.sum(), x, false);
        close(xs.exp().mul(xs.add(2.0)), gg.data());
    }

    @Test
    void aGradientWithRespectToAnIntermediateIsItsPartialDerivative() {
        Variable x = Variable.of(randn(3), true);
        Variable y = x.mul(2.0);
        Variable z = y.mul(x).sum();
        List<Variable> g = Autograd.grad(List.of(z), List.of(y, x), null, false, false, false);
        close(x.data(), g.get(0).data());
        close(x.data().mul(4.0), g.get(1).data());
    }

    @Test
    void retainGraphDefaultsToCreateGraph() {
        Variable x = Variable.of(randn(3), true);
        Variable s = x.exp().sum();
        Autograd.grad(s, x, true);
        Autograd.grad(s, x, true);
        Autograd.grad(s, x, false);
        AutogradException e = assertThrows(AutogradException.class, () -> Autograd.grad(s, x, false));
        assertTrue(e.getMessage().startsWith("Trying to backward through the graph a second time"), e.getMessage());
        assertTrue(e.getMessage().contains("retainGraph"), e.getMessage());
    }

    @Test
    void pytorchsErrorsWithTheShapesAndInputsNamed() {
        Variable x = Variable.of(randn(2, 3), true);
        Variable c = Variable.of(randn(2, 3));
        AutogradException noGrad = assertThrows(AutogradException.class, () -> Autograd.grad(c.sum(), x));
        assertTrue(noGrad.getMessage().startsWith("element 0 of tensors does not require grad"), noGrad.getMessage());
        AutogradException input = assertThrows(AutogradException.class, () -> Autograd.grad(x.sum(), c));
        assertTrue(input.getMessage().startsWith("One of the differentiated Tensors does not require grad"), input.getMessage());
        Variable w = Variable.of(randn(3), true);
        AutogradException unused = assertThrows(AutogradException.class,
                () -> Autograd.grad(List.of(x.exp().sum()), List.of(x, w), null, false, false, false));
        assertTrue(unused.getMessage().contains("allowUnused=true") && unused.getMessage().contains("input 1, of shape [3]"),
                unused.getMessage());
        assertNull(Autograd.grad(List.of(x.exp().sum()), List.of(x, w), null, false, false, true).get(1));
        ShapeException shape = assertThrows(ShapeException.class,
                () -> Autograd.grad(x.exp(), List.of(x), Variable.of(randn(3)), false));
        assertTrue(shape.getMessage().contains("[3]") && shape.getMessage().contains("[2, 3]"), shape.getMessage());
        AutogradException scalar = assertThrows(AutogradException.class, () -> Autograd.grad(x.exp(), x));
        assertTrue(scalar.getMessage().startsWith("grad can be implicitly created only for scalar outputs"), scalar.getMessage());
    }

    @Test
    void aFusedRuleWithoutADefinitionRefusesToBeDifferentiatedAgainByName() {
        Variable x = Variable.of(randn(3), true);
        Variable y = CustomFunction.apply("my_square", x.data().square(), new Variable[] {x}, new Tensor[] {x.data()},
                (g, saved, needs) -> new Tensor[] {g.mul(saved[0]).mul(2.0)});
        Variable g = Autograd.grad(y.sum(), x, false);
        close(x.data().mul(2.0), g.data());
        Variable y2 = CustomFunction.apply("my_square", x.data().square(), new Variable[] {x}, new Tensor[] {x.data()},
                (gg, saved, needs) -> new Tensor[] {gg.mul(saved[0]).mul(2.0)});
        AutogradException e = assertThrows(AutogradException.class, () -> Autograd.grad(y2.sum(), x, true));
        assertTrue(e.getMessage().contains("'my_square'") && e.getMessage().contains("cannot be differentiated again"), e.getMessage());
    }

    @Test
    void aFusedRuleWithADefinitionIsDifferentiatedThroughIt() {
        Tensor xs = randn(3);
        Variable x = Variable.of(xs, true);
        Variable y = CustomFunction.apply("my_cube", xs.pow(3.0), new Variable[] {x}, new Tensor[] {xs},
                (g, saved, needs) -> new Tensor[] {g.mul(saved[0].square()).mul(3.0)}, in -> in[0].pow(3.0));
        Variable d1 = Autograd.grad(y.sum(), x, true);
        close(xs.square().mul(3.0), d1.data());
        close(xs.mul(6.0), Autograd.grad(d1.sum(), x).data());
    }

    @Test
    void functionalHelpersAgreeWithTheJacobianAndHessian() {
        Tensor a = randn(4, 3);
        Tensor xs = randn(3);
        // f(x) = tanh(A x): J = diag(1 - tanh^2(Ax)) A
        Tensor jac = Autograd.jacobian(x -> Variable.of(a).matmul(x).tanh(), xs);
        Tensor t = a.matmul(xs).tanh();
        Tensor want = t.square().rsub(1.0).unsqueeze(1).mul(a);
        close(want, jac);
        Tensor v = randn(3);
        Tensor u = randn(4);
        close(want.matmul(v), Autograd.jvp(in -> Variable.of(a).matmul(in[0]).tanh(), new Tensor[] {xs}, new Tensor[] {v})
                .derivatives().get(0));
        close(u.matmul(want), Autograd.vjp(in -> Variable.of(a).matmul(in[0]).tanh(), new Tensor[] {xs}, u).derivatives().get(0));
        // g(x) = sum(x^3) + x0 x1: H = diag(6x) + the off-diagonal 1s of x0 x1
        Tensor hess = Autograd.hessian(x -> x.pow(3.0).sum().add(x.select(0, 0).mul(x.select(0, 1))), xs);
        Tensor h = Tensor.zeros(DType.FLOAT64, 3, 3);
        for (int i = 0; i < 3; i++) {
            h.set(6 * xs.getDouble(i), i, i);
        }
        h.set(1.0, 0, 1);
        h.set(1.0, 1, 0);
        close(h, hess);
        close(h.matmul(v), Autograd.hvp(in -> in[0].pow(3.0).sum().add(in[0].select(0, 0).mul(in[0].select(0, 1))),
                new Tensor[] {xs}, new Tensor[] {v}).derivatives().get(0));
        assertThrows(ShapeException.class, () -> Autograd.hvp(in -> in[0].exp(), new Tensor[] {xs}, new Tensor[] {v}));
        assertThrows(ShapeException.class, () -> Autograd.jvp(in -> in[0].exp(), new Tensor[] {xs}, new Tensor[] {randn(2)}));
    }

    @Test
    void anInfinityThatFirstAppearsInASecondDerivativeIsNamedByAnomalyMode() {
        // x^1.5 at 0: the first derivative 1.5 x^0.5 is 0, the second 0.75 x^-0.5 is infinite.
        Variable x = Variable.of(Tensor.of(new double[] {0.0, 1.0}, 2), true);
        try (Anomaly a = Anomaly.enable()) {
            Variable g = Autograd.grad(x.pow(1.5).sum(), x, true);
            close(Tensor.of(new double[] {0.0, 1.5}, 2), g.data());
            AnomalyException e = assertThrows(AnomalyException.class, () -> Autograd.grad(g.sum(), x));
            assertTrue(e.getMessage().startsWith("anomaly in backward: the gradient of 'pow'"), e.getMessage());
        }
    }
}
