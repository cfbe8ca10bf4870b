package dev.jgrad.examples.train;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Variable;
import dev.jgrad.examples.UserError;
import dev.jgrad.examples.report.ConfusionChart;
import dev.jgrad.nn.BatchNorm2d;
import dev.jgrad.nn.Conv2d;
import dev.jgrad.nn.Dropout;
import dev.jgrad.nn.Flatten;
import dev.jgrad.nn.Init;
import dev.jgrad.nn.Linear;
import dev.jgrad.nn.Losses;
import dev.jgrad.nn.MaxPool2d;
import dev.jgrad.nn.ReLU;
import dev.jgrad.nn.Reduction;
import dev.jgrad.nn.Sequential;
import dev.jgrad.nn.data.DataLoader;
import dev.jgrad.nn.data.IdxFormatException;
import dev.jgrad.nn.data.ImageDataset;
import dev.jgrad.nn.optim.Adam;
import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Memory;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.train.Fit;
import dev.jgrad.train.LossChart;
import org.jfree.chart.JFreeChart;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Fashion-MNIST (60,000 training and 10,000 test images of 28x28, ten classes of clothing) classified by
 * an MLP or by the classic small CNN (two conv + batch norm + ReLU + max-pool blocks, then two linear
 * layers); reports test accuracy overall and per class, and draws the confusion matrix.
 */
