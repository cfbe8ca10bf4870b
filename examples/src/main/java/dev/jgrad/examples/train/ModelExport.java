package dev.jgrad.examples.train;

import dev.jgrad.autograd.Variable;
import dev.jgrad.examples.UserError;
import dev.jgrad.nn.Module;
import dev.jgrad.nn.ModuleDict;
import dev.jgrad.nn.Sequential;
import dev.jgrad.nn.data.CharTokenizer;
import dev.jgrad.nn.data.ImageDataset;
import dev.jgrad.nn.gpt.GPT;
import dev.jgrad.nn.gpt.GPTConfig;
import dev.jgrad.nn.io.BoundedFiles;
import dev.jgrad.nn.onnx.OnnxOptions;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.train.RunConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * What {@code jgrad export} needs of each trainer's run: the model rebuilt from the run's options (its weights are then
 * loaded from model.safetensors), the forward to export, the names and dynamic axes of its inputs and output (the table
 * in docs/onnx.md), and a batch of the run's own data to check the exported file on.
 */
public final class ModelExport {
    /** How many examples the check runs. */
    static final int CHECK_BATCH = 8;

    private ModelExport() {
    }

    /** A model to export: what it takes and gives, and the data it is checked on ({@code dataNote} says which). */
    public record Plan(Module module, Function<Variable[], Variable> forward, Tensor[] batch, OnnxOptions options, String signature,
                       String dataNote) {
    }

    /** The plan for the run in {@code run}, whose checkpoint's metadata is {@code metadata}. */
    public static Plan plan(RunConfig config, Path run, Map<String, String> metadata) {
        String trainer = config.trainer();
        long seed = config.text("--seed") == null ? 0 : Long.parseLong(config.text("--seed"));
        if (trainer.equals("regression")) {
            ModuleDict models = RegressionExample.models(seed);
            Module fixed = models.children().get("fixed");
            return plan(models, in -> ((Sequential) fixed).forward(in[0]), RegressionExample.heldOutFeatures(seed), "features",
                    "prediction", "the fixed model", "held-out features");
        }
        if (trainer.equals("mlp")) {
            Sequential model = SpiralsExample.model(new Generator(0));
            return plan(model, in -> model.forward(in[0]), SpiralsExample.heldOutPoints(seed), "points", "logits", "the MLP",
                    "held-out points");
        }
        if (trainer.equals("pinn") || trainer.startsWith("pinn-")) {
            PinnExample.Problem problem = PinnExample.Problem.valueOf(option(config, "--problem", "POISSON1D").toUpperCase(Locale.ROOT));
            PinnExample.Pde pde = PinnExample.pde(problem);
            Sequential model = PinnExample.model(pde, new Generator(0));
            return plan(model, in -> model.forward(in[0]), pde.grid(), "x", "u", "the network u(x)", "points of the solution's grid");
        }
        if (trainer.equals("attention")) {
            AttentionExample.TinyTransformer model = new AttentionExample.TinyTransformer(new Generator(0));
            Generator g = new Generator(seed);
            AttentionExample.data(g, AttentionExample.TRAIN);
            Tensor[] test = AttentionExample.data(g, AttentionExample.TEST);
            OnnxOptions o = OnnxOptions.defaults().inputNames("tokens", "padding").outputNames("logits")
                    .dynamicAxis("tokens", 0, "batch").dynamicAxis("tokens", 1, "sequence")
                    .dynamicAxis("padding", 0, "batch").dynamicAxis("padding", 1, "sequence")
                    .dynamicAxis("logits", 0, "batch").dynamicAxis("logits", 1, "sequence");
            return new Plan(model, in -> model.forward(in[0].data(), in[1].data()),
                    new Tensor[] {test[0].narrow(0, 0, CHECK_BATCH), test[2].narrow(0, 0, CHECK_BATCH)}, o,
                    "tokens int64 [batch, sequence], padding bool [batch, sequence] (true at padding) -> logits float32 [batch, sequence, "
                            + AttentionExample.VOCAB + "]", CHECK_BATCH + " held-out sequences");
        }
        if (trainer.startsWith("fashion")) {
            FashionExample.Model kind = FashionExample.Model.valueOf(option(config, "--model", trainer.endsWith("mlp") ? "mlp" : "cnn"));
            Sequential model = FashionExample.build(kind, new Generator(0));
            Path data = config.text("--data") == null ? FashionExample.DEFAULT_DATA : Path.of(config.text("--data"));
            Tensor[] images = fashionImages(data);
            OnnxOptions o = OnnxOptions.defaults().inputNames("images").outputNames("logits").dynamicAxis("images", 0, "batch")
                    .dynamicAxis("logits", 0, "batch");
            // The trainer's standardisation is part of the graph: the exported model takes pixels scaled to [0, 1].
            return new Plan(model, in -> model.forward(in[0].sub(FashionExample.MEAN).div(FashionExample.STD)), new Tensor[] {images[0]}, o,
                    "images float32 [batch, 1, 28, 28] (pixels in [0, 1]) -> logits float32 [batch, 10]", images[1] == null
                            ? CHECK_BATCH + " test images from " + data : CHECK_BATCH + " random images (" + data + " has no test images)");
        }
        if (trainer.equals("gpt")) {
            GPTConfig gc;
            try {
                gc = GPTConfig.fromMetadata(metadata);
            } catch (IllegalArgumentException e) {
                throw new UserError(run.resolve("model.safetensors") + " is not a GPT that 'jgrad train gpt' saved: " + e.getMessage());
            }
            GPT model = new GPT(gc, new Generator(0));
            Tensor ids = gptTokens(config, run, gc);
            OnnxOptions o = OnnxOptions.defaults().inputNames("input_ids").outputNames("logits")
                    .dynamicAxis("input_ids", 0, "batch").dynamicAxis("input_ids", 1, "sequence")
                    .dynamicAxis("logits", 0, "batch").dynamicAxis("logits", 1, "sequence");
            return new Plan(model, in -> model.forward(in[0].data()), new Tensor[] {ids}, o,
                    "input_ids int64 [batch, sequence <= " + gc.blockSize() + "] -> logits float32 [batch, sequence, " + gc.vocabSize() + "]",
                    ids.size(0) + " windows of " + ids.size(1) + " characters of the run's text");
        }
        throw new UserError("runs of '" + trainer + "' cannot be exported: export knows the trainers regression, attention, mlp, fashion,"
                + " pinn and gpt");
    }

