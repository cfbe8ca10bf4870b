package dev.jgrad.tensor;

/**
 * A seedable source of random numbers for initialisation, dropout and shuffling. The same seed gives
 * the same numbers on every machine. (It does not reproduce PyTorch's random streams.)
 *
 * <p>The stream is SplitMix64's, number for number the one {@link java.util.SplittableRandom} draws from the same
 * seed (its state is one 64-bit counter), written out here so that the state can be saved with a checkpoint and
 * restored ({@link #state()}, {@link #restore(String)}): a resumed run then draws what it would have drawn.
 */
public final class Generator {
    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;
    private long seed;
    private double spareGaussian = Double.NaN;

    /** A generator seeded with {@code seed}: the same seed gives the same draws. */
    public Generator(long seed) {
        this.seed = seed;
    }

    private long nextSeed() {
        return seed += GOLDEN_GAMMA;
    }

    private static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private static int mix32(long z) {
        z = (z ^ (z >>> 33)) * 0x62a9d9ed799705f5L;
        return (int) (((z ^ (z >>> 28)) * 0xcb24d0a5c88c35b3L) >>> 32);
    }

    private long nextLong() {
        return mix64(nextSeed());
    }

    private int nextInt() {
        return mix32(nextSeed());
    }

    /** Uniform in [0, 1). */
    public double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    /** Uniform in [0, bound). */
    public long nextLong(long bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive, got " + bound);
        }
        long r = nextLong();
        long m = bound - 1;
        if ((bound & m) == 0L) {
            return r & m;
        }
        for (long u = r >>> 1; u + m - (r = u % bound) < 0L; u = nextLong() >>> 1) {
            // Rejects the values that would make the result uneven.
        }
        return r;
    }

    /** Uniform in [0, bound). */
    public int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive, got " + bound);
        }
        int r = nextInt();
        int m = bound - 1;
        if ((bound & m) == 0) {
            return r & m;
        }
        for (int u = r >>> 1; u + m - (r = u % bound) < 0; u = nextInt() >>> 1) {
            // Rejects the values that would make the result uneven.
        }
        return r;
    }

    /** The generator's state, as text: what {@link #restore} takes to continue the stream from here. */
    public String state() {
        return Long.toHexString(seed) + ":" + Long.toHexString(Double.doubleToRawLongBits(spareGaussian));
    }

    /** Continues the stream from a state {@link #state()} gave. */
    public void restore(String state) {
        String[] parts = state == null ? new String[0] : state.split(":");
        if (parts.length != 2) {
            throw new IllegalArgumentException("not a generator state: '" + state + "' (expected SEED:SPARE in hex)");
        }
        try {
            long s = Long.parseUnsignedLong(parts[0], 16);
            double spare = Double.longBitsToDouble(Long.parseUnsignedLong(parts[1], 16));
            seed = s;
            spareGaussian = spare;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a generator state: '" + state + "' (expected SEED:SPARE in hex)");
        }
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
            u = 2 * nextDouble() - 1;
            v = 2 * nextDouble() - 1;
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
            int j = nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }
}
