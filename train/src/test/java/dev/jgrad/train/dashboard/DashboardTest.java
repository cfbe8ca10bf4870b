package dev.jgrad.train.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jgrad.nn.io.Json;
import dev.jgrad.train.RunConfig;
import dev.jgrad.train.tensorboard.SummaryWriter;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dashboard over HTTP: what it lists and serves, what a broken run gets, and what it never serves. */
class DashboardTest {
    @TempDir
    Path tmp;
    Path runs;
    Dashboard dashboard;

    /** A response: its status, content type and body. */
    record Response(int statusCode, String type, String body) {
    }

    @BeforeEach
    void setUp() throws Exception {
        runs = tmp.resolve("runs");
        Path good = runs.resolve("mlp-good");
        Files.createDirectories(good);
        Files.writeString(good.resolve(RunConfig.FILE), RunConfig.of("mlp", Map.of("--lr", 0.01, "--epochs", 3)).toJson());
        try (SummaryWriter tb = new SummaryWriter(good.resolve("tb"))) {
            for (int step = 10; step <= 30; step += 10) {
                tb.addScalar("loss/train_step", 1.0 / step, step);
            }
            tb.addScalar("loss/val", 0.5, 16);
            tb.addScalar("loss/val", 0.25, 32);
            tb.addScalar("loss/val", 0.3, 48);
            tb.addText("sample", "To be, or not", 32);
        }
        Files.writeString(good.resolve("summary.json"), "{\"interrupted\": false, \"seconds\": 12.5}");
        ImageIO.write(new BufferedImage(4, 4, BufferedImage.TYPE_INT_RGB), "png", good.resolve("loss.png").toFile());

        Path broken = runs.resolve("broken");
        Files.createDirectories(broken);
        Files.writeString(broken.resolve("metrics.csv"), "this is not,a metrics file\n1,2\n");
        Path torn = runs.resolve("corrupt-tb");
        Files.createDirectories(torn.resolve("tb"));
        Files.write(torn.resolve("tb").resolve("events.out.tfevents.1700000000.h.1.0"), "garbage that is long enough to be read".getBytes());

        Path outside = tmp.resolve("outside");
        Files.createDirectories(outside);
        Files.writeString(outside.resolve("secret.txt"), "secret");
        Files.writeString(outside.resolve(RunConfig.FILE), RunConfig.of("mlp", Map.of()).toJson());
        ImageIO.write(new BufferedImage(2, 2, BufferedImage.TYPE_INT_RGB), "png", outside.resolve("other.png").toFile());
        Files.createSymbolicLink(runs.resolve("linked"), outside);
        Files.createSymbolicLink(good.resolve("evil.png"), outside.resolve("other.png"));
        Files.writeString(runs.resolve("notes.txt"), "not a run");

        dashboard = Dashboard.start(runs, "127.0.0.1", 0);
    }

    @AfterEach
    void tearDown() {
        dashboard.close();
    }

    private Response get(String pathAndQuery) throws Exception {
        return request("GET", pathAndQuery);
    }

    private Response request(String method, String pathAndQuery) throws Exception {
        HttpURLConnection c = (HttpURLConnection) dashboard.address().resolve(pathAndQuery).toURL().openConnection();
        c.setRequestMethod(method);
        if (method.equals("POST")) {
            c.setDoOutput(true);
            c.getOutputStream().write('x');
        }
        int code = c.getResponseCode();
        InputStream in = code < 400 ? c.getInputStream() : c.getErrorStream();
        String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        return new Response(code, c.getContentType(), body);
    }

