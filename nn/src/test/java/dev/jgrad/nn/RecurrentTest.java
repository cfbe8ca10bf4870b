package dev.jgrad.nn;

import dev.jgrad.autograd.AutogradException;
import dev.jgrad.autograd.GradCheck;
import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** LSTM and GRU: gradients, layouts, stacking, PyTorch's parameter names. */
class RecurrentTest {
    @Test
    void lstmAndGruGradientsMatchCentralDifferences() {
        Generator gen = new Generator(12);
        int b = 2, t = 3, in = 4, h = 5;
        Tensor x = Tensor.randn(gen, b, t, in);
        Tensor h0 = Tensor.randn(gen, b, h);
        Tensor c0 = Tensor.randn(gen, b, h);
        Tensor wih = Tensor.randn(gen, 4 * h, in).mul(0.5);
        Tensor whh = Tensor.randn(gen, 4 * h, h).mul(0.5);
        Tensor bih = Tensor.randn(gen, 4 * h);
        GradCheck.Result lstm = GradCheck.check(v -> {
            Recurrent.State s = Recurrent.lstm(v[0], v[1], v[2], v[3], v[4], v[5], null);
            return s.output().sum(1).add(s.cell());
        }, x, h0, c0, wih, whh, bih);
        assertTrue(lstm.passed(), lstm.toString());
        GradCheck.Result gru = GradCheck.check(v -> Recurrent.gru(v[0], v[1], v[2], v[3], v[4], v[5]).output(),
                x, h0, wih.narrow(0, 0, 3 * h), whh.narrow(0, 0, 3 * h), bih.narrow(0, 0, 3 * h), bih.narrow(0, h, 3 * h));
        assertTrue(gru.passed(), gru.toString());
    }

    /**
     * Float32 runs the fused LSTM layer, float64 the composite of elementwise ops: values and every gradient
     * must agree, with both biases, one or none, for sizes that take every path of the matrix products
     * (the largest has W_hh^T too big to be read in place), and for an input that is a strided view.
     */
    @Test
    void theFusedFloat32LayerAgreesWithTheCompositeDefinition() {
        int[][] cases = {
            // batch, steps, input, hidden, biases (0 none, 1 ih only, 2 hh only, 3 both), input transposed
            {3, 4, 5, 6, 1, 0},
            {2, 7, 3, 9, 0, 1},
            {5, 3, 11, 13, 2, 0},
            {9, 6, 70, 72, 3, 1},
            {1, 5, 4, 3, 3, 0},
        };
        for (int[] c : cases) {
            compareFusedWithComposite(new Generator(21 + c[3]), c[0], c[1], c[2], c[3], c[4], c[5] == 1);
        }
    }

    private static void compareFusedWithComposite(Generator gen, int b, int t, int in, int h, int biases, boolean transposed) {
        String label = "batch " + b + ", steps " + t + ", input " + in + ", hidden " + h + ", biases " + biases
                + (transposed ? ", transposed input" : "");
        Tensor x = transposed ? Tensor.randn(gen, t, b, in).transpose(0, 1) : Tensor.randn(gen, b, t, in);
        Tensor[] inputs = {x, Tensor.randn(gen, b, h), Tensor.randn(gen, b, h), Tensor.randn(gen, 4 * h, in).mul(0.3),
            Tensor.randn(gen, 4 * h, h).mul(0.3), Tensor.randn(gen, 4 * h), Tensor.randn(gen, 4 * h)};
        Tensor weights = Tensor.randn(gen, b, t, h);
        Variable[][] runs = new Variable[2][];
        Recurrent.State[] states = new Recurrent.State[2];
        for (int k = 0; k < 2; k++) {
            DType dt = k == 0 ? DType.FLOAT32 : DType.FLOAT64;
            Variable[] v = new Variable[inputs.length];
            for (int i = 0; i < v.length; i++) {
                v[i] = Variable.of(inputs[i].to(dt), true);
            }
            Recurrent.State s = Recurrent.lstm(v[0], v[1], v[2], v[3], v[4], (biases & 1) != 0 ? v[5] : null,
                    (biases & 2) != 0 ? v[6] : null);
            // A weighted loss, so that every output position and both final states carry a distinct gradient.
            s.output().mul(Variable.of(weights.to(dt))).sum().add(s.cell().sum().mul(0.7)).add(s.hidden().square().sum()).backward();
            runs[k] = v;
            states[k] = s;
        }
        assertArrayEquals(states[1].output().data().toDoubleArray(), states[0].output().data().toDoubleArray(), 1e-5, label);
        assertArrayEquals(states[1].hidden().data().toDoubleArray(), states[0].hidden().data().toDoubleArray(), 1e-5, label);
        assertArrayEquals(states[1].cell().data().toDoubleArray(), states[0].cell().data().toDoubleArray(), 1e-5, label);
        for (int i = 0; i < inputs.length; i++) {
            if (runs[1][i].grad() == null) {
                assertNull(runs[0][i].grad(), label + ": input " + i + " was not used");
                continue;
            }
            double scale = Math.max(1, runs[1][i].grad().abs().amax().item());
            assertArrayEquals(runs[1][i].grad().toDoubleArray(), runs[0][i].grad().toDoubleArray(), 2e-5 * scale,
                    label + ": gradient of input " + i);
        }
    }

