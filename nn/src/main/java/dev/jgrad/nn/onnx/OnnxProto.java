package dev.jgrad.nn.onnx;

import dev.jgrad.nn.io.ProtoWriter;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * The few messages of {@code onnx.proto} an exported model needs, written with {@link ProtoWriter}: ModelProto,
 * GraphProto, NodeProto, AttributeProto, TensorProto (values as little-endian {@code raw_data}) and
 * ValueInfoProto. Field numbers are onnx.proto's; {@code OnnxProtoTest} holds the bytes to what the onnx package
 * writes for the same messages.
 */
final class OnnxProto {
    /** TensorProto.DataType. */
    static final int FLOAT = 1;
    static final int INT32 = 6;
    static final int INT64 = 7;
    static final int BOOL = 9;
    static final int DOUBLE = 11;

    private OnnxProto() {
    }

    /** A value's type and shape: dims of a known size, or named (a dynamic axis), or unknown (null and negative). */
    record ValueInfo(String name, int elemType, long[] dims, String[] symbols) {
    }

    /** One attribute of a node: a long, a double (written as float), a long[], a float[], a string or a tensor. */
    record Attribute(String name, Object value) {
    }

    /** One node. */
    record Node(String opType, List<String> inputs, List<String> outputs, List<Attribute> attributes, String name) {
    }

    /** The ONNX element type of a jgrad dtype. */
    static int elemType(DType dtype) {
        return switch (dtype) {
            case FLOAT32 -> FLOAT;
            case FLOAT64 -> DOUBLE;
            case INT64 -> INT64;
            case BOOL -> BOOL;
        };
    }

    /** The ModelProto of a graph. */
    static byte[] model(String graphName, List<Node> nodes, List<Named> initializers, List<ValueInfo> inputs,
                        List<ValueInfo> outputs, int opset, String producer, String producerVersion) {
        ProtoWriter graph = new ProtoWriter();
        for (Node n : nodes) {
            graph.message(1, node(n));
        }
        graph.string(2, graphName);
        for (Named t : initializers) {
            graph.message(5, tensor(t.name(), t.tensor()));
        }
        for (ValueInfo v : inputs) {
            graph.message(11, valueInfo(v));
        }
        for (ValueInfo v : outputs) {
            graph.message(12, valueInfo(v));
        }
        ProtoWriter model = new ProtoWriter();
        model.varint(1, irVersion(opset));
        model.string(2, producer);
        if (!producerVersion.isEmpty()) {
            model.string(3, producerVersion);
        }
        model.message(7, graph);
        model.message(8, new ProtoWriter().string(1, "").varint(2, opset));
        return model.toByteArray();
    }

    /** A tensor with its name. */
    record Named(String name, Tensor tensor) {
    }

    /** The IR version that goes with an opset (onnx's VERSION_TABLE): 8 up to opset 18, 9 for 19 and 20, 10 for 21. */
    static int irVersion(int opset) {
        return opset <= 18 ? 8 : opset <= 20 ? 9 : 10;
    }

    static ProtoWriter node(Node n) {
        ProtoWriter w = new ProtoWriter();
        for (String in : n.inputs()) {
            w.string(1, in);
        }
        for (String out : n.outputs()) {
            w.string(2, out);
        }
        w.string(3, n.name());
        w.string(4, n.opType());
        for (Attribute a : n.attributes()) {
            w.message(5, attribute(a));
        }
        return w;
    }

    static ProtoWriter attribute(Attribute a) {
        ProtoWriter w = new ProtoWriter().string(1, a.name());
        Object v = a.value();
        if (v instanceof Long l) {
            w.varint(3, l).varint(20, 2);
        } else if (v instanceof Integer i) {
            w.varint(3, i).varint(20, 2);
        } else if (v instanceof Double d) {
            w.float32(2, (float) (double) d).varint(20, 1);
        } else if (v instanceof Float f) {
            w.float32(2, f).varint(20, 1);
        } else if (v instanceof String s) {
            w.string(4, s).varint(20, 3);
        } else if (v instanceof Tensor t) {
            w.message(5, tensor("", t)).varint(20, 4);
        } else if (v instanceof long[] ls) {
            // Unpacked, as onnx.proto (proto2) declares its repeated fields and as the onnx package writes them.
            for (long l : ls) {
                w.varint(8, l);
            }
            w.varint(20, 7);
        } else if (v instanceof float[] fs) {
            for (float f : fs) {
                w.float32(7, f);
            }
            w.varint(20, 6);
        } else {
            throw new IllegalArgumentException("attribute " + a.name() + ": no ONNX form for " + v);
        }
        return w;
    }

    /** A TensorProto: dims, data type, name (if any) and the values as little-endian raw bytes. */
    static ProtoWriter tensor(String name, Tensor t) {
        ProtoWriter w = new ProtoWriter();
        int[] shape = t.shape();
        for (int d : shape) {
            w.varint(1, d);
        }
        w.varint(2, elemType(t.dtype()));
        if (!name.isEmpty()) {
            w.string(8, name);
        }
        w.bytes(9, rawData(t));
        return w;
    }

    static byte[] rawData(Tensor t) {
        Tensor c = t;
        int n = c.numel();
        switch (c.dtype()) {
            case FLOAT32 -> {
                ByteBuffer b = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
                b.asFloatBuffer().put(c.toFloatArray());
                return b.array();
            }
            case FLOAT64 -> {
                ByteBuffer b = ByteBuffer.allocate(8 * n).order(ByteOrder.LITTLE_ENDIAN);
                b.asDoubleBuffer().put(c.toDoubleArray());
                return b.array();
            }
            case INT64 -> {
                ByteBuffer b = ByteBuffer.allocate(8 * n).order(ByteOrder.LITTLE_ENDIAN);
                b.asLongBuffer().put(c.toLongArray());
                return b.array();
            }
            default -> {
                byte[] out = new byte[n];
                boolean[] v = c.toBooleanArray();
                for (int i = 0; i < n; i++) {
                    out[i] = (byte) (v[i] ? 1 : 0);
                }
                return out;
            }
        }
    }

    static ProtoWriter valueInfo(ValueInfo v) {
        ProtoWriter shape = new ProtoWriter();
        for (int i = 0; i < v.dims().length; i++) {
            ProtoWriter dim = new ProtoWriter();
            if (v.symbols()[i] != null) {
                dim.string(2, v.symbols()[i]);
            } else if (v.dims()[i] >= 0) {
                dim.varint(1, v.dims()[i]);
            }
            shape.message(1, dim);
        }
        ProtoWriter tensorType = new ProtoWriter().varint(1, v.elemType()).message(2, shape);
        ProtoWriter type = new ProtoWriter().message(1, tensorType);
        return new ProtoWriter().string(1, v.name()).message(2, type);
    }
}
