package dev.jgrad.nn.onnx;

import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The protobuf writing, byte for byte against what the onnx package (1.23) writes for the same model. */
class OnnxProtoTest {
    /**
     * From onnx.helper: a Gemm with a float and an int attribute, a Transpose with ints, a Pad with a string; a float and
     * an int64 initializer (numpy_helper, raw_data); an input with a named and a fixed dim, an output with an unknown one;
     * opset 17, IR 8, producer jgrad 0.1.0 (the script is in the comment of OnnxProtoTest's commit).
     */
    private static final String ONNX_PACKAGE = "080812056a677261641a05302e312e303a80020a3b0a01780a0966632e7765696768741201791a026e30220447656d6d2a0f"
            + "0a05616c706861150000003fa001012a0d0a067472616e73421801a001020a240a017912017a1a026e3122095472616e73706f73652a0d0a047065726d"
            + "40014000a001070a2d0a017a0a05736861706512036f75741a026e3222035061642a130a046d6f64652208636f6e7374616e74a0010312056a677261"
            + "642a1f080108031001420966632e7765696768744a0c0000c03f000000c00000803e2a1508011007420573686170654a0807000000000000005a180a"
            + "017812130a110801120d0a07120562617463680a02080362130a036f7574120c0a0a080112060a000a02080442040a001011";

    @Test
    void aModelIsWrittenAsTheOnnxPackageWritesIt() {
        List<OnnxProto.Node> nodes = List.of(
                new OnnxProto.Node("Gemm", List.of("x", "fc.weight"), List.of("y"),
                        List.of(new OnnxProto.Attribute("alpha", 0.5), new OnnxProto.Attribute("transB", 1L)), "n0"),
                new OnnxProto.Node("Transpose", List.of("y"), List.of("z"), List.of(new OnnxProto.Attribute("perm", new long[] {1, 0})), "n1"),
                new OnnxProto.Node("Pad", List.of("z", "shape"), List.of("out"), List.of(new OnnxProto.Attribute("mode", "constant")), "n2"));
        List<OnnxProto.Named> inits = List.of(new OnnxProto.Named("fc.weight", Tensor.of(new float[] {1.5f, -2f, 0.25f}, 1, 3)),
                new OnnxProto.Named("shape", Tensor.of(new long[] {7}, 1)));
        List<OnnxProto.ValueInfo> in = List.of(new OnnxProto.ValueInfo("x", OnnxProto.FLOAT, new long[] {-1, 3}, new String[] {"batch", null}));
        List<OnnxProto.ValueInfo> out = List.of(new OnnxProto.ValueInfo("out", OnnxProto.FLOAT, new long[] {-1, 4}, new String[] {null, null}));
        byte[] bytes = OnnxProto.model("jgrad", nodes, inits, in, out, 17, "jgrad", "0.1.0");
        assertEquals(ONNX_PACKAGE, HexFormat.of().formatHex(bytes));
    }

    @Test
    void theIrVersionFollowsTheOpset() {
        assertEquals(8, OnnxProto.irVersion(17));
        assertEquals(8, OnnxProto.irVersion(18));
        assertEquals(9, OnnxProto.irVersion(20));
        assertEquals(10, OnnxProto.irVersion(21));
    }
}
