package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The fused float32 LSTM layer, forward and backward through time, against the definition computed in float64 by
 * direct loops (PyTorch's gates i, f, g, o), with and without biases, over sizes past the vector width; in each of the
 * build's executions. (nn's RecurrentTest holds the layer to its differentiable composite.)
 */
class FusedLstmTest {
    private static double sigmoid(double v) {
        return 1 / (1 + Math.exp(-v));
    }

    @Test
    void forwardAndBackwardThroughTimeMatchTheDefinition() {
        Random r = new Random(13);
        Generator gen = new Generator(13);
        for (int trial = 0; trial < 8; trial++) {
            int steps = 1 + r.nextInt(6);
            int batch = 1 + r.nextInt(4);
            int in = 1 + r.nextInt(trial % 2 == 0 ? 20 : 5);
            int h = 1 + r.nextInt(trial % 3 == 0 ? 24 : 6);
            boolean biases = trial % 4 != 3;
            Tensor x = Tensor.randn(gen, steps, batch, in);
            Tensor h0 = Tensor.randn(gen, batch, h);
            Tensor c0 = Tensor.randn(gen, batch, h);
            Tensor wIh = Tensor.randn(gen, 4 * h, in).mul(0.3);
            Tensor wHh = Tensor.randn(gen, 4 * h, h).mul(0.3);
            Tensor bIh = biases ? Tensor.randn(gen, 4 * h) : null;
            Tensor bHh = biases ? Tensor.randn(gen, 4 * h) : null;
            double[] xs = x.toDoubleArray();
            double[] wi = wIh.toDoubleArray();
            double[] wh = wHh.toDoubleArray();
            double[] bi = biases ? bIh.toDoubleArray() : new double[4 * h];
            double[] bh = biases ? bHh.toDoubleArray() : new double[4 * h];
            // Forward: gates, states and outputs of every step.
            double[][] hs = new double[steps + 1][];
            double[][] cs = new double[steps + 1][];
            double[][] gates = new double[steps][];
            hs[0] = h0.toDoubleArray();
            cs[0] = c0.toDoubleArray();
            double[] want = new double[steps * batch * 2 * h];
            for (int t = 0; t < steps; t++) {
                gates[t] = new double[batch * 4 * h];
                hs[t + 1] = new double[batch * h];
                cs[t + 1] = new double[batch * h];
                for (int b = 0; b < batch; b++) {
                    for (int q = 0; q < 4 * h; q++) {
                        double a = bi[q] + bh[q];
                        for (int k = 0; k < in; k++) {
                            a += wi[q * in + k] * xs[(t * batch + b) * in + k];
                        }
                        for (int k = 0; k < h; k++) {
                            a += wh[q * h + k] * hs[t][b * h + k];
                        }
                        gates[t][b * 4 * h + q] = q / h == 2 ? Math.tanh(a) : sigmoid(a);
                    }
                    for (int j = 0; j < h; j++) {
                        double[] gt = gates[t];
                        int o = b * 4 * h;
                        double c = gt[o + h + j] * cs[t][b * h + j] + gt[o + j] * gt[o + 2 * h + j];
                        cs[t + 1][b * h + j] = c;
                        hs[t + 1][b * h + j] = gt[o + 3 * h + j] * Math.tanh(c);
                        want[(t * batch + b) * 2 * h + j] = hs[t + 1][b * h + j];
                        want[(t * batch + b) * 2 * h + h + j] = c;
                    }
                }
            }
            FusedLstm.LstmForward f = FusedLstm.lstm(x, h0, c0, wIh, wHh, bIh, bHh);
            String what = "trial " + trial + " T=" + steps + " B=" + batch + " In=" + in + " H=" + h + " biases=" + biases;
            assertClose(want, f.output().toDoubleArray(), 1e-4, what + ": output");
            // Backward through time.
            Tensor grad = Tensor.randn(gen, steps, batch, 2 * h);
            double[] gy = grad.toDoubleArray();
            double[] dx = new double[xs.length];
            double[] dwi = new double[wi.length];
            double[] dwh = new double[wh.length];
            double[] db = new double[4 * h];
            double[] dhNext = new double[batch * h];
            double[] dcNext = new double[batch * h];
            for (int t = steps - 1; t >= 0; t--) {
                double[] dhPrev = new double[batch * h];
                double[] dcPrev = new double[batch * h];
                for (int b = 0; b < batch; b++) {
                    double[] dGates = new double[4 * h];
                    int o = b * 4 * h;
                    double[] gt = gates[t];
                    for (int j = 0; j < h; j++) {
                        double c = cs[t + 1][b * h + j];
                        double tc = Math.tanh(c);
                        double dh = gy[(t * batch + b) * 2 * h + j] + dhNext[b * h + j];
                        double dc = gy[(t * batch + b) * 2 * h + h + j] + dcNext[b * h + j] + dh * gt[o + 3 * h + j] * (1 - tc * tc);
                        double i = gt[o + j];
                        double fg = gt[o + h + j];
                        double g = gt[o + 2 * h + j];
                        double og = gt[o + 3 * h + j];
                        dGates[j] = dc * g * i * (1 - i);
                        dGates[h + j] = dc * cs[t][b * h + j] * fg * (1 - fg);
                        dGates[2 * h + j] = dc * i * (1 - g * g);
                        dGates[3 * h + j] = dh * tc * og * (1 - og);
                        dcPrev[b * h + j] = dc * fg;
                    }
                    for (int q = 0; q < 4 * h; q++) {
                        db[q] += dGates[q];
                        for (int k = 0; k < in; k++) {
                            dx[(t * batch + b) * in + k] += dGates[q] * wi[q * in + k];
                            dwi[q * in + k] += dGates[q] * xs[(t * batch + b) * in + k];
                        }
                        for (int k = 0; k < h; k++) {
                            dhPrev[b * h + k] += dGates[q] * wh[q * h + k];
                            dwh[q * h + k] += dGates[q] * hs[t][b * h + k];
                        }
                    }
                }
                dhNext = dhPrev;
                dcNext = dcPrev;
            }
            FusedLstm.LstmGradients d = FusedLstm.lstmBackward(grad, f, x, wIh, wHh,
                    new boolean[] {true, true, true, true, true, true});
            assertClose(dx, d.x().toDoubleArray(), 2e-4, what + ": input gradient");
            assertClose(dhNext, d.h0().toDoubleArray(), 2e-4, what + ": h0 gradient");
            assertClose(dcNext, d.c0().toDoubleArray(), 2e-4, what + ": c0 gradient");
            assertClose(dwi, d.wIh().toDoubleArray(), 2e-4, what + ": weight_ih gradient");
            assertClose(dwh, d.wHh().toDoubleArray(), 2e-4, what + ": weight_hh gradient");
            assertClose(db, d.bias().toDoubleArray(), 2e-4, what + ": bias gradient");
        }
    }

    private static void assertClose(double[] expected, double[] actual, double tolerance, String what) {
        assertEquals(expected.length, actual.length, what);
        double scale = 1;
        for (double e : expected) {
            scale = Math.max(scale, Math.abs(e));
        }
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], tolerance * scale, what + " at " + i);
        }
    }
}
