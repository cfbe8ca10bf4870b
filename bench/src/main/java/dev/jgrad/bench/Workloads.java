package dev.jgrad.bench;

import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.Linear;
import dev.jgrad.nn.Losses;
import dev.jgrad.nn.MultiheadAttention;
import dev.jgrad.nn.Parameter;
import dev.jgrad.nn.ReLU;
import dev.jgrad.nn.Sequential;
import dev.jgrad.nn.Tanh;
import dev.jgrad.nn.optim.Adam;
import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.nn.optim.SGD;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;

import java.util.List;
import java.util.function.Function;

/**
 * The workloads W5-W7 of DESIGN.md as plain Java, shared by the JMH benchmarks and the tests that check
 * they run (so a benchmark never measures code that does not work).
 */
public final class Workloads {
    private Workloads() {
    }

    /** One step of an MLP on a fixed batch with an MSE loss: zero the gradients, forward, backward, update. */
    abstract static class MseStep {
        final Sequential model;
        final Optimizer opt;
        final Variable x;
        final Variable y;

        /** The model is built from {@code g} first, then the batch (features {@code in}) from the same generator. */
        MseStep(Generator g, Sequential model, Function<List<Parameter>, Optimizer> optimizer, int batch, int in) {
            this.model = model;
            this.opt = optimizer.apply(model.parameters());
            this.x = Variable.of(Tensor.randn(g, batch, in));
            this.y = Variable.of(Tensor.randn(g, batch, 1));
        }

        /** One training step; returns the loss. */
        public double step() {
            opt.zeroGrad();
            Variable loss = Losses.mseLoss(model.forward(x), y);
            loss.backward();
            opt.step();
            return loss.item();
        }
    }

    /** W5: Linear(64,256)-ReLU-Linear(256,256)-ReLU-Linear(256,1), batch 64, MSE, Adam. */
    public static final class MlpStep extends MseStep {
        public MlpStep(long seed) {
            this(new Generator(seed));
        }

        private MlpStep(Generator g) {
            super(g, new Sequential(new Linear(64, 256, true, g), new ReLU(), new Linear(256, 256, true, g), new ReLU(),
                    new Linear(256, 1, true, g)), p -> new Adam(p, 1e-3), 64, 64);
        }
    }

    /** W6: self-attention, batch_first, key padding and causal masks, forward and backward. */
    public static final class MhaStep {
        final MultiheadAttention mha;
        final Variable x;
        final Tensor padding;

        public MhaStep(long seed) {
            int b = 8;
            int t = 64;
            int e = 128;
            Generator g = new Generator(seed);
            mha = new MultiheadAttention(e, 4, g);
            x = Variable.of(Tensor.randn(g, b, t, e), true);
            boolean[] pad = new boolean[b * t];
            for (int i = 0; i < b; i++) {
                int len = t / 2 + g.nextInt(t / 2 + 1);
                for (int j = len; j < t; j++) {
                    pad[i * t + j] = true;
                }
            }
            padding = Tensor.of(pad, b, t);
        }

        public double step() {
            Variable y = mha.forward(x, padding, true);
            Variable s = y.sum();
            s.backward();
            return s.item();
        }
    }

    /** W7: Linear(2,16)-Tanh-Linear(16,1), batch 16, MSE, SGD: one whole step. */
    public static final class TinyStep extends MseStep {
        public TinyStep(long seed) {
            this(new Generator(seed));
        }

        private TinyStep(Generator g) {
            super(g, new Sequential(new Linear(2, 16, true, g), new Tanh(), new Linear(16, 1, true, g)), p -> new SGD(p, 0.01), 16, 2);
        }
    }
}