    /** A two-layer module, both layouts: the fused layers in float32 against the composite layer by layer in float64. */
    @Test
    void stackedLayersInBothLayoutsAgreeWithTheComposite() {
        for (boolean batchFirst : new boolean[] {true, false}) {
            Generator gen = new Generator(batchFirst ? 31 : 32);
            int b = 3, t = 5, in = 4, h = 7;
            LSTM lstm = new LSTM(in, h, 2, true, batchFirst, 0, gen);
            Tensor x = batchFirst ? Tensor.randn(gen, b, t, in) : Tensor.randn(gen, t, b, in);
            Variable xv = Variable.of(x, true);
            Recurrent.State s = lstm.forward(xv);
            s.output().square().sum().add(s.cell().sum()).backward();

            Variable xd = Variable.of(x.to(DType.FLOAT64), true);
            Variable layerIn = batchFirst ? xd : xd.transpose(0, 1);
            Variable cellSum = null;
            Map<String, Variable> p = new java.util.HashMap<>();
            for (Map.Entry<String, Parameter> e : lstm.namedParameters().entrySet()) {
                p.put(e.getKey(), Variable.of(e.getValue().data().to(DType.FLOAT64), true));
            }
            Variable zeros = Variable.of(Tensor.zeros(DType.FLOAT64, b, h));
            for (int l = 0; l < 2; l++) {
                Recurrent.State r = Recurrent.lstm(layerIn, zeros, zeros, p.get("weight_ih_l" + l), p.get("weight_hh_l" + l),
                        p.get("bias_ih_l" + l), p.get("bias_hh_l" + l));
                cellSum = cellSum == null ? r.cell().sum() : cellSum.add(r.cell().sum());
                layerIn = r.output();
            }
            Variable y = batchFirst ? layerIn : layerIn.transpose(0, 1);
            y.square().sum().add(cellSum).backward();
            String label = batchFirst ? "batch_first" : "time-major";
            assertArrayEquals(y.data().toDoubleArray(), s.output().data().toDoubleArray(), 1e-5, label);
            assertArrayEquals(xd.grad().toDoubleArray(), xv.grad().toDoubleArray(), 1e-4, label + ": gradient of x");
            for (Map.Entry<String, Parameter> e : lstm.namedParameters().entrySet()) {
                assertArrayEquals(p.get(e.getKey()).grad().toDoubleArray(), e.getValue().grad().toDoubleArray(), 1e-4,
                        label + ": gradient of " + e.getKey());
            }
        }
    }

    /** The two biases get equal gradients in two tensors: scaling one in place (as gradient clipping does) leaves the other. */
    @Test
    void theBiasesGetTheirOwnGradientTensors() {
        LSTM lstm = new LSTM(3, 4, 1, true);
        lstm.forward(Variable.of(Tensor.randn(new Generator(6), 2, 3, 3))).output().sum().backward();
        Tensor gi = lstm.namedParameters().get("bias_ih_l0").grad();
        Tensor gh = lstm.namedParameters().get("bias_hh_l0").grad();
        assertArrayEquals(gi.toDoubleArray(), gh.toDoubleArray(), 0.0);
        double before = gh.abs().sum().item();
        gi.muli(0);
        assertEquals(before, gh.abs().sum().item(), 0.0);
        assertTrue(before > 0);
    }

    /** The fused op saves the weights: changing one in place before backward is refused, as in PyTorch. */
    @Test
    void aWeightChangedInPlaceBeforeBackwardIsRefused() {
        LSTM lstm = new LSTM(3, 4, 1, true);
        Recurrent.State s = lstm.forward(Variable.of(Tensor.randn(new Generator(5), 2, 3, 3)));
        lstm.namedParameters().get("weight_hh_l0").data().muli(2);
        AutogradException e = assertThrows(AutogradException.class, () -> s.output().sum().backward());
        assertTrue(e.getMessage().contains("modified by an inplace operation"), e.getMessage());
    }

