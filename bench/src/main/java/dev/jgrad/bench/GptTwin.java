package dev.jgrad.bench;

import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.Checkpoint;
import dev.jgrad.nn.data.CharTokenizer;
import dev.jgrad.nn.gpt.BabyGpt;
import dev.jgrad.nn.gpt.GPT;
import dev.jgrad.nn.optim.AdamW;
import dev.jgrad.nn.optim.ClipGrad;
import dev.jgrad.nn.optim.LrScheduler;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Memory;
import dev.jgrad.tensor.Tensor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The first half of a twin run: nanoGPT's baby GPT trained by jgrad as {@code ./jgrad train gpt} trains it (same
 * initialisation, AdamW, schedule and clipping, drawn from the same seeds), writing into a folder what PyTorch needs to
 * train the same model on the same batches: the initial weights ({@code init.safetensors}), each step's batch starts
 * ({@code batches.txt}), and jgrad's loss and gradient norm a step ({@code jgrad.tsv}). {@code bench/pytorch/gpt_twin.py}
 * is the second half. Two runs of one seed in the two libraries then differ only in float rounding, which the
 * validation losses of runs from different seeds cannot show.
 *
 * <p>usage: {@code java --add-modules jdk.incubator.vector -cp bench/target/jgrad-bench.jar dev.jgrad.bench.GptTwin --data input.txt
 * --out DIR [--steps N] [--seed S]} (without the module, the plain kernels: slower, the same comparison)
 */
public final class GptTwin {
    static final int BLOCK = BabyGpt.BLOCK_SIZE;
    static final int BATCH = BabyGpt.BATCH_SIZE;

    private GptTwin() {
    }

    public static void main(String[] args) {
        try {
            run(args);
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("GptTwin: " + e.getMessage());
            System.exit(2);
        }
    }

    static void run(String[] args) throws IOException {
        Path data = null;
        Path out = null;
        int steps = BabyGpt.MAX_ITERS;
        long seed = 1;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--data" -> data = Path.of(required(args[i], value));
                case "--out" -> out = Path.of(required(args[i], value));
                case "--steps" -> steps = positive(args[i], required(args[i], value));
                case "--seed" -> seed = Long.parseLong(required(args[i], value));
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (usage: --data input.txt --out DIR [--steps N] [--seed S])");
            }
            i++;
        }
        if (data == null || out == null) {
            throw new IllegalArgumentException("--data and --out are required");
        }
        if (!Files.isRegularFile(data)) {
            throw new IllegalArgumentException(data + ": no such file");
        }
        String text = Files.readString(data, StandardCharsets.UTF_8);
        CharTokenizer tok = CharTokenizer.fromText(text);
        long[] all = tok.encode(text);
        long[] train = Arrays.copyOfRange(all, 0, (int) (0.9 * all.length));
        if (train.length <= BLOCK + 1) {
            throw new IllegalArgumentException(data + ": " + all.length + " characters are too few for a block of " + BLOCK);
        }
        Files.createDirectories(out);
        // As GptExample: the model from seed + 1, the training batches from seed, nanoGPT's hyperparameters.
        GPT model = new GPT(BabyGpt.config(tok.vocabSize()), new Generator(seed + 1));
        Checkpoint.save(model, out.resolve("init.safetensors"));
        AdamW opt = BabyGpt.optimizer(model);
        LrScheduler schedule = BabyGpt.schedule(opt);
        Generator batches = new Generator(seed);
        StringBuilder starts = new StringBuilder();
        StringBuilder losses = new StringBuilder("step\tloss\tgrad_norm\n");
        for (int step = 0; step < steps; step++) {
            long[] x = new long[BATCH * BLOCK];
            long[] y = new long[BATCH * BLOCK];
            for (int r = 0; r < BATCH; r++) {
                int at = batches.nextInt(train.length - BLOCK);
                System.arraycopy(train, at, x, r * BLOCK, BLOCK);
                System.arraycopy(train, at + 1, y, r * BLOCK, BLOCK);
                starts.append(r == 0 ? "" : " ").append(at);
            }
            starts.append('\n');
            try (Memory.Scope s = Memory.scope()) {
                Variable loss = model.loss(Tensor.of(x, BATCH, BLOCK), Tensor.of(y, BATCH, BLOCK));
                opt.zeroGrad();
                loss.backward();
                double norm = ClipGrad.clipGradNorm(model.parameters(), BabyGpt.GRAD_CLIP);
                opt.step();
                schedule.step();
                losses.append(String.format(Locale.ROOT, "%d\t%.6f\t%.6f%n", step, loss.item(), norm));
            }
        }
        Files.writeString(out.resolve("batches.txt"), starts);
        Files.writeString(out.resolve("jgrad.tsv"), losses);
        System.out.println("wrote init.safetensors, batches.txt and jgrad.tsv (" + steps + " steps) to " + out
                + "; now: python3 bench/pytorch/gpt_twin.py --data " + data + " " + out);
    }

    private static String required(String flag, String value) {
        if (value == null) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return value;
    }

    private static int positive(String flag, String value) {
        int n = Integer.parseInt(value);
        if (n < 1) {
            throw new IllegalArgumentException(flag + " must be 1 or more, got " + n);
        }
        return n;
    }
}
