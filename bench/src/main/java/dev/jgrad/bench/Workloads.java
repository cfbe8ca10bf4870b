package dev.jgrad.bench;

import dev.jgrad.autograd.Autograd;
import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.Conv2d;
import dev.jgrad.nn.LSTM;
import dev.jgrad.nn.Linear;
import dev.jgrad.nn.Losses;
import dev.jgrad.nn.MaxPool2d;
import dev.jgrad.nn.MultiheadAttention;
import dev.jgrad.nn.Parameter;
import dev.jgrad.nn.ReLU;
import dev.jgrad.nn.Sequential;
import dev.jgrad.nn.Tanh;
import dev.jgrad.nn.gpt.BabyGpt;
import dev.jgrad.nn.optim.Adam;
import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.nn.optim.SGD;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;

import java.util.List;
import java.util.function.Function;

/**
 * The workloads W5-W13 of DESIGN.md as plain Java, shared by the JMH benchmarks and the tests that check
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

    /**
     * W8: Conv2d(1->32, 3x3) - ReLU - MaxPool2d(2) - Conv2d(32->64, 3x3) on a (64, 1, 28, 28) batch, forward
     * and backward of the output's sum (the parameters' gradients accumulate, as in W6).
     */
    public static final class ConvStep {
        final Sequential model;
        final Variable x;

        public ConvStep(long seed) {
            Generator g = new Generator(seed);
            int[] k3 = {3, 3};
            int[] one = {1, 1};
            int[] zero = {0, 0};
            model = new Sequential(new Conv2d(1, 32, k3, one, zero, one, 1, true, g), new ReLU(), new MaxPool2d(2),
                    new Conv2d(32, 64, k3, one, zero, one, 1, true, g));
            x = Variable.of(Tensor.randn(g, 64, 1, 28, 28));
        }

        public double step() {
            Variable s = model.forward(x).sum();
            s.backward();
            return s.item();
        }
    }

    /** W9: LSTM(64 -> 128) over a (T=32, B=32, 64) sequence, forward and backward of the outputs' sum. */
    public static final class LstmStep {
        final LSTM lstm;
        final Variable x;

        public LstmStep(long seed) {
            Generator g = new Generator(seed);
            lstm = new LSTM(64, 128, 1, true, false, 0.0, g);
            x = Variable.of(Tensor.randn(g, 32, 32, 64));
        }

        public double step() {
            Variable s = lstm.forward(x).output().sum();
            s.backward();
            return s.item();
        }
    }

    /** The 2-layer MLP of W10 and W11: Linear(64, 256) - Tanh - Linear(256, 1), and a batch of 64. */
    abstract static class SecondOrder {
        final Sequential model;
        final Variable x;

        SecondOrder(long seed, boolean inputRequiresGrad) {
            Generator g = new Generator(seed);
            model = new Sequential(new Linear(64, 256, true, g), new Tanh(), new Linear(256, 1, true, g));
            x = Variable.of(Tensor.randn(g, 64, 64), inputRequiresGrad);
        }
    }

    /**
     * W10: the gradient of WGAN-GP's penalty {@code mean((|grad_x D(x)| - 1)^2)} with respect to the critic's
     * parameters: the input gradient taken with createGraph, then backward through it (the critic's gradients
     * accumulate, as in W6).
     */
    public static final class WganGpStep extends SecondOrder {
        public WganGpStep(long seed) {
            super(seed, true);
        }

        public double step() {
            Variable d = model.forward(x);
            Variable gx = Autograd.grad(d.sum(), x, true);
            Variable penalty = gx.square().sum(1, false).add(1e-12).sqrt().sub(1.0).square().mean();
            penalty.backward();
            return penalty.item();
        }
    }

    /**
     * W11: a Hessian-vector product of an MSE loss with respect to the MLP's parameters: the gradients taken with
     * createGraph, their dot product with a fixed vector v, and its gradient (two backward passes).
     */
    public static final class HvpStep extends SecondOrder {
        final Variable y;
        final List<Parameter> params;
        final List<Variable> v;

        public HvpStep(long seed) {
            super(seed, false);
            Generator g = new Generator(seed + 1);
            y = Variable.of(Tensor.randn(g, 64, 1));
            params = model.parameters();
            v = new java.util.ArrayList<>();
            for (Parameter p : params) {
                v.add(Variable.of(Tensor.randn(g, p.shape())));
            }
        }

        public double step() {
            return hessianTimesV().get(0).data().getDouble(0, 0);
        }

        /** H v, one tensor per parameter. */
        List<Variable> hessianTimesV() {
            Variable loss = Losses.mseLoss(model.forward(x), y);
            List<Variable> g = Autograd.grad(List.of(loss), List.copyOf(params), null, true, true, false);
            Variable dot = null;
            for (int i = 0; i < g.size(); i++) {
                Variable t = g.get(i).mul(v.get(i)).sum();
                dot = dot == null ? t : dot.add(t);
            }
            return Autograd.grad(List.of(dot), List.copyOf(params), null, false, false, false);
        }
    }

    /** Tiny Shakespeare's symbols, the vocabulary of nanoGPT's CPU run. */
    static final int VOCAB = 65;

    /** nanoGPT's baby GPT of the CPU run ({@link BabyGpt}) over Tiny Shakespeare's vocabulary. */
    static dev.jgrad.nn.gpt.GPT babyGpt(long seed) {
        return new dev.jgrad.nn.gpt.GPT(BabyGpt.config(VOCAB), new Generator(seed));
    }

    /** W12: one training step of the baby GPT on a (12, 64) batch: forward, backward, clipping at 1.0, AdamW with groups. */
    public static final class GptTrainStep {
        final dev.jgrad.nn.gpt.GPT model;
        final Optimizer opt;
        final Tensor x;
        final Tensor y;

        public GptTrainStep(long seed) {
            model = babyGpt(seed);
            opt = BabyGpt.optimizer(model);
            Generator g = new Generator(seed + 1);
            int b = BabyGpt.BATCH_SIZE;
            int t = BabyGpt.BLOCK_SIZE;
            long[] tokens = new long[b * (t + 1)];
            for (int i = 0; i < tokens.length; i++) {
                tokens[i] = g.nextInt(VOCAB);
            }
            Tensor all = Tensor.of(tokens, b, t + 1);
            x = all.narrow(1, 0, t).contiguous();
            y = all.narrow(1, 1, t).contiguous();
        }

        public double step() {
            opt.zeroGrad();
            Variable loss = model.loss(x, y);
            loss.backward();
            dev.jgrad.nn.optim.ClipGrad.clipGradNorm(opt.params(), BabyGpt.GRAD_CLIP);
            opt.step();
            return loss.item();
        }
    }

    /** W13: 256 tokens sampled (temperature 1, all tokens) from a 1-token prompt with the baby GPT. */
    public static final class GptGenerate {
        final dev.jgrad.nn.gpt.GPT model;
        final Tensor prompt = Tensor.of(new long[] {0}, 1, 1);
        private long calls;

        public GptGenerate(long seed) {
            model = babyGpt(seed);
        }

        public Tensor generate() {
            return model.generate(prompt, 256, 1.0, 0, new Generator(calls++), null);
        }
    }
}