    @Test
    void anLstmStepIsTheGateEquations() {
        // one step, one unit, in = 1: gates i f g o from w_ih = [1, 2, 3, 4], w_hh = 0, no bias
        LSTM lstm = new LSTM(1, 1, 1, false, true, 0, new Generator(1));
        lstm.loadStateDict(java.util.Map.of("weight_ih_l0", Tensor.of(new float[] {1, 2, 3, 4}, 4, 1),
                "weight_hh_l0", Tensor.zeros(4, 1)));
        Recurrent.State s = lstm.forward(Variable.of(Tensor.of(new float[] {0.5f}, 1, 1, 1)));
        double i = sig(0.5), f = sig(1.0), g = Math.tanh(1.5), o = sig(2.0);
        double c = i * g;
        assertEquals(c, s.cell().data().getDouble(0, 0, 0), 1e-6);
        assertEquals(o * Math.tanh(c), s.hidden().data().getDouble(0, 0, 0), 1e-6);
        assertEquals(f * 0 + c, s.cell().data().getDouble(0, 0, 0), 1e-6);
    }

    private static double sig(double z) {
        return 1 / (1 + Math.exp(-z));
    }

    @Test
    void layoutsAndLayersGiveTheShapesPyTorchGives() {
        Generator gen = new Generator(13);
        LSTM lstm = new LSTM(3, 5, 2, true, false, 0, gen);
        Tensor x = Tensor.randn(gen, 7, 2, 3);
        Recurrent.State s = lstm.forward(Variable.of(x));
        assertArrayEquals(new int[] {7, 2, 5}, s.output().shape());
        assertArrayEquals(new int[] {2, 2, 5}, s.hidden().shape());
        assertArrayEquals(new int[] {2, 2, 5}, s.cell().shape());
        // the last layer's last hidden state is the output's last step
        assertArrayEquals(s.output().data().select(0, 6).contiguous().toDoubleArray(),
                s.hidden().data().select(0, 1).contiguous().toDoubleArray(), 1e-7);
        Recurrent.State single = lstm.forward(Variable.of(x.select(1, 1)));
        assertArrayEquals(new int[] {7, 5}, single.output().shape());
        assertArrayEquals(s.output().data().select(1, 1).contiguous().toDoubleArray(),
                single.output().data().contiguous().toDoubleArray(), 1e-6);
        GRU gru = new GRU(3, 4, 3, true);
        Recurrent.State g = gru.forward(Variable.of(Tensor.randn(gen, 2, 6, 3)));
        assertArrayEquals(new int[] {2, 6, 4}, g.output().shape());
        assertArrayEquals(new int[] {3, 2, 4}, g.hidden().shape());
        assertNull(g.cell());
    }

    @Test
    void parametersHavePyTorchsNamesShapesAndInitBound() {
        LSTM lstm = new LSTM(3, 16, 2, false);
        assertEquals(List.of("weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0",
                "weight_ih_l1", "weight_hh_l1", "bias_ih_l1", "bias_hh_l1"), List.copyOf(lstm.stateDict().keySet()));
        assertArrayEquals(new int[] {64, 3}, lstm.stateDict().get("weight_ih_l0").shape());
        assertArrayEquals(new int[] {64, 16}, lstm.stateDict().get("weight_ih_l1").shape());
        for (Tensor p : lstm.stateDict().values()) {
            assertTrue(p.abs().amax().item() <= 0.25);
        }
        assertArrayEquals(new int[] {48, 16}, new GRU(3, 16).stateDict().get("weight_hh_l0").shape());
    }

    @Test
    void badInputIsRefusedByName() {
        LSTM lstm = new LSTM(3, 4, 1, true);
        ShapeException size = assertThrows(ShapeException.class, () -> lstm.forward(Variable.of(Tensor.zeros(2, 5, 6))));
        assertTrue(size.getMessage().contains("Expected 3, got 6"), size.getMessage());
        ShapeException state = assertThrows(ShapeException.class,
                () -> lstm.forward(Variable.of(Tensor.zeros(2, 5, 3)), Variable.of(Tensor.zeros(1, 3, 4)), Variable.of(Tensor.zeros(1, 2, 4))));
        assertTrue(state.getMessage().contains("h0 of size [1, 2, 4]"), state.getMessage());
        assertThrows(ShapeException.class, () -> lstm.forward(Variable.of(Tensor.zeros(DType.FLOAT32, 5))));
        ShapeException empty = assertThrows(ShapeException.class, () -> lstm.forward(Variable.of(Tensor.zeros(2, 0, 3))));
        assertTrue(empty.getMessage().contains("sequence length to be larger than 0"), empty.getMessage());
    }
}
