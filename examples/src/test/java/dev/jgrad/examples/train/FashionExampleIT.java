package dev.jgrad.examples.train;

import dev.jgrad.examples.cli.Main;
import dev.jgrad.examples.UserError;
import dev.jgrad.nn.data.Idx;
import dev.jgrad.nn.io.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Fashion-MNIST trainer on small generated IDX files in the real layout (28x28, ten classes). */
public class FashionExampleIT {
    @TempDir
    Path tmp;

    private static final PrintStream QUIET = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    /** Class c is a bright 3-row band starting at row 2c + 3, on noise; written gzip-compressed like the Debian package. */
    public static void writeSet(Path dir, String prefix, int n, long seed) throws IOException {
        Random r = new Random(seed);
        byte[] px = new byte[n * 784];
        byte[] lb = new byte[n];
        for (int i = 0; i < n; i++) {
            int c = i % 10;
            lb[i] = (byte) c;
            for (int p = 0; p < 784; p++) {
                int row = p / 28;
                boolean band = row >= 2 * c + 3 && row < 2 * c + 6;
                px[i * 784 + p] = (byte) (band ? 180 + r.nextInt(60) : r.nextInt(90));
            }
        }
        gz(dir.resolve(prefix + "-images-idx3-ubyte.gz"), Idx.encode(Idx.Type.UBYTE, new int[] {n, 28, 28}, px));
        gz(dir.resolve(prefix + "-labels-idx1-ubyte.gz"), Idx.encode(Idx.Type.UBYTE, new int[] {n}, lb));
    }

    private static void gz(Path file, byte[] plain) throws IOException {
        try (GZIPOutputStream z = new GZIPOutputStream(Files.newOutputStream(file))) {
            z.write(plain);
        }
    }

