package dev.jgrad.tensor;

import java.util.SplittableRandom;

/**
 * A seedable source of random numbers for initialisation, dropout and shuffling. The same seed gives
 * the same numbers on every machine. (It does not reproduce PyTorch's random streams.)
 */
public final class Generator {
    private final SplittableRandom random;
    private double spareGaussian = Double.NaN;

    public Generator(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** Uniform in [0, 1). */
    public double nextDouble() {
        return random.nextDouble();
    }

    /** Uniform in [0, bound). */
    public long nextLong(long bound) {
        return random.nextLong(bound);
    }

    /** Uniform in [0, bound). */
    public int nextInt(int bound) {
        return random.nextInt(bound);
    }

    /** Standard normal, by the polar Box-Muller method. */
    public double nextGaussian() {
        if (!Double.isNaN(spareGaussian)) {
            double g = spareGaussian;
            spareGaussian = Double.NaN;
            return g;
        }
        double u;
        double v;
        double s;
        do {
            u = 2 * random.nextDouble() - 1;
            v = 2 * random.nextDouble() - 1;
            s = u * u + v * v;
        } while (s >= 1 || s == 0);
        double m = Math.sqrt(-2 * Math.log(s) / s);
        spareGaussian = v * m;
        return u * m;
    }

    /** A random permutation of 0..n-1 (Fisher-Yates). */
    public int[] permutation(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }
}
