package dev.jgrad.autograd;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Gradients of slices, selects and diagonals are added into their region of one gradient buffer per
 * input, by the engine. These cases mix that with the ordinary sums: pieces left unused, an input used
 * both whole and in pieces, a gradient passed on to two inputs, leaves, and a graph run backward twice.
 */
class ViewGradientTest {
    private static final Generator G = new Generator(44);

    private static void gradcheck(String what, java.util.function.Function<Variable[], Variable> fn, Tensor... inputs) {
        GradCheck.Result r = GradCheck.check(fn, inputs);
        assertTrue(r.passed(), what + ": " + r);
    }

    @Test
    void piecesOfANonLeafSomeUnusedSomeTwice() {
        Tensor x = Tensor.randn(G, 2, 3, 12);
        gradcheck("chunk pieces 0 and 2 of a product", v -> {
            Variable h = v[0].mul(v[0]);
            List<Variable> qkv = h.chunk(3, -1);
            return qkv.get(0).mul(qkv.get(2)).add(qkv.get(2).exp());
        }, x);
        gradcheck("an input used whole and in pieces", v -> {
            Variable h = v[0].tanh();
            List<Variable> parts = h.split(new int[] {5, 7}, -1);
            return h.sum(-1, true).mul(parts.get(1)).add(parts.get(0).sum(-1, true));
        }, x);
        // add passes one gradient object on to both of its inputs; a slice's gradient then arriving at one
        // of them must not be added into that object, which the other input is still waiting with.
        gradcheck("a slice's gradient after a shared one", v -> {
            Variable h = v[0].mul(2.0);
            Variable h2 = v[0].mul(3.0).tanh();
            return h.add(h2).sum().add(h.slice(2, 0, 4).exp().sum());
        }, x);
        gradcheck("a shared gradient after a slice's", v -> {
            Variable h = v[0].mul(2.0);
            Variable h2 = v[0].mul(3.0).tanh();
            return h.slice(2, 0, 4).exp().sum().add(h.add(h2).sum());
        }, x);
        gradcheck("a gradient passed on to both operands of an add, then sliced", v -> {
            Variable h = v[0].mul(2.0);
            Variable twice = h.add(h);
            return twice.slice(2, 1, 9).add(h.slice(2, 0, 8)).exp();
        }, x);
    }

    @Test
    void selectsUnbindAndDiagonalsOfLeavesAndNonLeaves() {
        Tensor a = Tensor.randn(G, 4, 5, 6);
        gradcheck("unbind of a leaf", v -> {
            List<Variable> rows = v[0].unbind(1);
            return rows.get(0).mul(rows.get(3)).add(rows.get(4));
        }, a);
        gradcheck("select then diagonal of a non-leaf", v -> {
            Variable h = v[0].exp();
            return h.select(0, 2).diagonal(0, 0, 1).mul(h.diagonal(1, 1, 2).select(0, 1));
        }, a);
    }

    @Test
    void leafGradientsAccumulateAcrossBackwardCallsAndRetainedGraphs() {
        Variable w = Variable.of(Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3), true);
        Variable loss = w.slice(1, 0, 2).mul(3.0).sum().add(w.select(0, 1).sum());
        loss.backward(null, true);
        float[] once = {3, 3, 0, 4, 4, 1};
        assertArrayEquals(once, w.grad().toFloatArray(), 0f);
        loss.backward(null, true);
        assertArrayEquals(new float[] {6, 6, 0, 8, 8, 2}, w.grad().toFloatArray(), 0f, "a retained graph adds again");
        w.zeroGrad();
        w.slice(1, 2, 3).sum().backward();
        assertArrayEquals(new float[] {0, 0, 1, 0, 0, 1}, w.grad().toFloatArray(), 0f, "the zeroed buffer is reused");
        Variable h = Variable.of(Tensor.ones(DType.FLOAT32, 2, 3), true);
        Variable used = h.mul(2.0);
        Variable l2 = used.slice(0, 0, 1).sum();
        l2.backward(null, true);
        l2.backward();
        assertArrayEquals(new float[] {4, 4, 4, 0, 0, 0}, h.grad().toFloatArray(), 0f, "each backward pass has buffers of its own");
    }

    @Test
    void sharedGradientsAreNeverAddedIntoInPlace() {
        // add hands one gradient object to both inputs. Whatever order the engine meets the other uses
        // of h and h2 in, a later gradient for one must not be added into the object the other holds.
        Tensor x = Tensor.randn(G, 3, 5);
        int[][] orders = {{0, 1, 2, 3}, {1, 2, 3, 0}, {2, 3, 0, 1}, {3, 0, 1, 2}, {3, 2, 1, 0}, {1, 0, 3, 2}, {2, 0, 3, 1}};
        for (int[] order : orders) {
            gradcheck("terms in order " + java.util.Arrays.toString(order), v -> {
                Variable h = v[0].mul(2.0);
                Variable h2 = v[0].mul(3.0).tanh();
                Variable[] terms = {h.add(h2), h.exp(), h2.square(), h.mul(h2).slice(1, 1, 4).sum(1, true)};
                Variable out = terms[order[0]];
                for (int i = 1; i < order.length; i++) {
                    out = out.add(terms[order[i]]);
                }
                return out;
            }, x);
        }
    }
}
