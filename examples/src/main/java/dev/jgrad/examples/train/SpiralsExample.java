package dev.jgrad.examples.train;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Variable;
import dev.jgrad.examples.report.BoundaryChart;
import dev.jgrad.nn.Init;
import dev.jgrad.nn.Linear;
import dev.jgrad.nn.Losses;
import dev.jgrad.nn.Sequential;
import dev.jgrad.nn.Tanh;
import dev.jgrad.nn.data.DataLoader;
import dev.jgrad.nn.data.TensorDataset;
import dev.jgrad.nn.optim.Adam;
import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.train.Fit;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/** Two interleaved spirals, one per class, separated by an MLP trained with cross-entropy; draws the decision boundary. */
public final class SpiralsExample {
    static final int TRAIN = 1000;
    static final int TEST = 500;
    static final double TURNS = 1.5;
    static final double NOISE = 0.03;

    public record Outcome(double accuracy, double finalLoss, Path dir) {
    }

    private SpiralsExample() {
    }

    /** Points (n, 2) and labels (n) of two spirals, each 1.5 turns, the second rotated by half a turn. */
    static Tensor[] spirals(Generator g, int n) {
        float[] xy = new float[2 * n];
        long[] label = new long[n];
        for (int i = 0; i < n; i++) {
            int c = i % 2;
            double t = 0.08 + 0.92 * Math.sqrt(g.nextDouble());
            double theta = t * TURNS * 2 * Math.PI + c * Math.PI;
            xy[2 * i] = (float) (t * Math.cos(theta) + NOISE * g.nextGaussian());
            xy[2 * i + 1] = (float) (t * Math.sin(theta) + NOISE * g.nextGaussian());
            label[i] = c;
        }
        return new Tensor[] {Tensor.of(xy, n, 2), Tensor.of(label, n)};
    }

    /** The MLP 2-64-64-2. */
    static Sequential model(Generator init) {
        return new Sequential(new Linear(2, 64, true, init), new Tanh(), new Linear(64, 64, true, init), new Tanh(),
                new Linear(64, 2, true, init));
    }

    /** The held-out points of a run with {@code seed}, as the run drew them. */
    static Tensor heldOutPoints(long seed) {
        Generator g = new Generator(seed);
        spirals(g, TRAIN);
        return spirals(g, TEST)[0];
    }

    static double accuracy(Sequential model, Tensor x, Tensor y) {
        try (NoGrad g = NoGrad.enter()) {
            Tensor pred = model.forward(Variable.of(x)).data().argmax(1, false);
            return pred.eq(y).to(DType.FLOAT64).mean().item();
        }
    }

    public static Outcome run(TrainOptions o, PrintStream out) {
        int epochs = o.epochs(150);
        int batch = o.batchSize(64);
        double lr = o.lr(1e-2);
        Generator g = new Generator(o.seed());
        Tensor[] train = spirals(g, TRAIN);
        Tensor[] test = spirals(g, TEST);
        Init.manualSeed(o.seed());
        Generator init = new Generator(o.seed() + 1);
        Sequential model = model(init);
        Optimizer opt = new Adam(model.parameters(), lr);
        out.println("jgrad train mlp: two spirals of " + TURNS + " turns, " + TRAIN + " training and " + TEST + " held-out points;"
                + " MLP 2-64-64-2, cross-entropy, Adam lr " + lr + ", batch " + batch + ", " + epochs + " epochs");
        DataLoader loader = new DataLoader(new TensorDataset(train), batch, true, o.seed(), false);
        double[] acc = new double[1];
        Fit.Result r = o.applyTo(Fit.of(model, opt, loader), "mlp")
                .loss(b -> Losses.crossEntropy(model.forward(Variable.of(b.get(0))), b.get(1)))
                .heldOut(() -> Losses.crossEntropy(model.forward(Variable.of(test[0])), test[1]).item())
                .epochs(epochs)
                .title("mlp: two spirals, cross-entropy")
                .atEnd(end -> {
                    acc[0] = accuracy(model, test[0], test[1]);
                    out.printf(Locale.ROOT, "held-out accuracy %.1f%%%n", 100 * acc[0]);
                    String subtitle = String.format(Locale.ROOT, "held-out accuracy %.1f%%  (seed %d)", 100 * acc[0], o.seed());
                    end.subtitle(subtitle).summary("train", "accuracy", acc[0]);
                    end.file("boundary.png", BoundaryChart.png(x -> {
                        try (NoGrad ng = NoGrad.enter()) {
                            return model.forward(Variable.of(x)).data().softmax(1).select(1, 1);
                        }
                    }, test[0], test[1], "two spirals: decision boundary", subtitle));
                })
                .run(out);
        return new Outcome(acc[0], r.trainLoss(), r.dir());
    }
}
