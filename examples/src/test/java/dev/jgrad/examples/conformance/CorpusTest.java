package dev.jgrad.examples.conformance;

import dev.jgrad.nn.io.Json;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PyTorch corpus (795 programs run through PyTorch 1.13, copied into the test resources) run through
 * jgrad and judged by the rules of the corpus's check.py. A regression in any op shows up here.
 */
class CorpusTest {
    private static Map<String, Object> corpus;
    private static Map<String, Object> results;

    @SuppressWarnings("unchecked")
    static Map<String, Object> load() throws IOException {
        try (InputStream in = CorpusTest.class.getResourceAsStream("/oracle/cases.json")) {
            return (Map<String, Object>) Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @BeforeAll
    static void run() throws IOException {
        corpus = load();
        results = new ConformanceRunner().run(corpus);
    }

    @Test
    void theWholeCorpusMatchesPyTorch() {
        Checker.Report r = Checker.check(corpus, results, Checker.Mode.ALL);
        assertEquals(0, r.failed(), r.render(40));
        assertEquals(795, r.passed());
    }

    @Test
    void everyForwardValueMatchesPyTorch() {
        Checker.Report r = Checker.check(corpus, results, Checker.Mode.FORWARD_ONLY);
        assertEquals(0, r.failed(), r.render(40));
        assertEquals(736, r.passed());
    }

    @Test
    void everyCaseOutsideNnMatchesIncludingGradientsAndErrors() {
        Checker.Report r = Checker.check(corpus, results, Checker.Mode.NO_NN);
        assertEquals(0, r.failed(), r.render(40));
        assertEquals(747, r.passed());
    }

    @Test
    @SuppressWarnings("unchecked")
    void resultsHaveOneEntryPerCaseInTheResultsFormat() {
        assertEquals("jgrad-results/1", results.get("format"));
        List<Object> list = (List<Object>) results.get("results");
        assertEquals(((List<Object>) corpus.get("cases")).size(), list.size());
        for (Object o : list) {
            Map<String, Object> r = (Map<String, Object>) o;
            assertTrue(List.of("ok", "error", "unsupported").contains(r.get("status")), String.valueOf(r));
            if ("error".equals(r.get("status"))) {
                assertTrue(List.of("shape", "index", "dtype", "autograd", "value").contains(r.get("kind")), String.valueOf(r));
                assertTrue(!String.valueOf(r.get("message")).isEmpty());
            }
        }
    }

    /** The same results come out of a corpus handed out without answers: the runner never reads them. */
    @Test
    @SuppressWarnings("unchecked")
    void runnerNeverReadsTheExpectedValues() throws IOException {
        Map<String, Object> blind = load();
        for (Object o : (List<Object>) blind.get("cases")) {
            Map<String, Object> c = (Map<String, Object>) o;
            c.remove("expect");
            c.remove("expect_error");
        }
        assertEquals(Json.write(results), Json.write(new ConformanceRunner().run(blind)));
    }

    @Test
    @SuppressWarnings("unchecked")
    void oneFailingCaseNeverStopsTheOthers() {
        Map<String, Object> bad = Map.of("cases", List.of(
                Map.of("id", "x.unknown", "inputs", Map.of(), "steps", List.of(Map.of("op", "frobnicate", "args", List.of(), "out", "y")), "report", List.of("y")),
                Map.of("id", "x.bad_name", "inputs", Map.of(), "steps", List.of(Map.of("op", "neg", "args", List.of("nope"), "out", "y")), "report", List.of("y")),
                ((List<Object>) corpus.get("cases")).get(0)));
        List<Object> out = (List<Object>) new ConformanceRunner().run(bad).get("results");
        assertEquals("unsupported", ((Map<String, Object>) out.get(0)).get("status"));
        assertEquals("error", ((Map<String, Object>) out.get(1)).get("status"));
        assertEquals("ok", ((Map<String, Object>) out.get(2)).get("status"));
    }
}
