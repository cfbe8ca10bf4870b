package dev.jgrad.examples.cli;

import dev.jgrad.examples.UserError;
import dev.jgrad.nn.StateDictException;
import dev.jgrad.nn.data.CharTokenizer;
import dev.jgrad.nn.gpt.GPT;
import dev.jgrad.nn.gpt.GPTConfig;
import dev.jgrad.nn.io.AtomicFile;
import dev.jgrad.nn.io.CheckpointException;
import dev.jgrad.nn.io.Safetensors;
import dev.jgrad.tensor.Backend;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code jgrad sample --checkpoint DIR}: text from a model {@code jgrad train gpt} trained, streamed as it is drawn. */
@Command(name = "sample", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Generate text with a GPT that 'jgrad train gpt' trained: the characters stream to stdout as they are drawn, "
            + "the speed goes to stderr. The same --seed gives the same text."})
public final class SampleCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--checkpoint", paramLabel = "DIR", required = true,
            description = "a run folder of 'jgrad train gpt' (model.safetensors and tokenizer.json), or its model.safetensors")
    Path checkpoint;
    @Option(names = "--prompt", paramLabel = "TEXT", defaultValue = "\n", description = "the text to continue (default: a new line)")
    String prompt;
    @Option(names = "--tokens", paramLabel = "N", defaultValue = "500", description = "characters to generate (default: ${DEFAULT-VALUE})")
    int tokens;
    @Option(names = "--temperature", paramLabel = "T", defaultValue = "0.8",
            description = "divide the logits by T: lower is more predictable, 0 always takes the likeliest (default: ${DEFAULT-VALUE})")
    double temperature;
    @Option(names = "--top-k", paramLabel = "K", defaultValue = "200", description = "draw from the K likeliest only, 0 for all (default: ${DEFAULT-VALUE})")
    int topK;
    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "the draws' seed (default: ${DEFAULT-VALUE})")
    long seed;
    @Option(names = "--threads", paramLabel = "N", description = "threads for the kernels (default: all cores)")
    Integer threads;

    @Override
    public Integer call() throws IOException {
        if (tokens < 0 || tokens > 1_000_000) {
            throw new ParameterException(spec.commandLine(), "--tokens must be from 0 to 1000000, got " + tokens);
        }
        if (!(temperature >= 0) || Double.isInfinite(temperature)) {
            throw new ParameterException(spec.commandLine(), "--temperature must be a finite number, 0 or more, got " + temperature);
        }
        if (topK < 0) {
            throw new ParameterException(spec.commandLine(), "--top-k must be 0 or more, got " + topK);
        }
        if (threads != null) {
            if (threads < 1 || threads > Backend.maxThreads()) {
                throw new ParameterException(spec.commandLine(), "--threads must be from 1 to " + Backend.maxThreads() + ", got " + threads);
            }
            Backend.setThreads(threads);
        }
        if (!Files.exists(checkpoint)) {
            throw new UserError("--checkpoint " + checkpoint + ": no such folder or file (a run folder of 'jgrad train gpt', or its"
                    + " model.safetensors)");
        }
        Path model = Files.isDirectory(checkpoint) ? checkpoint.resolve("model.safetensors") : checkpoint;
        Path tokenizerFile = model.toAbsolutePath().resolveSibling("tokenizer.json");
        CharTokenizer tok;
        try {
            tok = CharTokenizer.load(tokenizerFile);
        } catch (IOException e) {
            String why = e instanceof java.nio.file.FileSystemException ? "cannot read " + tokenizerFile + ": " + AtomicFile.reason(e)
                    : e.getMessage();
            throw new UserError("--checkpoint: " + why + " (the tokenizer that 'jgrad train gpt' writes beside the model)", e);
        }
        GPT gpt = load(model);
        if (gpt.config().vocabSize() != tok.vocabSize()) {
            throw new UserError("--checkpoint: " + model + " has a vocabulary of " + gpt.config().vocabSize() + " but " + tokenizerFile
                    + " has " + tok.vocabSize() + " characters; they are not from the same run");
        }
        long[] ids;
        try {
            ids = tok.encode(prompt.isEmpty() ? "\n" : prompt);
        } catch (IllegalArgumentException e) {
            throw new UserError("--prompt: " + e.getMessage());
        }
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        out.print(prompt);
        out.flush();
        long started = System.nanoTime();
        long[] first = {0};
        gpt.generate(Tensor.of(ids, 1, ids.length), tokens, temperature, topK, new Generator(seed), t -> {
            if (first[0] == 0) {
                first[0] = System.nanoTime();
            }
            out.print(tok.decode(t));
            out.flush();
        });
        long ended = System.nanoTime();
        out.println();
        out.flush();
        System.err.println(speed(tokens, started, first[0], ended));
        return 0;
    }

    /**
     * The speed line: the time in all, and the rate after the first token, whose time holds the prompt's forward pass and
     * the JVM's compiling of the model's code (a short sample would otherwise report a fraction of the real rate).
     */
    static String speed(int tokens, long started, long first, long ended) {
        double seconds = (ended - started) / 1e9;
        if (tokens < 2) {
            return String.format(Locale.ROOT, "%d token(s) in %.2f s", tokens, seconds);
        }
        double rest = Math.max(1e-9, (ended - first) / 1e9);
        return String.format(Locale.ROOT, "%d tokens in %.2f s: %.0f tokens/s after the first, which took %.2f s (the prompt, and the"
                + " JVM compiling the model's code)", tokens, seconds, (tokens - 1) / rest, (first - started) / 1e9);
    }

    private static GPT load(Path model) {
        Safetensors.Contents file;
        try {
            file = Safetensors.load(model);
        } catch (CheckpointException e) {
            throw new UserError("--checkpoint: " + e.getMessage().split("\n")[0], e);
        }
        GPTConfig config;
        try {
            config = GPTConfig.fromMetadata(file.metadata());
        } catch (IllegalArgumentException e) {
            throw new UserError("--checkpoint: " + model + " is not a GPT that 'jgrad train gpt' saved: " + e.getMessage());
        }
        GPT gpt = new GPT(config, new Generator(0));
        try {
            gpt.loadStateDict(file.tensors());
        } catch (StateDictException e) {
            throw new UserError("--checkpoint: " + model + ": " + e.getMessage().split("\n")[0] + " " + e.getMessage().split("\n")[1].trim());
        }
        return gpt;
    }
}