public final class FashionExample {
    public static final Path DEFAULT_DATA = Path.of("/usr/share/datasets/fashion-mnist");
    static final String[] CLASSES = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
        "Ankle boot"};
    /** The training set's pixel mean and standard deviation (on the [0, 1] scale). */
    static final double MEAN = 0.2860;
    static final double STD = 0.3530;

    public enum Model { mlp, cnn }

    public record Outcome(double accuracy, double[] perClass, double finalLoss, Path dir) {
    }

    private FashionExample() {
    }

    static Sequential build(Model kind, Generator g) {
        if (kind == Model.mlp) {
            return new Sequential(new Flatten(), new Linear(784, 256, true, g), new ReLU(), new Dropout(0.2, g),
                    new Linear(256, 128, true, g), new ReLU(), new Dropout(0.2, g), new Linear(128, 10, true, g));
        }
        int[] k3 = {3, 3};
        int[] one = {1, 1};
        return new Sequential(
                new Conv2d(1, 32, k3, one, one, one, 1, false, g), new BatchNorm2d(32), new ReLU(), new MaxPool2d(2),
                new Conv2d(32, 64, k3, one, one, one, 1, false, g), new BatchNorm2d(64), new ReLU(), new MaxPool2d(2),
                new Flatten(), new Linear(64 * 7 * 7, 128, true, g), new ReLU(), new Dropout(0.3, g), new Linear(128, 10, true, g));
    }

    /** The training and test sets from {@code dir}, or a one-line user error saying how to get them. */
    static ImageDataset[] load(Path dir) {
        Path[] files = new Path[4];
        String[] names = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"};
        for (int i = 0; i < 4; i++) {
            Path gz = dir.resolve(names[i] + ".gz");
            Path plain = dir.resolve(names[i]);
            files[i] = Files.exists(gz) ? gz : Files.exists(plain) ? plain : null;
            if (files[i] == null) {
                throw new UserError("Fashion-MNIST not found: " + dir + " has no " + names[i] + "[.gz]; install it with "
                        + "'sudo apt-get install dataset-fashion-mnist' (it goes to " + DEFAULT_DATA + ") or pass --data DIR");
            }
        }
        try {
            ImageDataset train = ImageDataset.fromIdx(files[0], files[1], MEAN, STD);
            ImageDataset test = ImageDataset.fromIdx(files[2], files[3], MEAN, STD);
            checkTrainable(train, files[1]);
            if (test.size() == 0) {
                throw new UserError(files[2] + " holds no images: there is nothing to test the model on");
            }
            return new ImageDataset[] {train, test};
        } catch (NoSuchFileException e) {
            throw new UserError("cannot read " + e.getFile(), e);
        } catch (IdxFormatException e) {
            throw new UserError(e.getMessage(), e);
        } catch (IOException e) {
            throw new UserError("cannot read the Fashion-MNIST files in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** A training set with no images, or with every label the same, teaches nothing: refused before training, naming the file. */
    static void checkTrainable(ImageDataset train, Path labels) {
        if (train.size() == 0) {
            throw new UserError(labels + " holds no training images: there is nothing to train on");
        }
        java.util.Set<Long> seen = new java.util.TreeSet<>();
        for (int i = 0; i < train.size() && seen.size() < 2; i++) {
            seen.add(train.label(i));
        }
        if (seen.size() < 2) {
            throw new UserError(labels + ": all " + train.size() + " training labels are " + seen.iterator().next()
                    + ": a classifier needs at least two classes to learn from");
        }
    }

    /** The mean loss and the confusion matrix of the model on a dataset, in eval mode, without recording. */
    record Evaluation(double loss, long[][] confusion) {
        double accuracy() {
            long right = 0;
            long all = 0;
            for (int t = 0; t < confusion.length; t++) {
                for (int p = 0; p < confusion.length; p++) {
                    all += confusion[t][p];
                    right += t == p ? confusion[t][p] : 0;
                }
            }
            return all == 0 ? Double.NaN : right / (double) all;
        }

        double[] perClass() {
            double[] r = new double[confusion.length];
            for (int t = 0; t < r.length; t++) {
                long all = 0;
                for (long c : confusion[t]) {
                    all += c;
                }
                r[t] = all == 0 ? Double.NaN : confusion[t][t] / (double) all;
            }
            return r;
        }
    }

    /** In batches of the training's size: evaluation never needs more memory than training does. */
    static Evaluation evaluate(Sequential model, ImageDataset data, int classes, int batch) {
        boolean was = model.isTraining();
        model.eval();
        long[][] confusion = new long[classes][classes];
        double lossSum = 0;
        try (NoGrad g = NoGrad.enter()) {
            for (List<Tensor> b : new DataLoader(data, batch, false, 0, false)) {
                try (Memory.Scope scope = Memory.scope()) {
                    Variable logits = model.forward(Variable.of(b.get(0)));
                    lossSum += Losses.crossEntropy(logits, b.get(1), Reduction.SUM, Losses.IGNORE_INDEX, 0.0).item();
                    long[] pred = logits.data().argmax(1, false).toLongArray();
                    long[] truth = b.get(1).toLongArray();
                    for (int i = 0; i < pred.length; i++) {
                        confusion[(int) truth[i]][(int) pred[i]]++;
                    }
                }
            }
        } finally {
            model.train(was);
        }
        return new Evaluation(lossSum / Math.max(1, data.size()), confusion);
    }

    public static Outcome run(Model kind, Path dataDir, TrainOptions o, PrintStream out) {
        long started = System.nanoTime();
        int epochs = o.epochs(kind == Model.mlp ? 20 : 6);
        int batch = o.batchSize(kind == Model.mlp ? 128 : 64);
        double lr = o.lr(1e-3);
        ImageDataset[] data = load(dataDir);
        ImageDataset train = data[0];
        ImageDataset test = data[1];
        if (train.height() != 28 || train.width() != 28 || test.height() != 28 || test.width() != 28) {
            throw new UserError(dataDir + ": expected 28x28 images, got " + train.height() + "x" + train.width());
        }
        int classes = Math.max(train.classes(), test.classes());
        if (classes > CLASSES.length) {
            throw new UserError(dataDir + ": the labels go up to " + (classes - 1) + ", Fashion-MNIST has " + CLASSES.length + " classes");
        }
        String name = "fashion-" + kind;
        Init.manualSeed(o.seed());
        Sequential model = build(kind, new Generator(o.seed() + 1));
        Optimizer opt = new Adam(model.parameters(), lr);
        out.println("jgrad train fashion --model " + kind + ": Fashion-MNIST from " + dataDir + ", " + train.size() + " training and "
                + test.size() + " test images; " + model.parameterCount() + " parameters, cross-entropy, Adam lr " + lr + ", batch "
                + batch + ", " + epochs + " epochs");
        DataLoader loader = new DataLoader(train, batch, true, o.seed(), false);
        model.train();
        Evaluation[] last = new Evaluation[1];
        double[] acc = {Double.NaN};
        double[][] perClass = {new double[CLASSES.length]};
        // The series is the model, so that the chart's legend reads "cnn train" and "cnn test", the test set's loss.
        String series = kind.name();
        Fit.Result r = o.applyTo(Fit.of(model, opt, loader), name)
                .series(series)
                .loss(b -> Losses.crossEntropy(model.forward(Variable.of(b.get(0))), b.get(1)))
                .evaluate(() -> {
                    last[0] = evaluate(model, test, CLASSES.length, batch);
                    return dev.jgrad.train.Evaluation.of(last[0].loss()).split("test").metric("accuracy", last[0].accuracy())
                            .note(String.format(Locale.ROOT, "test accuracy %.2f%%", 100 * last[0].accuracy()));
                })
                .epochs(epochs)
                .itemsPerStep(batch, "images")
                .title("Fashion-MNIST " + kind + ": cross-entropy")
                .atEnd(end -> {
                    Evaluation ev = last[0] != null ? last[0] : evaluate(model, test, CLASSES.length, batch);
                    acc[0] = ev.accuracy();
                    perClass[0] = ev.perClass();
                    out.printf(Locale.ROOT, "test accuracy %.2f%% (%d images)%n", 100 * acc[0], test.size());
                    StringBuilder perClassLine = new StringBuilder();
                    Map<String, Object> per = new LinkedHashMap<>();
                    for (int c = 0; c < CLASSES.length; c++) {
                        perClassLine.append(c == 0 ? "" : ", ").append(CLASSES[c]).append(String.format(Locale.ROOT, " %.1f%%", 100 * perClass[0][c]));
                        per.put(CLASSES[c], perClass[0][c]);
                    }
                    out.println("per class: " + perClassLine);
                    String subtitle = String.format(Locale.ROOT, "%s, test accuracy %.2f%%  (seed %d, %d epochs)", kind, 100 * acc[0], o.seed(),
                            end.epochsDone());
                    end.subtitle(subtitle);
                    JFreeChart confusion = ConfusionChart.chart(ev.confusion(), CLASSES, "Fashion-MNIST " + kind + ": confusion matrix (test set)",
                            subtitle);
                    end.file("confusion.png", LossChart.png(confusion, ConfusionChart.SIZE, ConfusionChart.SIZE));
                    end.image("confusion_matrix", confusion.createBufferedImage(ConfusionChart.SIZE, ConfusionChart.SIZE));
                    end.summary(series, "accuracy", acc[0]).summary(series, "per_class_accuracy", per);
                    end.summary(series, "seconds_per_epoch", end.epochsDone() == 0 ? null
                            : Math.round((System.nanoTime() - started) / 1e7 / end.epochsDone()) / 100.0);
                })
                .metadata(Map.of("model", kind.name()))
                .run(out);
        return new Outcome(acc[0], perClass[0], r.trainLoss(), r.dir());
    }
}
