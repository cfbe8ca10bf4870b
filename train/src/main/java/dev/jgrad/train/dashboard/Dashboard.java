package dev.jgrad.train.dashboard;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.jgrad.nn.io.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A live page of the runs in a folder, served by the JDK's HTTP server: the runs (name, trainer, state, best held-out
 * loss, time), their curves drawn with uPlot and updated in place while a run trains (the page polls every second and a
 * half), the runs picked to overlay, the GPT's latest samples and each run's options. It binds to 127.0.0.1 unless told
 * otherwise, answers GET only, and serves only its own page and the listed runs' data and charts.
 *
 * <pre>{@code
 * try (Dashboard d = Dashboard.start(Path.of("runs"), "127.0.0.1", 6006)) {
 *     System.out.println(d.address());   // http://127.0.0.1:6006/
 *     Thread.sleep(Long.MAX_VALUE);
 * }
 * }</pre>
 */
public final class Dashboard implements AutoCloseable {
    /** The page's own files: name to content type. */
    private static final Map<String, String> STATIC = Map.of(
            "index.html", "text/html; charset=utf-8",
            "app.js", "text/javascript; charset=utf-8",
            "app.css", "text/css; charset=utf-8",
            "uplot/uPlot.iife.min.js", "text/javascript; charset=utf-8",
            "uplot/uPlot.min.css", "text/css; charset=utf-8");

    private final HttpServer server;
    private final ExecutorService pool;
    private final RunsFolder runs;

    private Dashboard(HttpServer server, ExecutorService pool, RunsFolder runs) {
        this.server = server;
        this.pool = pool;
        this.runs = runs;
    }

    /**
     * Serves the runs under {@code runsFolder} on {@code host}:{@code port} (port 0: any free one) until closed. A folder
     * that is not there, or a port already taken, is an IOException saying which.
     */
    public static Dashboard start(Path runsFolder, String host, int port) throws IOException {
        if (!Files.isDirectory(runsFolder)) {
            throw new IOException(runsFolder + " is not a folder of runs (a run's --out goes under it; default runs/)");
        }
        RunsFolder runs = new RunsFolder(runsFolder);
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 0);
        } catch (java.net.BindException e) {
            throw new IOException("cannot serve on " + host + ":" + port + ": " + e.getMessage() + " (another program has it? pick another --port)", e);
        }
        ExecutorService pool = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "jgrad-dashboard");
            t.setDaemon(true);
            return t;
        });
        Dashboard d = new Dashboard(server, pool, runs);
        server.createContext("/", d::handle);
        server.setExecutor(pool);
        server.start();
        return d;
    }

    /** The page's address. */
    public URI address() {
        InetSocketAddress a = server.getAddress();
        String host = a.getAddress().isAnyLocalAddress() ? "127.0.0.1" : a.getHostString();
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + "/");
    }

    /** Stops serving. */
    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }

    private void handle(HttpExchange ex) {
        try {
            if (!ex.getRequestMethod().equals("GET") && !ex.getRequestMethod().equals("HEAD")) {
                send(ex, 405, "text/plain; charset=utf-8", "GET only\n".getBytes(StandardCharsets.UTF_8));
                return;
            }
            String path = ex.getRequestURI().getRawPath();
            Map<String, String> query = query(ex.getRequestURI().getRawQuery());
            if (path.equals("/")) {
                staticFile(ex, "index.html");
            } else if (path.startsWith("/static/") && STATIC.containsKey(path.substring("/static/".length()))) {
                staticFile(ex, path.substring("/static/".length()));
            } else if (path.equals("/api/runs")) {
                json(ex, 200, runList());
            } else if (path.equals("/api/run")) {
                Optional<Path> run = runs.run(query.get("name"));
                if (run.isEmpty()) {
                    notFound(ex);
                } else {
                    json(ex, 200, runData(run.get()));
                }
            } else if (path.equals("/api/chart")) {
                Optional<Path> f = runs.file(query.get("run"), query.get("file"));
                if (f.isEmpty()) {
                    notFound(ex);
                } else {
                    send(ex, 200, "image/png", Files.readAllBytes(f.get()));
                }
            } else {
                notFound(ex);
            }
        } catch (IOException | RuntimeException e) {
            // The page shows the error for what it asked; the server goes on.
            try {
                json(ex, 500, Map.of("error", String.valueOf(e.getMessage())));
            } catch (IOException | RuntimeException ignored) {
                // The answer had begun: nothing more to say on this exchange.
            }
        } finally {
            ex.close();
        }
    }

    private List<Object> runList() throws IOException {
        List<Object> out = new ArrayList<>();
        for (Path run : runs.runs()) {
            out.add(jsonSafe(runs.summary(run)));
        }
        return out;
    }

    private Map<String, Object> runData(Path run) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", run.getFileName().toString());
        try {
            m.putAll(runs.data(run));
        } catch (IOException | RuntimeException e) {
            m.put("error", RunsFolder.message(run, e));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> safe = (Map<String, Object>) jsonSafe(m);
        return safe;
    }

    /** Arrays as lists, NaN and infinities as null: what JSON can hold. */
    static Object jsonSafe(Object v) {
        if (v instanceof double[] d) {
            List<Object> l = new ArrayList<>(d.length);
            for (double x : d) {
                l.add(Double.isFinite(x) ? x : null);
            }
            return l;
        }
        if (v instanceof Object[] a) {
            List<Object> l = new ArrayList<>(a.length);
            for (Object x : a) {
                l.add(jsonSafe(x));
            }
            return l;
        }
        if (v instanceof List<?> list) {
            List<Object> l = new ArrayList<>(list.size());
            for (Object x : list) {
                l.add(jsonSafe(x));
            }
            return l;
        }
        if (v instanceof Map<?, ?> map) {
            Map<String, Object> m = new LinkedHashMap<>();
            map.forEach((k, x) -> m.put(String.valueOf(k), jsonSafe(x)));
            return m;
        }
        if (v instanceof Double d && !Double.isFinite(d) || v instanceof Float f && !Float.isFinite(f)) {
            return null;
        }
        return v;
    }

    private void staticFile(HttpExchange ex, String name) throws IOException {
        try (InputStream in = Dashboard.class.getResourceAsStream(name)) {
            if (in == null) {
                notFound(ex);
                return;
            }
            send(ex, 200, STATIC.get(name), in.readAllBytes());
        }
    }

    private static void json(HttpExchange ex, int code, Object body) throws IOException {
        send(ex, code, "application/json; charset=utf-8", Json.write(body).getBytes(StandardCharsets.UTF_8));
    }

    private static void notFound(HttpExchange ex) throws IOException {
        send(ex, 404, "text/plain; charset=utf-8", "not found\n".getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange ex, int code, String type, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        ex.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        boolean head = ex.getRequestMethod().equals("HEAD");
        ex.sendResponseHeaders(code, head ? -1 : body.length == 0 ? -1 : body.length);
        if (!head && body.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** The query's parameters, decoded (the last of a repeated one). */
    static Map<String, String> query(String raw) {
        Map<String, String> m = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return m;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k = eq < 0 ? pair : pair.substring(0, eq);
            String v = eq < 0 ? "" : pair.substring(eq + 1);
            try {
                m.put(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                // A malformed escape: the parameter is ignored, and what needed it is not found.
            }
        }
        return m;
    }
}
