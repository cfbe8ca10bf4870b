package dev.jgrad.train;

import dev.jgrad.nn.data.DataLoader;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.Function;

/**
 * Where a run's batches come from: passes over a dataset ({@link #of(DataLoader)}: a period is an epoch), or batches
 * drawn at random from a generator ({@link #drawn}: nanoGPT's {@code get_batch}, a PDE's collocation points; a period is
 * {@link Fit#evaluateEvery} steps). Either way a resumed run gets the batches the uninterrupted run would have got.
 */
public abstract class Batches {
    Batches() {
    }

    /** Epochs of {@code loader}: each a pass over its dataset in the loader's order. */
    public static Batches of(DataLoader loader) {
        return new Epochs(Objects.requireNonNull(loader, "loader"));
    }

    /**
     * Batches that {@code draw} makes from {@code generator}, one per step. The generator's state is saved with every
     * checkpoint and restored on resume, so {@code draw} must take all its randomness from it.
     */
    public static Batches drawn(Generator generator, Function<Generator, List<Tensor>> draw) {
        return new Drawn(Objects.requireNonNull(generator, "generator"), Objects.requireNonNull(draw, "draw"));
    }

    /** Steps in a period where the source has a natural one (an epoch's batches), else 0. */
    abstract int naturalPeriod();

    /** The batches of a period from its step {@code from} on, {@code length} of them. */
    abstract Iterator<List<Tensor>> period(int from, int length);

    /** Passes over a finished period on resume, so that later periods get the batches they would have. */
    abstract void skipPeriod();

    /** The generator a checkpoint must save to resume the draws, or null where replaying the periods restores them. */
    abstract Generator generator();

    private static final class Epochs extends Batches {
        private final DataLoader loader;

        Epochs(DataLoader loader) {
            this.loader = loader;
        }

        @Override
        int naturalPeriod() {
            return loader.batches();
        }

        @Override
        Iterator<List<Tensor>> period(int from, int length) {
            return loader.iterator(from);
        }

        @Override
        void skipPeriod() {
            loader.skipEpoch();
        }

        @Override
        Generator generator() {
            return null;
        }
    }

    private static final class Drawn extends Batches {
        private final Generator generator;
        private final Function<Generator, List<Tensor>> draw;

        Drawn(Generator generator, Function<Generator, List<Tensor>> draw) {
            this.generator = generator;
            this.draw = draw;
        }

        @Override
        int naturalPeriod() {
            return 0;
        }

        @Override
        Iterator<List<Tensor>> period(int from, int length) {
            return new Iterator<>() {
                private int at = from;

                @Override
                public boolean hasNext() {
                    return at < length;
                }

                @Override
                public List<Tensor> next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    at++;
                    return draw.apply(generator);
                }
            };
        }

        @Override
        void skipPeriod() {
            // The generator's saved state already stands after the finished periods.
        }

        @Override
        Generator generator() {
            return generator;
        }
    }
}
