package dev.jgrad.autograd;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;

import java.util.Arrays;
import java.util.Random;

/** Random shapes for property tests: a distinct size for every axis so broadcast and transpose bugs show, and pairs that broadcast together. */
final class RandomShapes {
    private final Random random;
    private final Generator gen;

    RandomShapes(long seed) {
        random = new Random(seed);
        gen = new Generator(seed);
    }

    /** A shape of {@code minDims} to {@code maxDims} dims whose sizes, from 2 to 6, differ from each other. */
    int[] shape(int minDims, int maxDims) {
        int n = minDims + random.nextInt(maxDims - minDims + 1);
        int[] sizes = {2, 3, 4, 5, 6};
        for (int i = sizes.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = sizes[i];
            sizes[i] = sizes[j];
            sizes[j] = t;
        }
        return Arrays.copyOf(sizes, n);
    }

    /** Two shapes that broadcast: the second drops some leading dims and has 1s where the first has sizes, or the other way round. */
    int[][] broadcastPair() {
        int[] a = shape(0, 3);
        int drop = random.nextInt(a.length + 1);
        int[] b = Arrays.copyOfRange(a, drop, a.length);
        for (int i = 0; i < b.length; i++) {
            if (random.nextInt(3) == 0) {
                b[i] = 1;
            } else if (random.nextInt(4) == 0) {
                a[drop + i] = 1;
            }
        }
        return random.nextBoolean() ? new int[][] {a, b} : new int[][] {b, a};
    }

    int nextInt(int bound) {
        return random.nextInt(bound);
    }

    boolean nextBoolean() {
        return random.nextBoolean();
    }

    /** Standard normal float64 values. */
    Tensor normal(int... shape) {
        return Tensor.randn(gen, shape).to(DType.FLOAT64);
    }

    /** Values in [lo, hi), float64. */
    Tensor uniform(double lo, double hi, int... shape) {
        return Tensor.uniform(gen, lo, hi, shape).to(DType.FLOAT64);
    }

    /** Values whose magnitude is at least 0.2, for functions with a kink or a pole at zero. */
    Tensor awayFromZero(int... shape) {
        Tensor u = uniform(0.2, 2.0, shape);
        Tensor sign = uniform(-1, 1, shape).ge(0.0).to(DType.FLOAT64).mul(2.0).sub(1.0);
        return u.mul(sign);
    }

    long[] positions(int count, int bound) {
        long[] p = new long[count];
        for (int i = 0; i < count; i++) {
            p[i] = random.nextInt(bound);
        }
        return p;
    }

    static String str(int[]... shapes) {
        StringBuilder sb = new StringBuilder();
        for (int[] s : shapes) {
            sb.append(Shape.str(s)).append(' ');
        }
        return sb.toString().trim();
    }
}
