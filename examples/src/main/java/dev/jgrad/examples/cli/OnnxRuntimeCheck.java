package dev.jgrad.examples.cli;

import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.jgrad.tensor.Tensor;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs an exported model's bytes once in ONNX Runtime and gives its first output, for {@code jgrad export}'s check. */
final class OnnxRuntimeCheck {
    private OnnxRuntimeCheck() {
    }

    /** ONNX Runtime's version. */
    static String version() {
        return environment().getVersion();
    }

    private static boolean extractionRemoved;

    /**
     * ONNX Runtime's environment, its native libraries loaded. ONNX Runtime 1.26 copies them into a folder of its own in
     * the temporary folder and asks the JVM to delete the folder at exit before the files in it, so every process that
     * loads it leaves an empty {@code onnxruntime-java...} folder behind. The folder and its files are removed here as
     * soon as the libraries are loaded; where that fails (another version that keeps the folder elsewhere, a system
     * that holds a loaded library's file), things stay as ONNX Runtime leaves them.
     */
    private static synchronized OrtEnvironment environment() {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        if (!extractionRemoved) {
            extractionRemoved = true;
            try {
                Field f = Class.forName("ai.onnxruntime.OnnxRuntime").getDeclaredField("tempDirectory");
                f.setAccessible(true);
                if (f.get(null) instanceof Path dir && dir.getFileName().toString().startsWith("onnxruntime-java")
                        && Files.isDirectory(dir)) {
                    try (var files = Files.list(dir)) {
                        for (Path lib : files.toList()) {
                            Files.deleteIfExists(lib);
                        }
                    }
                    Files.deleteIfExists(dir);
                }
            } catch (ReflectiveOperationException | RuntimeException | IOException e) {
                // Left as ONNX Runtime leaves it.
            }
        }
        return env;
    }

    /** The model's first output on {@code inputs} (float32), with ONNX Runtime on one thread. */
    static Tensor run(byte[] model, Map<String, Tensor> inputs) throws OrtException {
        OrtEnvironment env = environment();
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(1);
            try (OrtSession session = env.createSession(model, options)) {
                List<OnnxTensor> made = new ArrayList<>();
                try {
                    Map<String, OnnxTensor> feeds = new LinkedHashMap<>();
                    for (Map.Entry<String, Tensor> e : inputs.entrySet()) {
                        OnnxTensor t = tensor(env, e.getValue());
                        made.add(t);
                        feeds.put(e.getKey(), t);
                    }
                    try (OrtSession.Result r = session.run(feeds)) {
                        OnnxTensor out = (OnnxTensor) r.get(0);
                        long[] shape = out.getInfo().getShape();
                        int[] s = new int[shape.length];
                        for (int i = 0; i < s.length; i++) {
                            s[i] = (int) shape[i];
                        }
                        FloatBuffer b = out.getFloatBuffer();
                        float[] v = new float[b.remaining()];
                        b.get(v);
                        return Tensor.of(v, s);
                    }
                } finally {
                    for (OnnxTensor t : made) {
                        t.close();
                    }
                }
            }
        }
    }

    private static OnnxTensor tensor(OrtEnvironment env, Tensor t) throws OrtException {
        int[] s = t.shape();
        long[] shape = new long[s.length];
        for (int i = 0; i < s.length; i++) {
            shape[i] = s[i];
        }
        return switch (t.dtype()) {
            case INT64 -> OnnxTensor.createTensor(env, LongBuffer.wrap(t.toLongArray()), shape);
            case BOOL -> {
                boolean[] v = t.toBooleanArray();
                ByteBuffer b = ByteBuffer.allocateDirect(v.length);
                for (boolean x : v) {
                    b.put((byte) (x ? 1 : 0));
                }
                b.rewind();
                yield OnnxTensor.createTensor(env, b, shape, OnnxJavaType.BOOL);
            }
            default -> OnnxTensor.createTensor(env, FloatBuffer.wrap(t.toFloatArray()), shape);
        };
    }
}
