package dev.jgrad.examples.fuzz;

import dev.jgrad.examples.cli.Main;
import dev.jgrad.nn.Linear;
import dev.jgrad.nn.Parameter;
import dev.jgrad.nn.io.CheckpointException;
import dev.jgrad.nn.io.Json;
import dev.jgrad.nn.io.Safetensors;
import dev.jgrad.nn.optim.SGD;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Hostile input thrown at the checkpoint loader and the command line, seeded and bounded: corrupted
 * safetensors headers and data, deeply nested JSON, special files (a FIFO, /dev/zero, a folder) and bad
 * arguments. Every CLI run must end within its time limit with exit code 2 and exactly one line on
 * stderr, under 300 characters; no Error may escape; and a good run folder passed as --out must come
 * out of it byte for byte the same.
 */
@Timeout(600)
class BadInputFuzzIT {
    private static final long SEED = 20261203L;
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    static Path tmp;
    /** A finished run's folder and its files' bytes, which no bad run may change. */
    static Path good;
    static Map<String, byte[]> goodFiles;
    static byte[] checkpoint;

    @BeforeAll
    static void aGoodRun() throws IOException {
        good = tmp.resolve("good");
        assertEquals(0, quietly(() -> Main.run("train", "mlp", "--epochs", "2", "--out", good.toString())));
        goodFiles = snapshot(good);
        checkpoint = goodFiles.get("model.safetensors");
    }