    private static Plan plan(Module m, Function<Variable[], Variable> f, Tensor data, String in, String out, String what, String dataNote) {
        OnnxOptions o = OnnxOptions.defaults().inputNames(in).outputNames(out).dynamicAxis(in, 0, "batch").dynamicAxis(out, 0, "batch");
        Tensor batch = data.narrow(0, 0, Math.min(CHECK_BATCH, data.size(0)));
        return new Plan(m, f, new Tensor[] {batch}, o, what + ": " + in + " float32 [batch, " + data.size(1) + "] -> " + out
                + " float32 [batch, " + (out.equals("logits") ? 2 : 1) + "]", batch.size(0) + " " + dataNote);
    }

    private static String option(RunConfig config, String name, String fallback) {
        String v = config.text(name);
        return v == null ? fallback : v;
    }

    /** The first test images of the folder, scaled to [0, 1]; random ones (and a second element) where there are none. */
    private static Tensor[] fashionImages(Path dir) {
        Path images = existing(dir, "t10k-images-idx3-ubyte");
        Path labels = existing(dir, "t10k-labels-idx1-ubyte");
        if (images != null && labels != null) {
            try {
                ImageDataset test = ImageDataset.fromIdx(images, labels, 0.0, 1.0);
                if (test.size() > 0 && test.height() == 28 && test.width() == 28) {
                    long[] first = new long[Math.min(CHECK_BATCH, test.size())];
                    for (int i = 0; i < first.length; i++) {
                        first[i] = i;
                    }
                    return new Tensor[] {test.get(first).get(0), null};
                }
            } catch (IOException | RuntimeException e) {
                // The check falls back on random images, and says so.
            }
        }
        return new Tensor[] {Tensor.rand(new Generator(0), CHECK_BATCH, 1, 28, 28), Tensor.scalar(0)};
    }

    private static Path existing(Path dir, String name) {
        Path gz = dir.resolve(name + ".gz");
        Path plain = dir.resolve(name);
        return Files.isRegularFile(gz) ? gz : Files.isRegularFile(plain) ? plain : null;
    }

    /** Two windows of the run's text, as its tokenizer encodes them; random ids where the text is gone. */
    private static Tensor gptTokens(RunConfig config, Path run, GPTConfig gc) {
        int len = Math.min(gc.blockSize(), 32);
        String data = config.text("--data");
        try {
            CharTokenizer tok = CharTokenizer.load(run.resolve(GptExample.TOKENIZER));
            if (data != null) {
                String text = BoundedFiles.readUtf8(Path.of(data), GptExample.MAX_TEXT_BYTES, "text");
                long[] ids = tok.encode(text.substring(0, Math.min(text.length(), 4 * len)));
                if (ids.length >= 2 * len) {
                    return Tensor.of(java.util.Arrays.copyOf(ids, 2 * len), 2, len);
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            // Checked on random ids below.
        }
        return Tensor.randint(new Generator(0), 0, gc.vocabSize(), 2, len);
    }

    static List<String> trainers() {
        return List.of("regression", "attention", "mlp", "fashion", "pinn", "gpt");
    }
}
