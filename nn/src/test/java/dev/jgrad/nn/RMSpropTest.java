package dev.jgrad.nn;

import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.nn.optim.RMSprop;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** RMSprop against torch.optim.RMSprop (PyTorch 2.13): five steps of fixed gradients, in float64 and float32. */
class RMSpropTest {
    /** The parameter after {@code steps} steps of the gradients PyTorch's script gave, from (0.5, -1, 2, 0). */
    private static Tensor trained(DType dtype, Function<List<Parameter>, Optimizer> make, int from, int steps, Optimizer[] keep) {
        Parameter p = new Parameter(Tensor.of(new double[] {0.5, -1.0, 2.0, 0.0}, 4).to(dtype));
        Optimizer o = make.apply(List.of(p));
        keep[0] = o;
        for (int t = from; t < from + steps; t++) {
            p.setGrad(Tensor.of(new double[] {0.3 * t - 0.2, 1.0 / (t + 1), -0.7, 0.05 * t * t}, 4).to(dtype));
            o.step();
        }
        return p.data();
    }

    private static void assertMatches(double[] want64, double[] want32, Function<List<Parameter>, Optimizer> make) {
        Optimizer[] o = new Optimizer[1];
        assertArrayEquals(want64, trained(DType.FLOAT64, make, 0, 5, o).toDoubleArray(), 1e-14);
        float[] w32 = new float[want32.length];
        for (int i = 0; i < w32.length; i++) {
            w32[i] = (float) want32[i];
        }
        assertArrayEquals(w32, trained(DType.FLOAT32, make, 0, 5, o).toFloatArray(), 2e-6f);
    }

    @Test
    void defaults() {
        assertMatches(new double[] {0.30685752506993114, -1.211751639892343, 2.324460526724332, -0.3732182957386476},
                new double[] {0.306857526, -1.21175158, 2.32446027, -0.373218298}, ps -> new RMSprop(ps, 0.01));
    }

    @Test
    void alphaEpsAndWeightDecay() {
        assertMatches(new double[] {0.43670713872172434, -1.0700194786038917, 2.106452525665709, -0.11874080380188193},
                new double[] {0.436707139, -1.07001936, 2.1064527, -0.118740804}, ps -> new RMSprop(ps, 0.01, 0.9, 1e-6, 0, 0, false));
        assertMatches(new double[] {0.27797901710634765, -1.1835797789770366, 2.32060585201597, -0.3731695552588679},
                new double[] {0.277979016, -1.18357968, 2.32060599, -0.373169541}, ps -> new RMSprop(ps, 0.01, 0.99, 1e-8, 0.1, 0, false));
    }

    @Test
    void momentumAndCentered() {
        assertMatches(new double[] {0.2818120680676857, -1.6991393310307619, 2.9514282222128374, -0.864958453282696},
                new double[] {0.281812131, -1.69913924, 2.95142817, -0.864958465}, ps -> new RMSprop(ps, 0.01, 0.99, 1e-8, 0, 0.9, false));
        assertMatches(new double[] {0.3055998580700463, -1.213647978264268, 2.32873391532763, -0.3764512743620522},
                new double[] {0.305599868, -1.21364796, 2.32873392, -0.376451313}, ps -> new RMSprop(ps, 0.01, 0.99, 1e-8, 0, 0, true));
        assertMatches(new double[] {0.38188193612735605, -1.177050478063139, 2.2645033156007366, -0.27032344625710536},
                new double[] {0.381881922, -1.17705047, 2.26450324, -0.270323455}, ps -> new RMSprop(ps, 0.01, 0.95, 1e-8, 0.01, 0.5, true));
    }

    /** Its state (square_avg, grad_avg, momentum_buffer) saved after two steps and loaded into a new one goes on as one run. */
    @Test
    void itsStateResumesToTheSameBits() {
        Function<List<Parameter>, Optimizer> make = ps -> new RMSprop(ps, 0.01, 0.95, 1e-8, 0.01, 0.5, true);
        Optimizer[] o = new Optimizer[1];
        Tensor whole = trained(DType.FLOAT32, make, 0, 5, o);
        Tensor firstTwo = trained(DType.FLOAT32, make, 0, 2, o);
        var tensors = o[0].stateTensors();
        var meta = o[0].stateMetadata();
        assertEquals(List.of("state.0.square_avg", "state.0.grad_avg", "state.0.momentum_buffer"), List.copyOf(tensors.keySet()));
        Parameter p = new Parameter(firstTwo.clone());
        Optimizer resumed = make.apply(List.of(p));
        resumed.loadState(tensors, meta);
        for (int t = 2; t < 5; t++) {
            p.setGrad(Tensor.of(new double[] {0.3 * t - 0.2, 1.0 / (t + 1), -0.7, 0.05 * t * t}, 4).to(DType.FLOAT32));
            resumed.step();
        }
        assertArrayEquals(whole.toFloatArray(), p.data().toFloatArray());
    }

    @Test
    void negativeSettingsAreRefused() {
        List<Parameter> ps = List.of(new Parameter(Tensor.zeros(2)));
        assertThrows(IllegalArgumentException.class, () -> new RMSprop(ps, 0.01, -0.1, 1e-8, 0, 0, false));
        assertThrows(IllegalArgumentException.class, () -> new RMSprop(ps, 0.01, 0.99, -1, 0, 0, false));
        assertThrows(IllegalArgumentException.class, () -> new RMSprop(ps, 0.01, 0.99, 1e-8, 0, -0.5, false));
        assertThrows(IllegalArgumentException.class, () -> new RMSprop(ps, -0.01));
    }
}
