package dev.jgrad.nn.onnx;

import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.jgrad.tensor.Tensor;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs an exported model in ONNX Runtime on jgrad tensors and gives the first output back as a tensor. */
final class OrtRunner implements AutoCloseable {
    private static final OrtEnvironment ENV = OrtEnvironment.getEnvironment();
    private final OrtSession session;

    OrtRunner(byte[] model) throws OrtException {
        OrtSession.SessionOptions o = new OrtSession.SessionOptions();
        o.setIntraOpNumThreads(1);
        session = ENV.createSession(model, o);
    }

    Tensor run(Map<String, Tensor> inputs) throws OrtException {
        Map<String, OnnxTensor> in = new LinkedHashMap<>();
        List<OnnxTensor> made = new ArrayList<>();
        try {
            for (Map.Entry<String, Tensor> e : inputs.entrySet()) {
                OnnxTensor t = toOrt(e.getValue());
                made.add(t);
                in.put(e.getKey(), t);
            }
            try (OrtSession.Result r = session.run(in)) {
                OnnxTensor out = (OnnxTensor) r.get(0);
                long[] shape = out.getInfo().getShape();
                int[] s = new int[shape.length];
                for (int i = 0; i < s.length; i++) {
                    s[i] = (int) shape[i];
                }
                return switch (out.getInfo().type) {
                    case FLOAT -> {
                        FloatBuffer b = out.getFloatBuffer();
                        float[] v = new float[b.remaining()];
                        b.get(v);
                        yield Tensor.of(v, s);
                    }
                    case DOUBLE -> {
                        DoubleBuffer b = out.getDoubleBuffer();
                        double[] v = new double[b.remaining()];
                        b.get(v);
                        yield Tensor.of(v, s);
                    }
                    case INT64 -> {
                        LongBuffer b = out.getLongBuffer();
                        long[] v = new long[b.remaining()];
                        b.get(v);
                        yield Tensor.of(v, s);
                    }
                    default -> throw new IllegalStateException("output type " + out.getInfo().type);
                };
            }
        } finally {
            for (OnnxTensor t : made) {
                t.close();
            }
        }
    }

    static OnnxTensor toOrt(Tensor t) throws OrtException {
        int[] s = t.shape();
        long[] shape = new long[s.length];
        for (int i = 0; i < s.length; i++) {
            shape[i] = s[i];
        }
        return switch (t.dtype()) {
            case FLOAT32 -> OnnxTensor.createTensor(ENV, FloatBuffer.wrap(t.toFloatArray()), shape);
            case FLOAT64 -> OnnxTensor.createTensor(ENV, DoubleBuffer.wrap(t.toDoubleArray()), shape);
            case INT64 -> OnnxTensor.createTensor(ENV, LongBuffer.wrap(t.toLongArray()), shape);
            case BOOL -> {
                boolean[] v = t.toBooleanArray();
                ByteBuffer b = ByteBuffer.allocateDirect(v.length);
                for (boolean x : v) {
                    b.put((byte) (x ? 1 : 0));
                }
                b.rewind();
                yield OnnxTensor.createTensor(ENV, b, shape, OnnxJavaType.BOOL);
            }
        };
    }

    @Override
    public void close() throws OrtException {
        session.close();
    }
}
