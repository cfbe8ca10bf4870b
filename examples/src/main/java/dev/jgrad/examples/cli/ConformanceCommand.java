package dev.jgrad.examples.cli;

import dev.jgrad.examples.UserError;
import dev.jgrad.examples.conformance.Checker;
import dev.jgrad.examples.conformance.ConformanceRunner;
import dev.jgrad.nn.io.AtomicFile;
import dev.jgrad.nn.io.BoundedFiles;
import dev.jgrad.nn.io.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code jgrad conformance CASES.json --out RESULTS.json}: runs a PyTorch corpus through jgrad. */
@Command(name = "conformance", mixinStandardHelpOptions = true,
        description = {"Run a jgrad-oracle/1 corpus through jgrad and write a jgrad-results/1 file.",
            "Reads each case's inputs, steps and report, never its expected values."})
public final class ConformanceCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "CASES.json", description = "the corpus to run")
    Path cases;

    @Option(names = "--out", paramLabel = "RESULTS.json", required = true, description = "where to write the results")
    Path out;

    @Option(names = "--check", description = "also compare with the expected values in CASES.json (as check.py does); exit 1 on failures")
    boolean check;

    @Override
    public Integer call() throws IOException {
        Map<String, Object> corpus = readCorpus(cases);
        ConformanceRunner runner = new ConformanceRunner();
        long start = System.nanoTime();
        Map<String, Object> results = runner.run(corpus);
        double seconds = (System.nanoTime() - start) / 1e9;
        try {
            AtomicFile.writeString(out, Json.write(results));
        } catch (IOException e) {
            throw new UserError(e.getMessage(), e);
        }
        System.out.printf("%s in %.1f s -> %s%n", ConformanceRunner.summarize(results), seconds, out);
        if (check) {
            Checker.Report report = Checker.check(corpus, results, Checker.Mode.ALL);
            System.out.println(report.render(40));
            return report.failed() == 0 ? 0 : 1;
        }
        return 0;
    }

    /** The largest corpus read (the PyTorch corpus is about 2 MB). */
    static final long MAX_CORPUS_BYTES = 256L << 20;

    @SuppressWarnings("unchecked")
    static Map<String, Object> readCorpus(Path path) {
        String text;
        try {
            text = BoundedFiles.readUtf8(path, MAX_CORPUS_BYTES, "corpus");
        } catch (NoSuchFileException e) {
            throw new UserError("corpus file not found: " + path);
        } catch (IOException e) {
            throw new UserError("cannot read the corpus: " + e.getMessage());
        }
        Object parsed;
        try {
            parsed = Json.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UserError(path + " is not valid JSON: " + e.getMessage());
        }
        if (!(parsed instanceof Map) || !(((Map<String, Object>) parsed).get("cases") instanceof java.util.List)) {
            throw new UserError(path + " is not a jgrad-oracle corpus: expected an object with a \"cases\" list");
        }
        return (Map<String, Object>) parsed;
    }
}
