package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The vector kernels that end a sum by adding a vector's lanes add them in one fixed order, written out here in scalar
 * Java (the dots kernel in float as a tree, copySum as VectorMath.addLanes does): the Vector API's own
 * {@code reduceLanes(ADD)} adds them one by one where the JIT has not compiled the caller and as a tree where C2 has, so
 * the first products of a run and the later ones differed in their last bits (a CNN's first convolution, whose weight
 * gradient takes the dots kernel, trained to different weights from run to run). Each check runs the kernel until C2
 * has compiled it and holds every call to the specification.
 */
@Tag(VectorKernelsOnly.TAG)
class LaneSumOrderTest {
    /** Calls enough for C2 to compile the kernel (with -XX:Tier3DelayOn, tier 3 profiles it first). */
    private static final int CALLS = 30_000;

    @BeforeAll
    static void vectorKernelsInUse() {
        VectorKernelsRequired.check();
    }

    /** A vector's lanes as VectorMath.addLanes adds them: the two halves in double lane by lane, then pairwise (copySum). */
    private static double lanes(float[] v) {
        int h = v.length / 2;
        double[] d = new double[h];
        for (int j = 0; j < h; j++) {
            d[j] = (double) v[j] + (double) v[j + h];
        }
        if (h == 8) {
            return ((d[0] + d[1]) + (d[2] + d[3])) + ((d[4] + d[5]) + (d[6] + d[7]));
        }
        if (h == 4) {
            return (d[0] + d[1]) + (d[2] + d[3]);
        }
        double s = 0;
        for (double x : d) {
            s += x;
        }
        return s;
    }

    /** A vector's lanes as the dots kernel adds them, in float: for h = L/2, ..., 1 lane i takes lane i + h. */
    private static float tree(float[] v) {
        float[] t = v.clone();
        for (int h = t.length / 2; h >= 1; h /= 2) {
            for (int i = 0; i < h; i++) {
                t[i] = t[i] + t[i + h];
            }
        }
        return t[0];
    }

    /** One entry of the dots kernel: L lanes of fused multiply-adds over whole vectors, their lanes, then the tail in float. */
    private static float dot(float[] a, int ao, float[] b, int bo, int k, int l) {
        float[] acc = new float[l];
        int bound = k / l * l;
        for (int i = 0; i < bound; i += l) {
            for (int j = 0; j < l; j++) {
                acc[j] = Math.fma(a[ao + i + j], b[bo + i + j], acc[j]);
            }
        }
        float d = tree(acc);
        for (int i = bound; i < k; i++) {
            d += a[ao + i] * b[bo + i];
        }
        return d;
    }

    @Test
    void dotsAddTheirLanesInTheOrderWrittenHereCompiledOrNot() {
        int l = VectorMicroKernel.L;
        int k = 784 + 5;
        Generator g = new Generator(17);
        float[] a = Tensor.randn(g, 3 * k).toFloatArray();
        float[] b = Tensor.randn(g, 3 * k).toFloatArray();
        float[] want = new float[9];
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                want[r * 3 + c] = 0.5f + dot(a, r * k, b, c * k, k, l);
            }
        }
        MicroKernel kernel = new VectorMicroKernel();
        for (int call = 0; call < CALLS; call++) {
            float[] got = new float[9];
            java.util.Arrays.fill(got, 0.5f);
            kernel.dots(k, a, 0, k, 3, b, 0, k, 3, got, 0, 3);
            for (int e = 0; e < 9; e++) {
                if (Float.floatToRawIntBits(want[e]) != Float.floatToRawIntBits(got[e])) {
                    assertEquals(want[e], got[e], 0f, "dots entry " + e + " at call " + call + " (the JIT compiles the kernel along the way)");
                }
            }
        }
    }

    @Test
    void copySumAddsItsLanesInTheOrderWrittenHereCompiledOrNot() {
        int l = VectorMath.L;
        int len = 10 * l + 3;
        float[] src = Tensor.randn(new Generator(19), len).toFloatArray();
        // Two accumulators of float lanes over pairs of vectors, added lane by lane, their lanes, then the tail in double.
        float[] s0 = new float[l];
        float[] s1 = new float[l];
        int j = 0;
        for (; j <= len - 2 * l; j += 2 * l) {
            for (int i = 0; i < l; i++) {
                s0[i] += src[j + i];
                s1[i] += src[j + l + i];
            }
        }
        float[] both = new float[l];
        for (int i = 0; i < l; i++) {
            both[i] = s0[i] + s1[i];
        }
        double want = lanes(both);
        for (; j < len; j++) {
            want += src[j];
        }
        ReductionKernels reductions = new VectorReductions();
        float[] dst = new float[len];
        for (int call = 0; call < CALLS; call++) {
            double got = reductions.copySum(src, 0, dst, 0, len);
            if (Double.doubleToRawLongBits(want) != Double.doubleToRawLongBits(got)) {
                assertEquals(want, got, 0.0, "copySum at call " + call + " (the JIT compiles the kernel along the way)");
            }
        }
    }
}
