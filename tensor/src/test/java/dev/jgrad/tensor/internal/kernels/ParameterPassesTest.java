package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.internal.fused.AdamStep;
import dev.jgrad.tensor.internal.fused.ParameterPasses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The optimizer's passes over many tensors in one job give what a pass per tensor gives, at 1 thread and at 2 (the
 * helpers run whatever else the machine is doing, so the shares really are split), over tensors of sizes around the
 * norm's chunks and the split threshold, one of them empty, at offsets.
 */
@ExtendWith(HelpersAlwaysRun.class)
class ParameterPassesTest {
    private static final int[] SIZES = {70_001, 128, 0, 3, 40_000, 16_384};

    private static Tensor[] tensors(Generator gen, double scale) {
        Tensor[] ts = new Tensor[SIZES.length];
        for (int i = 0; i < SIZES.length; i++) {
            // At an offset in a larger array, as a view of one.
            ts[i] = Tensor.randn(gen, SIZES[i] + 5).mul(scale).narrow(0, 5, SIZES[i]);
        }
        return ts;
    }

    private static Tensor[] clones(Tensor[] ts) {
        Tensor[] out = new Tensor[ts.length];
        for (int i = 0; i < ts.length; i++) {
            out[i] = ts[i].clone();
        }
        return out;
    }

    private static void atThreads(java.util.function.IntConsumer body) {
        for (int threads : new int[] {1, 2}) {
            Parallel.setThreads(threads);
            body.accept(threads);
        }
    }

    @Test
    void everyElementIsHandedOutExactlyOnce() {
        atThreads(threads -> {
            AtomicIntegerArray[] seen = new AtomicIntegerArray[SIZES.length];
            for (int i = 0; i < SIZES.length; i++) {
                seen[i] = new AtomicIntegerArray(SIZES[i]);
            }
            ParameterPasses.forEachShare(SIZES, (i, from, to) -> {
                for (int k = from; k < to; k++) {
                    seen[i].incrementAndGet(k);
                }
            });
            for (int i = 0; i < SIZES.length; i++) {
                for (int k = 0; k < SIZES[i]; k++) {
                    assertEquals(1, seen[i].get(k), threads + " thread(s): tensor " + i + ", element " + k);
                }
            }
        });
    }

    @Test
    void adamOverAllParametersEqualsAStepPerParameterBitForBit() {
        Generator gen = new Generator(3);
        Tensor[] p0 = tensors(gen, 1);
        Tensor[] g = tensors(gen, 1);
        Tensor[] m0 = tensors(gen, 0.01);
        Tensor[] v0 = tensors(gen, 0.01);
        for (int i = 0; i < v0.length; i++) {
            v0[i] = v0[i].abs();
        }
        int n = SIZES.length;
        double[] decay = new double[n];
        double[] l2 = new double[n];
        double[] stepSize = new double[n];
        double[] bc2Sqrt = new double[n];
        for (int i = 0; i < n; i++) {
            decay[i] = i % 2 == 0 ? 1 - 1e-3 * 0.1 : 1;
            l2[i] = i == 3 ? 0.01 : 0;
            stepSize[i] = 0.003 * (i + 1);
            bc2Sqrt[i] = 0.14 + 0.01 * i;
        }
        Tensor[] want = clones(p0);
        Tensor[] wantM = clones(m0);
        Tensor[] wantV = clones(v0);
        for (int i = 0; i < n; i++) {
            if (decay[i] != 1) {
                want[i].muli(decay[i]);
            }
            AdamStep.adam(want[i], g[i], wantM[i], wantV[i], 0.9, 0.99, l2[i], stepSize[i], bc2Sqrt[i], 1e-8);
        }
        atThreads(threads -> {
            Tensor[] p = clones(p0);
            Tensor[] m = clones(m0);
            Tensor[] v = clones(v0);
            int version = p[0].version();
            AdamStep.adamAll(p, g, m, v, decay, 0.9, 0.99, l2, stepSize, bc2Sqrt, 1e-8);
            for (int i = 0; i < n; i++) {
                assertArrayEquals(want[i].toFloatArray(), p[i].toFloatArray(), threads + " thread(s): parameter " + i);
                assertArrayEquals(wantM[i].toFloatArray(), m[i].toFloatArray(), threads + " thread(s): first moment " + i);
                assertArrayEquals(wantV[i].toFloatArray(), v[i].toFloatArray(), threads + " thread(s): second moment " + i);
            }
            assertTrue(p[0].version() > version, "the parameters' versions move on");
        });
    }

    @Test
    void theNormIsTheSameAtAnyThreadCountAndCloseToTheExactOne() {
        Tensor[] g = tensors(new Generator(4), 3);
        double exact = 0;
        for (Tensor t : g) {
            for (float x : t.toFloatArray()) {
                exact += (double) x * x;
            }
        }
        double[] got = new double[2];
        atThreads(threads -> got[threads - 1] = ParameterPasses.sumOfSquares(g));
        assertEquals(got[0], got[1], 0.0, "1 thread against 2");
        assertEquals(exact, got[0], 1e-5 * exact);
    }

    @Test
    void scaleIsMuliAndZeroLeavesNothing() {
        Tensor[] g = tensors(new Generator(6), 1);
        atThreads(threads -> {
            Tensor[] scaled = clones(g);
            ParameterPasses.scale(scaled, 0.37);
            for (int i = 0; i < g.length; i++) {
                assertArrayEquals(g[i].mul(0.37).toFloatArray(), scaled[i].toFloatArray(), threads + " thread(s): tensor " + i);
            }
            ParameterPasses.zero(scaled);
            for (Tensor t : scaled) {
                for (float x : t.toFloatArray()) {
                    assertEquals(0f, x);
                }
            }
        });
        assertTrue(ParameterPasses.applies(g));
        assertFalse(ParameterPasses.applies(new Tensor[] {Tensor.zeros(3, 4).transpose(0, 1)}), "a transposed view");
        assertFalse(ParameterPasses.applies(new Tensor[] {Tensor.zeros(dev.jgrad.tensor.DType.FLOAT64, 3)}), "float64");
    }
}
