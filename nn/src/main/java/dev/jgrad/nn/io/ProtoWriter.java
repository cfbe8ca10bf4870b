package dev.jgrad.nn.io;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A protocol buffer message written field by field, in the wire format every protobuf library reads (varints,
 * 64- and 32-bit little-endian numbers, length-delimited strings, bytes and nested messages, packed repeated numbers),
 * so that jgrad writes the few messages it needs (TensorBoard's events, ONNX models) without a protobuf library or
 * generated classes.
 *
 * <p>Each method writes its field whatever the value: proto3 leaves a field at its default (0, "", empty) out of
 * the message, and the callers that must match another writer byte for byte skip those fields themselves; a field of a
 * {@code oneof} is written even when it holds its default, as protobuf does.
 */
public final class ProtoWriter {
    private static final int VARINT = 0;
    private static final int FIXED64 = 1;
    private static final int LENGTH = 2;
    private static final int FIXED32 = 5;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** The message's bytes so far. */
    public byte[] toByteArray() {
        return out.toByteArray();
    }

    /** The message's length in bytes so far. */
    public int size() {
        return out.size();
    }

    /** An int64, uint64, int32 or enum field: a varint (a negative value takes ten bytes, as protobuf writes it). */
    public ProtoWriter varint(int field, long value) {
        tag(field, VARINT);
        rawVarint(value);
        return this;
    }

    /** A bool field. */
    public ProtoWriter bool(int field, boolean value) {
        return varint(field, value ? 1 : 0);
    }

    /** A double field: eight bytes, little-endian. */
    public ProtoWriter float64(int field, double value) {
        tag(field, FIXED64);
        rawFixed64(Double.doubleToRawLongBits(value));
        return this;
    }

    /** A float field: four bytes, little-endian. */
    public ProtoWriter float32(int field, float value) {
        tag(field, FIXED32);
        rawFixed32(Float.floatToRawIntBits(value));
        return this;
    }

    /** A string field, in UTF-8. */
    public ProtoWriter string(int field, String value) {
        return bytes(field, value.getBytes(StandardCharsets.UTF_8));
    }

    /** A bytes field. */
    public ProtoWriter bytes(int field, byte[] value) {
        tag(field, LENGTH);
        rawVarint(value.length);
        out.writeBytes(value);
        return this;
    }

    /** A nested message field. */
    public ProtoWriter message(int field, ProtoWriter message) {
        return bytes(field, message.toByteArray());
    }

    /** A packed repeated double field (nothing when empty, as protobuf writes it). */
    public ProtoWriter packedFloat64(int field, double[] values) {
        if (values.length == 0) {
            return this;
        }
        tag(field, LENGTH);
        rawVarint(8L * values.length);
        for (double v : values) {
            rawFixed64(Double.doubleToRawLongBits(v));
        }
        return this;
    }

    /** A packed repeated float field (nothing when empty). */
    public ProtoWriter packedFloat32(int field, float[] values) {
        if (values.length == 0) {
            return this;
        }
        tag(field, LENGTH);
        rawVarint(4L * values.length);
        for (float v : values) {
            rawFixed32(Float.floatToRawIntBits(v));
        }
        return this;
    }

    /** A packed repeated int64 (or int32, enum) field (nothing when empty). */
    public ProtoWriter packedVarint(int field, long[] values) {
        if (values.length == 0) {
            return this;
        }
        ProtoWriter body = new ProtoWriter();
        for (long v : values) {
            body.rawVarint(v);
        }
        return bytes(field, body.toByteArray());
    }

    private void tag(int field, int wireType) {
        if (field < 1 || field > (1 << 29) - 1) {
            throw new IllegalArgumentException("a protobuf field number is from 1 to 2^29 - 1, got " + field);
        }
        rawVarint((long) field << 3 | wireType);
    }

    private void rawVarint(long value) {
        while ((value & ~0x7FL) != 0) {
            out.write((int) (value & 0x7F) | 0x80);
            value >>>= 7;
        }
        out.write((int) value);
    }

    private void rawFixed64(long bits) {
        for (int i = 0; i < 8; i++) {
            out.write((int) (bits >>> (8 * i)) & 0xFF);
        }
    }

    private void rawFixed32(int bits) {
        for (int i = 0; i < 4; i++) {
            out.write((bits >>> (8 * i)) & 0xFF);
        }
    }
}