    /** A request sent as raw bytes, so that nothing on the way normalises its path. */
    private int rawStatus(String target) throws IOException {
        URI a = dashboard.address();
        try (Socket s = new Socket(a.getHost(), a.getPort())) {
            OutputStream out = s.getOutputStream();
            out.write(("GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            String status = new String(in.readNBytes(12), StandardCharsets.ISO_8859_1);
            return Integer.parseInt(status.substring(9, 12));
        }
    }

    @SuppressWarnings("unchecked")
    @Test
    void listsTheRunsWithTheirStateBestLossAndErrors() throws Exception {
        Response r = get("/api/runs");
        assertEquals(200, r.statusCode());
        List<Map<String, Object>> list = (List<Map<String, Object>>) Json.parse(r.body());
        Map<String, Map<String, Object>> byName = new java.util.HashMap<>();
        list.forEach(m -> byName.put((String) m.get("name"), m));
        assertEquals(java.util.Set.of("mlp-good", "broken", "corrupt-tb"), byName.keySet(), "runs outside the folder and plain files are not listed");
        Map<String, Object> good = byName.get("mlp-good");
        assertEquals("mlp", good.get("trainer"));
        assertEquals("finished", good.get("state"));
        assertEquals(0.25, ((Number) good.get("best")).doubleValue(), 1e-7);
        assertEquals(32, ((Number) good.get("best_step")).intValue());
        assertTrue(((String) byName.get("broken").get("error")).contains("metrics.csv"), byName.get("broken").toString());
        assertTrue(((String) byName.get("corrupt-tb").get("error")).contains("events.out.tfevents"), byName.get("corrupt-tb").toString());
        assertFalse(r.body().contains(tmp.toString()), "errors name the run, not the machine's paths: " + r.body());
    }

    @SuppressWarnings("unchecked")
    @Test
    void servesARunsCurvesTextsOptionsAndCharts() throws Exception {
        Map<String, Object> run = (Map<String, Object>) Json.parse(get("/api/run?name=mlp-good").body());
        Map<String, Object> scalars = (Map<String, Object>) run.get("scalars");
        List<List<Number>> steps = (List<List<Number>>) scalars.get("loss/train_step");
        assertEquals(List.of(10L, 20L, 30L), steps.stream().map(p -> p.get(0).longValue()).toList());
        assertEquals(0.05f, steps.get(1).get(1).floatValue());
        List<List<Object>> sample = ((Map<String, List<List<Object>>>) run.get("texts")).get("sample");
        assertEquals("To be, or not", sample.get(0).get(1));
        assertEquals(0.01, ((Number) ((Map<String, Object>) run.get("options")).get("--lr")).doubleValue());
        assertEquals(List.of("loss.png"), run.get("charts"), "a link out of the folder is not a chart");
        Response png = get("/api/chart?run=mlp-good&file=loss.png");
        assertEquals(200, png.statusCode());
        assertEquals("image/png", png.type());
        assertTrue(get("/").body().contains("uPlot.iife.min.js"));
        assertEquals(200, get("/static/uplot/uPlot.iife.min.js").statusCode());
    }

    @SuppressWarnings("unchecked")
    @Test
    void aBrokenRunIsAnErrorForThatRunNotAFailure() throws Exception {
        Response r = get("/api/run?name=broken");
        assertEquals(200, r.statusCode());
        assertTrue(((String) ((Map<String, Object>) Json.parse(r.body())).get("error")).contains("metrics.csv"));
    }

    @Test
    void nothingOutsideTheRunsFolderIsServed() throws Exception {
        for (String target : List.of("/api/run?name=linked", "/api/run?name=..", "/api/run?name=%2e%2e", "/api/run?name=/etc",
                "/api/chart?run=mlp-good&file=../../outside/other.png", "/api/chart?run=linked&file=other.png",
                "/api/chart?run=mlp-good&file=evil.png", "/api/chart?run=..&file=outside/secret.txt",
                "/api/chart?run=mlp-good&file=%2e%2e%2f%2e%2e%2foutside%2fother.png", "/static/../../outside/secret.txt",
                "/static/%2e%2e/%2e%2e/outside/secret.txt", "/static/app.js/../../../outside/secret.txt", "//etc/passwd",
                "/api/chart?run=mlp-good&file=/etc/passwd", "/api/chart?run=mlp-good&file=summary.json", "/api/run", "/nothing")) {
            assertEquals(404, rawStatus(target), target);
        }
        assertEquals(405, request("POST", "/api/runs").statusCode());
    }

    @SuppressWarnings("unchecked")
    @Test
    void aRunThatTrainsIsSeenAsItGoes() throws Exception {
        Path live = runs.resolve("gpt-live");
        Files.createDirectories(live);
        Files.writeString(live.resolve("status.json"), "{\"state\": \"running\", \"pid\": " + ProcessHandle.current().pid()
                + ", \"started\": " + System.currentTimeMillis() + ", \"updated\": " + System.currentTimeMillis() + ", \"step\": 1, \"total_steps\": 100}");
        try (SummaryWriter tb = new SummaryWriter(live.resolve("tb"))) {
            tb.addScalar("loss/train_step", 2.0, 1);
            tb.flush();
            Map<String, Object> first = (Map<String, Object>) Json.parse(get("/api/run?name=gpt-live").body());
            assertEquals(1, ((List<Object>) ((Map<String, Object>) first.get("scalars")).get("loss/train_step")).size());
            tb.addScalar("loss/train_step", 1.5, 2);
            tb.flush();
            Map<String, Object> next = (Map<String, Object>) Json.parse(get("/api/run?name=gpt-live").body());
            assertEquals(2, ((List<Object>) ((Map<String, Object>) next.get("scalars")).get("loss/train_step")).size());
        }
        List<Map<String, Object>> list = (List<Map<String, Object>>) Json.parse(get("/api/runs").body());
        Map<String, Object> row = list.stream().filter(m -> m.get("name").equals("gpt-live")).findFirst().orElseThrow();
        assertEquals("running", row.get("state"));
        assertEquals(100, ((Number) row.get("total_steps")).intValue());
    }

    @Test
    void aRunWhoseProcessIsGoneWasInterrupted() {
        assertEquals("interrupted", RunsFolder.state(Map.of("state", "running", "pid", Long.MAX_VALUE / 2), Map.of()));
        assertEquals("running", RunsFolder.state(Map.of("state", "running", "pid", ProcessHandle.current().pid()), Map.of()));
        assertEquals("failed", RunsFolder.state(Map.of("state", "failed"), Map.of()));
        assertEquals("interrupted", RunsFolder.state(Map.of(), Map.of("interrupted", true)));
        assertEquals("unknown", RunsFolder.state(Map.of(), Map.of()));
    }

    @Test
    void aMissingFolderOrATakenPortIsAnErrorSayingSo() throws Exception {
        IOException missing = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> Dashboard.start(tmp.resolve("nowhere"), "127.0.0.1", 0));
        assertTrue(missing.getMessage().contains("nowhere"), missing.getMessage());
        IOException taken = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> Dashboard.start(runs, "127.0.0.1", dashboard.address().getPort()));
        assertTrue(taken.getMessage().contains("--port"), taken.getMessage());
    }

    @Test
    void curvesAreThinnedForThePage() {
        List<double[]> many = new java.util.ArrayList<>();
        for (int i = 0; i < 12_345; i++) {
            many.add(new double[] {i, i});
        }
        List<double[]> thin = RunsFolder.thin(many);
        assertEquals(RunsFolder.MAX_POINTS, thin.size());
        assertEquals(0, thin.get(0)[0]);
        assertEquals(12_344, thin.get(thin.size() - 1)[0], "the last point is kept");
    }
}