    private static Map<String, byte[]> snapshot(Path dir) throws IOException {
        Map<String, byte[]> m = new TreeMap<>();
        // The whole folder, tb/'s event files included: a refused run adds nothing to it, not even an event file.
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (Files.isRegularFile(f)) {
                    m.put(dir.relativize(f).toString(), Files.readAllBytes(f));
                }
            }
        }
        return m;
    }

    private static void assertGoodRunUntouched(String after) throws IOException {
        Map<String, byte[]> now = snapshot(good);
        assertEquals(goodFiles.keySet(), now.keySet(), "files in the good run folder after " + after);
        for (Map.Entry<String, byte[]> e : goodFiles.entrySet()) {
            assertTrue(Arrays.equals(e.getValue(), now.get(e.getKey())), e.getKey() + " changed after " + after);
        }
    }

    private interface Run {
        int run();
    }

    private static int quietly(Run r) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        System.setOut(sink);
        System.setErr(sink);
        try {
            return r.run();
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    /** Runs the CLI in-process; returns its stderr after checking the exit code, the time limit and that no Error escaped. */
    private static String cli(int expectedExit, String... args) {
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        PrintStream out = System.out;
        PrintStream err = System.err;
        String what = String.join(" ", args);
        int code;
        try {
            System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
            code = assertTimeoutPreemptively(LIMIT, () -> {
                try {
                    return Main.run(args);
                } catch (Error e) {
                    fail("an Error escaped from jgrad " + what + ": " + e);
                    return -1;
                }
            }, "jgrad " + what + " did not finish in " + LIMIT);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        String stderr = errBytes.toString(StandardCharsets.UTF_8);
        assertEquals(expectedExit, code, "exit code of jgrad " + what + "; stderr: " + stderr);
        return stderr;
    }

    /** A bad run: exit 2, one line under 300 characters, and the good folder unchanged. */
    private static String refused(String... args) throws IOException {
        String stderr = cli(2, args);
        String[] lines = stderr.strip().split("\n");
        String what = "jgrad " + String.join(" ", args);
        assertEquals(1, lines.length, what + " printed " + lines.length + " lines: " + stderr);
        assertTrue(lines[0].startsWith("jgrad: error: "), what + ": " + lines[0]);
        assertTrue(lines[0].length() < 300, what + " printed " + lines[0].length() + " characters: " + lines[0]);
        assertGoodRunUntouched(what);
        return lines[0];
    }

    private static Path write(String name, byte[] bytes) throws IOException {
        return Files.write(tmp.resolve(name), bytes);
    }

    private static byte[] withHeader(String header) {
        byte[] h = header.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(8 + h.length).order(ByteOrder.LITTLE_ENDIAN).putLong(h.length).put(h).array();
    }

    private static long headerLength(byte[] file) {
        return ByteBuffer.wrap(file, 0, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    /** Corruptions of the good checkpoint: flipped header bytes, truncations, bad lengths, hostile headers. */
    private static List<byte[]> corruptCheckpoints(Random r) {
        List<byte[]> bad = new ArrayList<>();
        int headerEnd = (int) (8 + headerLength(checkpoint));
        for (int i = 0; i < 120; i++) {
            byte[] b = checkpoint.clone();
            int flips = 1 + r.nextInt(4);
            for (int f = 0; f < flips; f++) {
                b[8 + r.nextInt(headerEnd - 8)] = (byte) r.nextInt(256);
            }
            bad.add(b);
        }
        for (int i = 0; i < 30; i++) {
            bad.add(Arrays.copyOf(checkpoint, r.nextInt(checkpoint.length)));
        }
        for (long len : new long[] {-1, 0, 1, Long.MAX_VALUE, Long.MIN_VALUE, checkpoint.length, 1L << 40, 100L * 1024 * 1024 + 1}) {
            byte[] b = checkpoint.clone();
            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putLong(0, len);
            bad.add(b);
        }
        bad.add(withHeader("[".repeat(100_000) + "]".repeat(100_000)));
        bad.add(withHeader("{\"a\":".repeat(50_000) + "1" + "}".repeat(50_000)));
        bad.add(withHeader("{\"__metadata__\":{\"a\":\"1\"},\"__metadata__\":{\"b\":\"2\"}}"));
        bad.add(withHeader("{\"x\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},\"x\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}"));
        bad.add(withHeader("{\"x\":{\"dtype\":\"F32\",\"shape\":[60000,60000,60000],\"data_offsets\":[0,4]}}"));
        bad.add(withHeader("{\"x\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,4]}}"));
        bad.add(withHeader("{\"x\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,0]}}"));
        bad.add(withHeader("{\"x\":{\"dtype\":\"C64\",\"shape\":[1],\"data_offsets\":[0,8]}}"));
        bad.add(withHeader("{\"x\":{\"dtype\":\"F32\",\"shape\":[1.5],\"data_offsets\":[0,4]}}"));
        bad.add(withHeader("{\"x\":{\"dtype\":\"F32\",\"shape\":[01],\"data_offsets\":[0,4]}}"));
        bad.add(withHeader("[1,2,3]"));
        bad.add(withHeader("\"just a string\""));
        byte[] utf8 = withHeader("{\"__metadata__\":{\"a\":\"XX\"}}");
        utf8[8 + 20] = (byte) 0xC3;
        utf8[8 + 21] = (byte) 0x28;
        bad.add(utf8);
        return bad;
    }

    @Test
    void corruptedCheckpointsAreCheckpointExceptionsAndTheCliRefusesThemWithoutTouchingGoodFiles() throws IOException {
        Random r = new Random(SEED);
        List<byte[]> bad = corruptCheckpoints(r);
        int refusedByLoader = 0;
        int cliRuns = 0;
        for (int i = 0; i < bad.size(); i++) {
            Path f = write("bad-" + i + ".safetensors", bad.get(i));
            boolean loads;
            try {
                Safetensors.load(f);
                loads = true;
            } catch (CheckpointException e) {
                loads = false;
                refusedByLoader++;
                assertTrue(e.getMessage().length() < 2000, "message of case " + i + " is " + e.getMessage().length() + " characters");
            } catch (RuntimeException e) {
                throw new AssertionError("case " + i + ": the loader threw " + e + " instead of a CheckpointException", e);
            }
            // Every refused file, and every tenth one the loader takes (a flipped byte in a name or a value),
            // goes through the CLI too: refused or not, the good folder must survive.
            if (!loads || i % 10 == 0) {
                cliRuns++;
                if (!loads) {
                    refused("train", "mlp", "--resume", f.toString(), "--epochs", "1", "--overwrite", "--out", good.toString());
                } else {
                    Path other = tmp.resolve("resumed-" + i);
                    String stderr = cliAnyExit("train", "mlp", "--resume", f.toString(), "--epochs", "1", "--out", other.toString());
                    assertGoodRunUntouched("a run resumed from case " + i + ": " + stderr);
                }
            }
        }
        assertTrue(refusedByLoader > bad.size() / 2, "only " + refusedByLoader + " of " + bad.size() + " corruptions were caught");
        assertTrue(cliRuns > 20);
    }

    private static String cliAnyExit(String... args) {
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        PrintStream out = System.out;
        PrintStream err = System.err;
        try {
            System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
            int code = assertTimeoutPreemptively(LIMIT, () -> Main.run(args));
            assertTrue(code == 0 || code == 2, "exit code " + code + ": " + errBytes);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        return errBytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aCheckpointOfNaNWeightsStopsTheRunAndKeepsTheGoodOne() throws IOException {
        byte[] b = checkpoint.clone();
        int dataStart = (int) (8 + headerLength(b));
        for (int i = dataStart; i + 4 <= b.length; i += 4) {
            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putFloat(i, Float.NaN);
        }
        Path nan = write("nan.safetensors", b);
        String line = refused("train", "mlp", "--resume", nan.toString(), "--epochs", "1", "--overwrite", "--out", good.toString());
        assertTrue(line.contains("NaN") && line.contains("epoch 1, step 1"), line);
        line = refused("train", "regression", "--lr", "1e30", "--epochs", "3", "--overwrite", "--out", good.toString());
        assertTrue(line.contains("loss is Infinity at epoch 1") && line.contains("--allow-nan"), line);
        Path elsewhere = tmp.resolve("allowed");
        String stderr = cli(2, "train", "regression", "--lr", "1e30", "--epochs", "1", "--allow-nan", "--out", elsewhere.toString());
        assertTrue(stderr.contains("was not written"), stderr);
        assertTrue(Files.exists(elsewhere.resolve("summary.json")), "--allow-nan goes on to the end and writes the curves");
        assertTrue(!Files.exists(elsewhere.resolve("model.safetensors")), "but never a checkpoint of NaN weights");
    }

    @Test
    void deepJsonAndMalformedCorporaAreErrorsNotStackOverflows() throws IOException {
        Path deep = write("deep.json", ("[".repeat(100_000) + "]".repeat(100_000)).getBytes(StandardCharsets.UTF_8));
        assertTrue(refused("conformance", deep.toString(), "--out", good.resolve("summary.json").toString()).contains("nested deeper"));
        Path deepOpt = write("optimizer.safetensors", withHeader("{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000)));
        Path model = write("model.safetensors", checkpoint);
        assertEquals(deepOpt.getParent(), model.getParent());
        assertTrue(refused("train", "mlp", "--resume", model.toString(), "--epochs", "1", "--overwrite", "--out", good.toString()).contains("nested deeper"));
        Path malformed = write("malformed.json", "{\"cases\":[1,\"x\",null,[],{}, {\"id\":\"s\",\"steps\":\"no\"}]}".getBytes(StandardCharsets.UTF_8));
        Path results = tmp.resolve("malformed-results.json");
        cli(0, "conformance", malformed.toString(), "--out", results.toString());
        String text = Files.readString(results);
        assertEquals(6, text.split("\"malformed\"", -1).length - 1, text);
    }

    @Test
    void aCaseTooLargeForTheHeapIsAnErrorOfItsOwnAndTheRunGoesOn() throws IOException {
        String ones = String.join(",", java.util.Collections.nCopies(60000, "1"));
        String big = "{\"id\":\"huge\",\"inputs\":{\"a\":{\"dtype\":\"float32\",\"shape\":[60000,1],\"data\":[" + ones + "]},"
                + "\"b\":{\"dtype\":\"float32\",\"shape\":[1,60000],\"data\":[" + ones + "]}},"
                + "\"steps\":[{\"op\":\"add\",\"args\":[\"a\",\"b\"],\"out\":\"y\"}],\"report\":[\"y\"]}";
        String small = "{\"id\":\"small\",\"inputs\":{\"a\":{\"dtype\":\"float32\",\"shape\":[2],\"data\":[1,2]}},"
                + "\"steps\":[{\"op\":\"neg\",\"args\":[\"a\"],\"out\":\"y\"}],\"report\":[\"y\"]}";
        Path corpus = write("big.json", ("{\"format\":\"jgrad-oracle/1\",\"cases\":[" + big + "," + small + "]}").getBytes(StandardCharsets.UTF_8));
        Path results = tmp.resolve("big-results.json");
        cli(0, "conformance", corpus.toString(), "--out", results.toString());
        String text = Files.readString(results);
        assertTrue(text.contains("\"id\":\"small\",\"status\":\"ok\""), text);
        assertTrue(text.contains("\"id\":\"huge\",\"status\":\"error\""), text);
    }

    @Test
    void specialFilesAreRefusedWithoutReadingThem() throws Exception {
        Path fifo = tmp.resolve("fifo");
        boolean made = new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0;
        // A folder with nothing of a run in it (a run folder is taken where a file is expected: plot, resume).
        List<Path> specials = new ArrayList<>(List.of(Files.createDirectories(tmp.resolve("empty"))));
        if (made) {
            specials.add(fifo);
        }
        if (Files.exists(Path.of("/dev/zero"))) {
            specials.add(Path.of("/dev/zero"));
        }
        for (Path p : specials) {
            refused("train", "mlp", "--resume", p.toString(), "--epochs", "1", "--overwrite", "--out", good.toString());
            refused("plot", p.toString(), "--out", tmp.resolve("x.png").toString());
            refused("conformance", p.toString(), "--out", tmp.resolve("r.json").toString());
            refused("train", "fashion", "--data", p.toString(), "--overwrite", "--out", good.toString());
        }
        Path fake = Files.createDirectories(tmp.resolve("fashion"));
        if (made) {
            Files.move(fifo, fake.resolve("train-images-idx3-ubyte"));
            for (String n : new String[] {"train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"}) {
                Files.write(fake.resolve(n), new byte[] {0, 0, 8, 1, 0, 0, 0, 0});
            }
            assertTrue(refused("train", "fashion", "--data", fake.toString(), "--overwrite", "--out", good.toString()).contains("not a regular file"));
        }
    }

    @Test
    void badArgumentsGetOneLineAndAHint() throws IOException {
        Random r = new Random(SEED + 1);
        String[][] flags = {
            {"--epochs", "-1", "x", "1e3", "99999999999", "0"},
            {"--batch-size", "0", "-5", "x", "2147483648"},
            {"--lr", "0", "-1", "nan", "inf", "Infinity", "x"},
            {"--threads", "0", "-2", "x", "100000"},
            {"--seed", "x", "1.5"},
            {"--no-such-flag", ""},
            {"--out", ""},
        };
        String[] examples = {"regression", "mlp", "attention", "fashion"};
        for (int i = 0; i < 40; i++) {
            String[] f = flags[r.nextInt(flags.length)];
            List<String> args = new ArrayList<>(List.of("train", examples[r.nextInt(examples.length)], f[0]));
            if (f.length > 1) {
                args.add(f[1 + r.nextInt(f.length - 1)]);
            }
            if (!f[0].equals("--out")) {
                args.addAll(List.of("--overwrite", "--out", good.toString()));
            }
            String line = refused(args.toArray(new String[0]));
            assertTrue(line.contains("--help') ") || line.endsWith("--help')") || line.contains("--"), line);
        }
        assertTrue(refused("train", "resnet").contains("see 'jgrad train --help'"));
        assertTrue(refused("train", "mlp", "--epochs").contains("see 'jgrad train mlp --help'"));
        assertTrue(refused("train", "fashion", "--model", "vgg", "--overwrite", "--out", good.toString()).contains("mlp, cnn"));
        assertTrue(refused("train", "mlp", "--out", "").contains("empty"));
        assertTrue(refused("train", "mlp", "--epochs", "0", "--overwrite", "--out", good.toString()).contains("--resume"));
        assertTrue(refused("plot", "/proc/no-such-dir/metrics.csv").contains("not found"));
        Path csv = write("metrics.csv", "step,epoch,series,split,loss\n1,1,train,train,0.5\n".getBytes(StandardCharsets.UTF_8));
        String line = refused("plot", csv.toString(), "--out", "/proc/x.png");
        assertTrue(line.contains("/proc/x.png") && line.split(":").length > 3, "the reason is given: " + line);
    }

    @Test
    void csvInTheSpellingsOtherToolsWriteIsRead() throws IOException {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        String text = "step,epoch,series,split,loss\n1,1,train,train,nan\n2,1,train,train,inf\n3,1,train,train,-Infinity\n4,1,train,train,0.25\n";
        byte[] withBom = new byte[bom.length + text.length()];
        System.arraycopy(bom, 0, withBom, 0, 3);
        System.arraycopy(text.getBytes(StandardCharsets.UTF_8), 0, withBom, 3, text.length());
        Path csv = write("bom.csv", withBom);
        cli(0, "plot", csv.toString(), "--out", tmp.resolve("bom.png").toString());
        byte[] latin1 = "step,epoch,series,split,loss\n1,1,caf\u00e9,train,0.5\n".getBytes(StandardCharsets.ISO_8859_1);
        Path bad = write("latin1.csv", latin1);
        assertTrue(refused("plot", bad.toString(), "--out", tmp.resolve("l.png").toString()).contains("not valid UTF-8"));
    }

    @Test
    void runFilesAreReadableByOthersLikeAnyFileTheUserWrites() throws IOException {
        for (String f : goodFiles.keySet()) {
            String mode = java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(good.resolve(f)));
            assertEquals("rw-r--r--", mode, f);
        }
    }

    /** A library call on bad input throws an exception (never an Error) whose message is one short line naming the problem. */
    private static String thrown(Class<? extends RuntimeException> type, org.junit.jupiter.api.function.Executable call) {
        try {
            call.execute();
        } catch (Throwable t) {
            assertTrue(type.isInstance(t), "expected " + type.getSimpleName() + ", got " + t);
            String m = t.getMessage();
            assertTrue(m != null && m.length() < 300 && !m.contains("\n"), "message: " + m);
            return m;
        }
        throw new AssertionError("no " + type.getSimpleName() + " was thrown");
    }

    @Test
    void badLibraryCallsGetClearExceptions() {
        Tensor x = Tensor.of(new float[] {1, 2, 3, 4}, 2, 2);
        assertTrue(thrown(IndexOutOfBoundsException.class, () -> x.gather(1, Tensor.of(new long[] {0, -1}, 1, 2)))
                .contains("index -1 is out of bounds for dimension 1 with size 2"));
        assertTrue(thrown(IndexOutOfBoundsException.class, () -> x.indexSelect(0, Tensor.of(new long[] {-1}, 1))).contains("index -1"));
        assertTrue(thrown(RuntimeException.class, () -> Tensor.arange(0, 1e12, 1, DType.FLOAT32)).contains("more than one tensor can hold"));
        assertEquals(1.6e9, Tensor.ones(1, 1).expand(40000, 40000).sum().item(), 0, "summed without materialising");
        assertEquals(1.0, Tensor.ones(1, 1).expand(40000, 40000).mean(new int[] {0, 1}, false).item(), 0);
        assertTrue(thrown(IllegalArgumentException.class, () -> Tensor.randint(new Generator(0), 5, 1, 3)).contains("low (5) must be less than high (1)"));
        int[] manyDims = new int[100_000];
        Arrays.fill(manyDims, 1);
        String m = thrown(RuntimeException.class, () -> Tensor.zeros(manyDims).expand(2, 2));
        assertTrue(m.contains("(100000 dims)"), m);
        Parameter w = new Parameter(Tensor.zeros(2));
        assertTrue(thrown(IllegalArgumentException.class, () -> new SGD(List.of(w), Double.POSITIVE_INFINITY)).contains("Infinity"));
        assertTrue(thrown(IllegalArgumentException.class, () -> new Linear(2, 3).loadStateDict(null)).length() > 0);
        assertTrue(thrown(RuntimeException.class, () -> Tensor.zeros(DType.FLOAT64, 40000, 40000)).contains("GB"));
        assertTrue(thrown(RuntimeException.class, () -> Tensor.zeros(60000, 60000)).contains("more than"));
        for (String bad : new String[] {"01", "1.", "-01", "1.e5", ".5", "+1", "[1,]", "{\"a\":1,}", "\"\\u00zz\"", "{\"a\":1,\"a\":2}", "NaN"}) {
            thrown(IllegalArgumentException.class, () -> Json.parse(bad));
        }
        assertEquals("-0.0", Json.write(-0.0));
        assertEquals(-0.0, (Double) Json.parse("-0.0"), 0);
        assertTrue(1 / (Double) Json.parse("-0.0") < 0);
        assertEquals(List.of(1L, 0.5, -2.5e-3), Json.parse("[1, 0.5, -2.5e-3]"));
    }

    @Test
    void safetensorsRefusesWhatTheFormatRefuses() {
        String dup = thrown(IllegalArgumentException.class, () -> Safetensors.decode(
                withHeader("{\"__metadata__\":{\"a\":\"1\"},\"__metadata__\":{\"b\":\"2\"}}")));
        assertTrue(dup.contains("duplicate key \"__metadata__\""), dup);
        byte[] utf8 = withHeader("{\"__metadata__\":{\"a\":\"XX\"}}");
        utf8[8 + 21] = (byte) 0xC3;
        utf8[8 + 22] = (byte) 0x28;
        String bad = thrown(IllegalArgumentException.class, () -> Safetensors.decode(utf8));
        assertTrue(bad.contains("not valid UTF-8"), bad);
        String deep = thrown(IllegalArgumentException.class, () -> Safetensors.decode(withHeader("[".repeat(100_000))));
        assertTrue(deep.contains("nested deeper than"), deep);
    }

    @Test
    void anOptimizerFileWithoutItsMetadataIsNamedAsSuch() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("no-meta"));
        Files.write(dir.resolve("model.safetensors"), checkpoint);
        Files.write(dir.resolve("optimizer.safetensors"), checkpoint);
        String line = refused("train", "mlp", "--resume", dir.resolve("model.safetensors").toString(), "--epochs", "1", "--overwrite", "--out", good.toString());
        assertTrue(line.contains("names no optimizer") && !line.contains("null"), line);
    }

    @Test
    void aBatchLargerThanTheDataIsOneBatchNotZeroSteps() throws IOException {
        Path dir = tmp.resolve("one-batch");
        cli(0, "train", "mlp", "--batch-size", Integer.toString(Integer.MAX_VALUE), "--epochs", "1", "--out", dir.toString());
        String csv = Files.readString(dir.resolve("metrics.csv"));
        assertTrue(csv.contains("\n1,1,train,train,"), "one step in the one epoch: " + csv);
        assertTrue(!Files.readString(dir.resolve("summary.json")).contains("\"final_loss\": 0.0,"));
    }

    /** A run into a folder that holds one is refused unless --overwrite; a live owner's lock keeps others out; stale leftovers go. */
    @Test
    void existingRunsAreNeverChangedByAccidentAndALiveLockKeepsOthersOut() throws IOException {
        String before = Files.readString(good.resolve("metrics.csv"));
        String line = refused("train", "mlp", "--epochs", "1", "--out", good.toString());
        assertTrue(line.contains("already holds a run") && line.contains("--overwrite"), line);
        assertEquals(before, Files.readString(good.resolve("metrics.csv")), "the run in the folder is untouched");

        Path busy = Files.createDirectories(tmp.resolve("busy"));
        long livePid = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(1L);
        Files.writeString(busy.resolve(".jgrad.lock"), Long.toString(livePid));
        line = refused("train", "regression", "--epochs", "1", "--out", busy.toString());
        assertTrue(line.contains("in use by another jgrad run") && line.contains(Long.toString(livePid)), line);

        Path stale = Files.createDirectories(tmp.resolve("stale"));
        Files.writeString(stale.resolve(".jgrad.lock"), "2147483646");
        Files.writeString(stale.resolve(".model.safetensors.123.tmp"), "half a file");
        cli(0, "train", "regression", "--epochs", "1", "--out", stale.toString());
        assertTrue(Files.exists(stale.resolve("model.safetensors")), "a dead owner's lock is taken over");
        assertTrue(!Files.exists(stale.resolve(".model.safetensors.123.tmp")), "a killed run's temporary file is removed");
    }

    /** A model and an optimizer state written at different steps (a kill between the two writes) are refused together. */
    @Test
    void aModelAndAnOptimizerStateFromDifferentStepsAreRefused() throws IOException {
        Path other = tmp.resolve("other-run");
        cli(0, "train", "mlp", "--epochs", "1", "--out", other.toString());
        Path mixed = Files.createDirectories(tmp.resolve("mixed"));
        Files.copy(good.resolve("model.safetensors"), mixed.resolve("model.safetensors"));
        Files.copy(other.resolve("optimizer.safetensors"), mixed.resolve("optimizer.safetensors"));
        String line = refused("train", "mlp", "--epochs", "1", "--resume", mixed.resolve("model.safetensors").toString(),
                "--out", tmp.resolve("from-mixed").toString());
        assertTrue(line.contains("were not written together") && line.contains("optimizer.safetensors"), line);
    }

    /**
     * kill -9 at random instants of a run that checkpoints every few steps: the run's files are replaced together, so every
     * folder it leaves resumes (exit 0) from a model and an optimizer state of one step, with curves that end there; no
     * temporary file or folder outlives the resume.
     */
    @Test
    void killNineAtRandomInstantsLeavesFoldersThatResume() throws Exception {
        java.util.Random random = new java.util.Random(27);
        for (int trial = 0; trial < 6; trial++) {
            Path dir = tmp.resolve("kill-" + trial);
            java.util.List<String> cmd = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), Main.class.getName(), "train", "mlp", "--epochs", "100000",
                    "--save-every", "3", "--out", dir.toString()));
            Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!Files.exists(dir.resolve("optimizer.safetensors")) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            Thread.sleep(random.nextInt(400));
            p.destroyForcibly().waitFor();
            // One more epoch than the checkpoint has finished: the resume trains a little and ends.
            String done = dev.jgrad.nn.io.Safetensors.load(dir.resolve("model.safetensors")).metadata().get("jgrad.periods_done");
            String said = cli(0, "train", "mlp", "--resume", dir.toString(), "--save-every", "0", "--log-every", "0", "--epochs",
                    Integer.toString(Integer.parseInt(done) + 1));
            assertTrue(!said.contains("error") && !said.contains("Exception"), "trial " + trial + ": " + said);
            try (var files = Files.list(dir)) {
                assertTrue(files.noneMatch(f -> f.getFileName().toString().endsWith(".tmp") || f.getFileName().toString().startsWith(".jgrad-commit")),
                        "trial " + trial + ": a temporary file is left");
            }
        }
    }
}