    private Path data(int train, int test) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("data"));
        writeSet(dir, "train", train, 1);
        writeSet(dir, "t10k", test, 2);
        return dir;
    }

    @SuppressWarnings("unchecked")
    @Test
    void mlpLearnsTheBandsAndWritesTheConfusionMatrixAndPerClassAccuracy() throws IOException {
        Path dir = tmp.resolve("run");
        TrainOptions o = TrainOptions.of(dir, 4, 0);
        FashionExample.Outcome r = FashionExample.run(FashionExample.Model.mlp, data(400, 200), o, QUIET);
        assertTrue(r.accuracy() >= 0.95, "accuracy " + r.accuracy());
        for (String f : List.of("metrics.csv", "loss.png", "confusion.png", "summary.json", "model.safetensors", "optimizer.safetensors")) {
            assertTrue(Files.size(dir.resolve(f)) > 100, f);
        }
        assertTrue(ImageIO.read(dir.resolve("confusion.png").toFile()).getWidth() >= 800);
        Map<String, Object> s = (Map<String, Object>) Json.parse(Files.readString(dir.resolve("summary.json")));
        assertEquals("fashion-mlp", s.get("example"));
        Map<String, Object> train = (Map<String, Object>) ((Map<String, Object>) s.get("series")).get("mlp");
        assertEquals(r.accuracy(), ((Number) train.get("accuracy")).doubleValue(), 1e-12);
        Map<String, Object> per = (Map<String, Object>) train.get("per_class_accuracy");
        assertEquals(List.of(FashionExample.CLASSES), List.copyOf(per.keySet()));
        double mean = 0;
        for (int c = 0; c < 10; c++) {
            double a = ((Number) per.get(FashionExample.CLASSES[c])).doubleValue();
            assertEquals(r.perClass()[c], a, 1e-12);
            mean += a / 10;
        }
        assertEquals(r.accuracy(), mean, 1e-9, "balanced test set: accuracy is the mean of the per-class accuracies");
        assertTrue(((Number) train.get("seconds_per_epoch")).doubleValue() > 0);
        TensorBoardChecks.assertMatchesMetrics(dir);
        Map<String, List<dev.jgrad.train.tensorboard.EventReader.Scalar>> tb = dev.jgrad.train.tensorboard.EventReader.scalars(dir.resolve("tb"));
        assertEquals(4, tb.get("accuracy/test").size(), "the test accuracy after each epoch");
        assertEquals((float) r.accuracy(), tb.get("accuracy/test").get(3).value());
        assertTrue(tb.containsKey("speed/images_per_s"));
        Map<String, List<Long>> other = TensorBoardChecks.otherSummaries(dir);
        assertEquals(1, other.get("confusion_matrix").size(), other.keySet().toString());
    }

    @Test
    void theCnnIsTwoConvBlocksWithBatchNormAndPooling() throws IOException {
        Path dir = tmp.resolve("cnn");
        FashionExample.Outcome r = FashionExample.run(FashionExample.Model.cnn, data(200, 100), TrainOptions.of(dir, 1, 0), QUIET);
        assertTrue(r.accuracy() > 0.3, "one epoch on 200 images already beats chance: " + r.accuracy());
        Map<String, int[]> shapes = new java.util.LinkedHashMap<>();
        FashionExample.build(FashionExample.Model.cnn, new dev.jgrad.tensor.Generator(0)).namedParameters()
                .forEach((name, p) -> shapes.put(name, p.data().shape()));
        assertArrayEquals(new int[] {32, 1, 3, 3}, shapes.get("0.weight"));
        assertArrayEquals(new int[] {32}, shapes.get("1.weight"));
        assertArrayEquals(new int[] {64, 32, 3, 3}, shapes.get("4.weight"));
        assertArrayEquals(new int[] {128, 3136}, shapes.get("9.weight"));
        assertArrayEquals(new int[] {10, 128}, shapes.get("12.weight"));
    }

    @Test
    void missingOrBadDataIsOneLineSayingHowToInstallItAndExitTwo() throws IOException {
        String m = assertThrows(UserError.class, () -> FashionExample.load(tmp.resolve("nowhere"))).getMessage();
        assertTrue(m.contains("apt-get install dataset-fashion-mnist") && m.contains("--data") && !m.contains("\n"), m);
        assertEquals(2, Main.run("train", "fashion", "--data", tmp.resolve("nowhere").toString(), "--out", tmp.resolve("o").toString()));
        assertEquals(2, Main.run("train", "fashion", "--model", "resnet"));
        Path dir = data(20, 10);
        Files.write(dir.resolve("t10k-labels-idx1-ubyte.gz"), new byte[] {0x1f, (byte) 0x8b, 8, 0, 1, 2});
        m = assertThrows(UserError.class, () -> FashionExample.load(dir)).getMessage();
        assertTrue(m.contains("t10k-labels-idx1-ubyte.gz"), m);
        Path keep = Files.createDirectories(tmp.resolve("keep"));
        Files.writeString(keep.resolve("summary.json"), "good");
        assertEquals(2, Main.run("train", "fashion", "--model", "mlp", "--data", dir.toString(), "--out", keep.toString()));
        assertEquals("good", Files.readString(keep.resolve("summary.json")));
    }

    @Test
    void anEmptyOrOneClassTrainingSetIsRefusedBeforeTraining() throws IOException {
        Path empty = data(0, 10);
        String m = assertThrows(UserError.class, () -> FashionExample.load(empty)).getMessage();
        assertTrue(m.contains("train-labels-idx1-ubyte.gz") && m.contains("no training images"), m);
        Path one = Files.createDirectories(tmp.resolve("one"));
        writeSet(one, "t10k", 10, 2);
        gz(one.resolve("train-images-idx3-ubyte.gz"), Idx.encode(Idx.Type.UBYTE, new int[] {5, 28, 28}, new byte[5 * 784]));
        gz(one.resolve("train-labels-idx1-ubyte.gz"), Idx.encode(Idx.Type.UBYTE, new int[] {5}, new byte[] {3, 3, 3, 3, 3}));
        m = assertThrows(UserError.class, () -> FashionExample.load(one)).getMessage();
        assertTrue(m.contains("all 5 training labels are 3") && m.contains("two classes"), m);
        Path keep = Files.createDirectories(tmp.resolve("kept"));
        assertEquals(2, Main.run("train", "fashion", "--model", "mlp", "--data", one.toString(), "--out", keep.toString()));
        assertTrue(!Files.exists(keep.resolve("model.safetensors")), "nothing is written");
    }

    /** The Fashion MLP (dropout included) stopped mid-epoch and resumed from its folder alone equals an uninterrupted run bit for bit. */
    @Test
    void anInterruptedAndResumedMlpRunEqualsAnUninterruptedOneBitForBit() throws IOException {
        Path dir = data(600, 100);
        ResumeAlone.assertSameAsUninterrupted(tmp, 7, "fashion", "--model", "mlp", "--data", dir.toString(), "--epochs", "3", "--seed", "4");
    }
}
