package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** ELU, Mish, Softplus, Identity, Softmax and LogSoftmax against PyTorch 2.13: values and input gradients in float64. */
class MoreActivationsTest {
    private static final double[] X = {-3.0, -0.5, 0.0, 0.7, 100.0};

    /** The layer's output and the gradient of its sum, at X. */
    private static double[][] run(Layer layer, double[] x, DType dtype) {
        Variable in = Variable.of(Tensor.of(x.clone(), x.length).to(dtype), true);
        Variable out = layer.forward(in);
        out.sum().backward();
        return new double[][] {out.data().toDoubleArray(), in.grad().toDoubleArray()};
    }

    private static void assertLayer(Layer layer, double[] values, double[] grad) {
        double[][] got = run(layer, X, DType.FLOAT64);
        assertArrayEquals(values, got[0], 1e-15, layer + ": values");
        assertArrayEquals(grad, got[1], 1e-15, layer + ": gradient");
    }

    @Test
    void eluIsAlphaTimesExpm1BelowZeroWithAlphaAsItsSlopeAtZero() {
        assertLayer(new ELU(), new double[] {-0.950212931632136, -0.3934693402873666, 0, 0.7, 100},
                new double[] {0.049787068367863944, 0.6065306597126334, 1, 1, 1});
        assertLayer(new ELU(0.5), new double[] {-0.475106465816068, -0.1967346701436833, 0, 0.7, 100},
                new double[] {0.024893534183931972, 0.3032653298563167, 0.5, 1, 1});
        // e^100 overflows float32: the gradient at large inputs is still 1, not 0 * infinity
        assertArrayEquals(new double[] {1, 1}, run(new ELU(), new double[] {100, 95}, DType.FLOAT32)[1]);
        assertThrows(IllegalArgumentException.class, () -> new ELU(Double.NaN));
        assertEquals("ELU(alpha=0.5)", new ELU(0.5).toString());
    }

    @Test
    void mishAndSoftplus() {
        assertLayer(new Mish(), new double[] {-0.1456474612756246, -0.22074377465173, 0, 0.5611483776438518, 100},
                new double[] {-0.09339311453232084, 0.28951067791351226, 0.6, 0.9687948682001859, 1});
        assertLayer(new Softplus(), new double[] {0.04858735157374206, 0.4740769841801067, 0.6931471805599453, 1.103186048885458, 100},
                new double[] {0.04742587317756679, 0.37754066879814546, 0.5, 0.6681877721681662, 1});
    }

    @Test
    void identitySoftmaxAndLogSoftmax() {
        Variable x = Variable.of(Tensor.of(new double[] {1, 2, 3, 0, 0, 0}, 2, 3));
        assertSame(x, new Identity().forward(x));
        assertArrayEquals(x.softmax(1).data().toDoubleArray(), new Softmax(1).forward(x).data().toDoubleArray());
        assertArrayEquals(x.logSoftmax(-1).data().toDoubleArray(), new LogSoftmax(-1).forward(x).data().toDoubleArray());
        assertArrayEquals(new double[] {1. / 3, 1. / 3, 1. / 3}, new Softmax(1).forward(x).data().select(0, 1).toDoubleArray(), 1e-15);
        assertEquals("Softmax(dim=1)", new Softmax(1).toString());
    }
}
