package dev.jgrad.nn;

import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;

/**
 * Parameter initialisation with PyTorch's rules, from a seedable generator. Layers built without an
 * explicit generator draw from a default one that {@link #manualSeed} resets, as {@code torch.manual_seed}.
 *
 * <p>The default generator is the calling thread's own: each thread starts with one seeded 0, and
 * {@link #manualSeed} reseeds only the thread that calls it. So two threads that seed and build models at
 * the same time (a sweep's runs, a server's requests) each get the weights their seed gives, whatever the
 * other does, which one generator shared by all threads cannot promise. To build a model independently of
 * any thread, pass the layers a {@link Generator} of its own ({@code new Linear(4, 32, true, gen)}).
 */
public final class Init {
    private static final ThreadLocal<Generator> DEFAULT = ThreadLocal.withInitial(() -> new Generator(0));

    private Init() {
    }

    /** Reseeds this thread's default generator: the same seed builds the same models. */
    public static void manualSeed(long seed) {
        DEFAULT.set(new Generator(seed));
    }

    /** This thread's default generator, which layers built without a generator draw from. */
    public static Generator defaultGenerator() {
        return DEFAULT.get();
    }

    /** Uniform in [-bound, bound), from {@code gen} or, when it is null, the default generator (PyTorch's {@code generator=None}). */
    public static Tensor uniform(Generator gen, double bound, int... shape) {
        return Tensor.uniform(gen == null ? defaultGenerator() : gen, -bound, bound, shape);
    }

    /**
     * {@code kaiming_uniform_(w, a=sqrt(5))}, nn.Linear's weight init: gain sqrt(2 / (1 + 5)), bound
     * gain * sqrt(3 / fan_in), which is 1 / sqrt(fan_in).
     */
    public static Tensor kaimingUniform(Generator gen, int fanIn, int... shape) {
        return uniform(gen, fanInBound(fanIn), shape);
    }

    /** {@code 1 / sqrt(fan_in)} (0 for no inputs): nn.Linear's weight bound, and its bias bound too. */
    public static double fanInBound(int fanIn) {
        return fanIn == 0 ? 0 : 1.0 / Math.sqrt(fanIn);
    }

    /** {@code xavier_uniform_}: bound sqrt(6 / (fan_in + fan_out)). */
    public static Tensor xavierUniform(Generator gen, int fanIn, int fanOut, int... shape) {
        return uniform(gen, Math.sqrt(6.0 / (fanIn + fanOut)), shape);
    }

    /** {@code xavier_normal_}: normal with std sqrt(2 / (fan_in + fan_out)). */
    public static Tensor xavierNormal(Generator gen, int fanIn, int fanOut, int... shape) {
        return normal(gen, fanIn + fanOut == 0 ? 0 : Math.sqrt(2.0 / (fanIn + fanOut)), shape);
    }

    /**
     * {@code kaiming_normal_(w, nonlinearity='relu')} (He initialisation, mode fan_in): normal with std
     * sqrt(2 / fan_in), for layers followed by a ReLU.
     */
    public static Tensor kaimingNormal(Generator gen, int fanIn, int... shape) {
        return normal(gen, fanIn == 0 ? 0 : Math.sqrt(2.0 / fanIn), shape);
    }

    /** Standard normal values times {@code std}. */
    public static Tensor normal(Generator gen, double std, int... shape) {
        return Tensor.randn(gen == null ? defaultGenerator() : gen, shape).mul(std);
    }
}
