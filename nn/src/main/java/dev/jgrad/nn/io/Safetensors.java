package dev.jgrad.nn.io;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The safetensors format, byte for byte as Hugging Face's reader (and PyTorch through it) expects: an
 * 8-byte little-endian header length, a JSON header naming each tensor's {@code dtype} (F32, F64, I64,
 * BOOL), {@code shape} and {@code data_offsets} into the data that follows, an optional
 * {@code __metadata__} of string values, the header padded with spaces to a multiple of 8, then the
 * tensors' bytes, little-endian and row-major.
 *
 * <p>Saving writes a temporary file and renames it into place ({@link AtomicFile}). Loading checks the
 * header length against the file size, the JSON, every dtype, shape and offset, and that the data
 * regions tile the data section exactly; anything else is a {@link CheckpointException} naming the file.
 */
public final class Safetensors {
    /** Tensors by name, in file order, and the string metadata. */
    public record Contents(Map<String, Tensor> tensors, Map<String, String> metadata) {
    }

    private static final long MAX_HEADER = 100L * 1024 * 1024;

    private Safetensors() {
    }

    static String code(DType t) {
        switch (t) {
            case FLOAT32: return "F32";
            case FLOAT64: return "F64";
            case INT64: return "I64";
            case BOOL: return "BOOL";
            default: throw new IllegalArgumentException("safetensors: no dtype code for " + t);
        }
    }

    static DType parseCode(String code) {
        switch (code) {
            case "F32": return DType.FLOAT32;
            case "F64": return DType.FLOAT64;
            case "I64": return DType.INT64;
            case "BOOL": return DType.BOOL;
            default: return null;
        }
    }

    /** Writes {@code tensors} (in their order) with {@code metadata} as a safetensors file, replacing {@code path} atomically. */
    public static void save(Path path, Map<String, Tensor> tensors, Map<String, String> metadata) throws IOException {
        AtomicFile.write(path, encode(tensors, metadata));
    }

    /** The bytes of a safetensors file holding {@code tensors} (in map order) and {@code metadata}. */
    public static byte[] encode(Map<String, Tensor> tensors, Map<String, String> metadata) {
        Map<String, Object> header = new LinkedHashMap<>();
        long offset = 0;
        for (Map.Entry<String, Tensor> e : tensors.entrySet()) {
            if (e.getKey().equals("__metadata__")) {
                throw new IllegalArgumentException("'__metadata__' is reserved in safetensors and cannot name a tensor");
            }
            Tensor t = e.getValue();
            long n = (long) t.numel() * t.dtype().itemSize();
            Map<String, Object> info = new LinkedHashMap<>();
            info.put("dtype", code(t.dtype()));
            List<Object> shape = new ArrayList<>();
            for (int s : t.shape()) {
                shape.add((long) s);
            }
            info.put("shape", shape);
            info.put("data_offsets", List.of(offset, offset + n));
            header.put(e.getKey(), info);
            offset += n;
        }
        if (metadata != null && !metadata.isEmpty()) {
            header.put("__metadata__", new LinkedHashMap<>(metadata));
        }
        byte[] json = Json.write(header).getBytes(StandardCharsets.UTF_8);
        int padded = (json.length + 7) / 8 * 8;
        ByteBuffer buf = ByteBuffer.allocate((int) (8 + padded + offset)).order(ByteOrder.LITTLE_ENDIAN);
        buf.putLong(padded);
        buf.put(json);
        for (int i = json.length; i < padded; i++) {
            buf.put((byte) ' ');
        }
        for (Tensor t : tensors.values()) {
            switch (t.dtype()) {
                case FLOAT32:
                    for (float f : t.toFloatArray()) {
                        buf.putFloat(f);
                    }
                    break;
                case FLOAT64:
                    for (double d : t.toDoubleArray()) {
                        buf.putDouble(d);
                    }
                    break;
                case INT64:
                    for (long l : t.toLongArray()) {
                        buf.putLong(l);
                    }
                    break;
                default:
                    for (boolean b : t.toBooleanArray()) {
                        buf.put((byte) (b ? 1 : 0));
                    }
            }
        }
        return buf.array();
    }

    /** The largest file read: one Java array. */
    static final long MAX_FILE = Integer.MAX_VALUE - 8;

    /** Reads a safetensors file whole: its tensors by name and its metadata, every header entry checked against the file. */
    public static Contents load(Path path) throws CheckpointException {
        byte[] bytes;
        try {
            bytes = BoundedFiles.read(path, MAX_FILE, "checkpoint");
        } catch (NoSuchFileException e) {
            throw new CheckpointException("checkpoint not found: " + path);
        } catch (IOException e) {
            throw new CheckpointException("cannot read checkpoint " + path + ": " + e.getMessage(), e);
        }
        try {
            return decode(bytes);
        } catch (IllegalArgumentException e) {
            throw new CheckpointException(path + " is not a valid safetensors file: " + e.getMessage(), e);
        }
    }

