package dev.jgrad.nn.io;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A protocol buffer message read back into its fields, one level at a time: each field number maps to its values in
 * the order met (varints and 64-bit fields as {@code Long}, 32-bit fields as {@code Integer} bits, length-delimited ones as
 * {@code byte[]}); a nested message is parsed when asked for ({@link #message}), so hostile nesting costs no stack. Every
 * length is checked against the bytes left: malformed input is an {@link IllegalArgumentException} saying where, never
 * a read past the end. The reader of {@link ProtoWriter}'s messages (TensorBoard's event files, ONNX models).
 */
public final class ProtoReader {
    private final Map<Integer, List<Object>> fields = new LinkedHashMap<>();

    private ProtoReader() {
    }

    /** Parses the fields of one message. */
    public static ProtoReader parse(byte[] b) {
        ProtoReader r = new ProtoReader();
        int[] pos = {0};
        while (pos[0] < b.length) {
            int at = pos[0];
            long key = varint(b, pos);
            int field = (int) (key >>> 3);
            int wire = (int) (key & 7);
            if (field < 1 || key >>> 3 > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("protobuf: field number " + (key >>> 3) + " at byte " + at);
            }
            Object v;
            switch (wire) {
                case 0 -> v = varint(b, pos);
                case 1 -> v = fixed(b, pos, 8).getLong();
                case 2 -> {
                    long len = varint(b, pos);
                    if (len < 0 || len > b.length - pos[0]) {
                        throw new IllegalArgumentException("protobuf: field " + field + " at byte " + at + " says " + len + " bytes, "
                                + (b.length - pos[0]) + " are left");
                    }
                    byte[] sub = new byte[(int) len];
                    System.arraycopy(b, pos[0], sub, 0, (int) len);
                    pos[0] += (int) len;
                    v = sub;
                }
                case 5 -> v = fixed(b, pos, 4).getInt();
                default -> throw new IllegalArgumentException("protobuf: wire type " + wire + " of field " + field + " at byte " + at);
            }
            r.fields.computeIfAbsent(field, k -> new ArrayList<>()).add(v);
        }
        return r;
    }

    private static ByteBuffer fixed(byte[] b, int[] pos, int n) {
        if (b.length - pos[0] < n) {
            throw new IllegalArgumentException("protobuf: a " + (8 * n) + "-bit field at byte " + pos[0] + " runs past the end");
        }
        ByteBuffer bb = ByteBuffer.wrap(b, pos[0], n).order(ByteOrder.LITTLE_ENDIAN);
        pos[0] += n;
        return bb;
    }

    private static long varint(byte[] b, int[] pos) {
        long v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (pos[0] >= b.length) {
                throw new IllegalArgumentException("protobuf: a varint runs past the end");
            }
            int x = b[pos[0]++] & 0xFF;
            v |= (long) (x & 0x7F) << shift;
            if (x < 0x80) {
                return v;
            }
        }
        throw new IllegalArgumentException("protobuf: a varint longer than 10 bytes at byte " + pos[0]);
    }

    /** Whether the field is present. */
    public boolean has(int field) {
        return fields.containsKey(field);
    }

    /** Every value of a (repeated) field, in order; empty when absent. */
    public List<Object> all(int field) {
        return fields.getOrDefault(field, List.of());
    }

    /** A varint field's last value (protobuf's rule for a repeated scalar read as one), or {@code dflt} when absent. */
    public long varint(int field, long dflt) {
        Object v = last(field);
        return v == null ? dflt : (Long) typed(field, v, Long.class);
    }

    /** A double field's value, or {@code dflt} when absent. */
    public double float64(int field, double dflt) {
        Object v = last(field);
        return v == null ? dflt : Double.longBitsToDouble((Long) typed(field, v, Long.class));
    }

    /** A float field's value, or {@code dflt} when absent. */
    public float float32(int field, float dflt) {
        Object v = last(field);
        return v == null ? dflt : Float.intBitsToFloat((Integer) typed(field, v, Integer.class));
    }

    /** A bytes field's value, or an empty array when absent. */
    public byte[] bytes(int field) {
        Object v = last(field);
        return v == null ? new byte[0] : (byte[]) typed(field, v, byte[].class);
    }

    /** A string field's value, or "" when absent. */
    public String string(int field) {
        return new String(bytes(field), StandardCharsets.UTF_8);
    }

    /** A nested message (empty when absent). */
    public ProtoReader message(int field) {
        return parse(bytes(field));
    }

    /** A packed repeated double field's values. */
    public double[] packedFloat64(int field) {
        byte[] b = bytes(field);
        if (b.length % 8 != 0) {
            throw new IllegalArgumentException("protobuf: packed doubles of field " + field + " take " + b.length + " bytes, not a multiple of 8");
        }
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        double[] d = new double[b.length / 8];
        for (int i = 0; i < d.length; i++) {
            d[i] = bb.getDouble();
        }
        return d;
    }

    private Object last(int field) {
        List<Object> vs = fields.get(field);
        return vs == null ? null : vs.get(vs.size() - 1);
    }

    private static Object typed(int field, Object v, Class<?> expected) {
        if (!expected.isInstance(v)) {
            throw new IllegalArgumentException("protobuf: field " + field + " is not of the expected wire type");
        }
        return v;
    }
}