    /** Parses the bytes of a safetensors file; any inconsistency is an IllegalArgumentException saying what. */
    @SuppressWarnings("unchecked")
    public static Contents decode(byte[] bytes) {
        if (bytes.length < 8) {
            throw new IllegalArgumentException("the file has " + bytes.length + " bytes, fewer than the 8-byte header length (truncated?)");
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        long headerLen = buf.getLong();
        if (headerLen < 2 || headerLen > MAX_HEADER || 8 + headerLen > bytes.length) {
            throw new IllegalArgumentException("the header length " + headerLen + " does not fit in a file of " + bytes.length
                    + " bytes (truncated or not safetensors)");
        }
        String json;
        try {
            json = BoundedFiles.utf8(bytes, 8, (int) headerLen);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException("the header is " + e.getMessage());
        }
        Object parsed;
        try {
            parsed = Json.parse(json.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the header is not valid JSON: " + e.getMessage());
        }
        if (!(parsed instanceof Map)) {
            throw new IllegalArgumentException("the header is not a JSON object");
        }
        long dataStart = 8 + headerLen;
        long dataLen = bytes.length - dataStart;
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        Map<String, String> metadata = new LinkedHashMap<>();
        List<long[]> regions = new ArrayList<>();
        for (Map.Entry<String, Object> e : ((Map<String, Object>) parsed).entrySet()) {
            String name = e.getKey();
            if (name.equals("__metadata__")) {
                if (!(e.getValue() instanceof Map)) {
                    throw new IllegalArgumentException("__metadata__ must be an object of strings");
                }
                for (Map.Entry<String, Object> m : ((Map<String, Object>) e.getValue()).entrySet()) {
                    if (!(m.getValue() instanceof String)) {
                        throw new IllegalArgumentException("__metadata__ value of '" + m.getKey() + "' is not a string");
                    }
                    metadata.put(m.getKey(), (String) m.getValue());
                }
                continue;
            }
            if (!(e.getValue() instanceof Map)) {
                throw new IllegalArgumentException("entry '" + name + "' is not an object");
            }
            Map<String, Object> info = (Map<String, Object>) e.getValue();
            DType dtype = info.get("dtype") instanceof String ? parseCode((String) info.get("dtype")) : null;
            if (dtype == null) {
                throw new IllegalArgumentException("tensor '" + name + "' has dtype " + info.get("dtype")
                        + ", which jgrad does not support (F32, F64, I64, BOOL)");
            }
            int[] shape = longs(info.get("shape"), "shape of '" + name + "'");
            long[] off = longArray(info.get("data_offsets"), "data_offsets of '" + name + "'");
            if (off.length != 2 || off[0] < 0 || off[1] < off[0] || off[1] > dataLen) {
                throw new IllegalArgumentException("tensor '" + name + "' has data_offsets " + java.util.Arrays.toString(off)
                        + " outside the " + dataLen + " data bytes (truncated?)");
            }
            long expected = (long) Shape.numel(shape) * dtype.itemSize();
            if (off[1] - off[0] != expected) {
                throw new IllegalArgumentException("tensor '" + name + "' of " + dtype + " " + Shape.str(shape) + " needs "
                        + expected + " bytes, its data_offsets give " + (off[1] - off[0]));
            }
            regions.add(new long[] {off[0], off[1]});
            tensors.put(name, read(bytes, (int) (dataStart + off[0]), dtype, shape));
        }
        regions.sort((a, b) -> Long.compare(a[0], b[0]));
        long at = 0;
        for (long[] r : regions) {
            if (r[0] != at) {
                throw new IllegalArgumentException("the tensors' data regions overlap or leave a gap at byte " + at);
            }
            at = r[1];
        }
        if (at != dataLen) {
            throw new IllegalArgumentException("the data section has " + dataLen + " bytes, the tensors use " + at);
        }
        return new Contents(tensors, metadata);
    }

    private static Tensor read(byte[] bytes, int start, DType dtype, int[] shape) {
        int n = Shape.numel(shape);
        ByteBuffer b = ByteBuffer.wrap(bytes, start, n * dtype.itemSize()).order(ByteOrder.LITTLE_ENDIAN);
        switch (dtype) {
            case FLOAT32: {
                float[] v = new float[n];
                b.asFloatBuffer().get(v);
                return Tensor.of(v, shape);
            }
            case FLOAT64: {
                double[] v = new double[n];
                b.asDoubleBuffer().get(v);
                return Tensor.of(v, shape);
            }
            case INT64: {
                long[] v = new long[n];
                b.asLongBuffer().get(v);
                return Tensor.of(v, shape);
            }
            default: {
                boolean[] v = new boolean[n];
                for (int i = 0; i < n; i++) {
                    v[i] = bytes[start + i] != 0;
                }
                return Tensor.of(v, shape);
            }
        }
    }

    private static int[] longs(Object o, String what) {
        long[] l = longArray(o, what);
        int[] r = new int[l.length];
        for (int i = 0; i < l.length; i++) {
            if (l[i] < 0 || l[i] > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(what + " has a bad size " + l[i]);
            }
            r[i] = (int) l[i];
        }
        return r;
    }

    private static long[] longArray(Object o, String what) {
        if (!(o instanceof List)) {
            throw new IllegalArgumentException(what + " is missing or not a list");
        }
        List<?> l = (List<?>) o;
        long[] r = new long[l.size()];
        for (int i = 0; i < r.length; i++) {
            if (!(l.get(i) instanceof Long)) {
                throw new IllegalArgumentException(what + " holds " + l.get(i) + ", not an integer");
            }
            r[i] = (Long) l.get(i);
        }
        return r;
    }
}
