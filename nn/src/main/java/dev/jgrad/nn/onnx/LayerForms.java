package dev.jgrad.nn.onnx;

import dev.jgrad.autograd.Trace;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static dev.jgrad.nn.onnx.Emitter.attr;

/**
 * The ONNX form of the layers nn annotates in a trace (an embedding, a layer norm, a convolution, a pool, a batch norm
 * in eval, attention): one ONNX op each where ONNX has one (Gather, LayerNormalization, Conv, MaxPool, AveragePool,
 * BatchNormalization), and attention as its products, mask and softmax. An annotation this class does not know
 * returns null: the primitives recorded before it stand.
 */
final class LayerForms {
    /** The fused ops whose annotation this class maps, so the trace need not run their definitions. */
    static final Set<String> FUSED = Set.of("layer_norm", "conv2d", "max_pool1d", "max_pool2d", "masked_softmax",
            "scaled_dot_product_attention", "lstm");

    /** The annotations this class maps: the calls each stands for are dropped from the trace. */
    static final Set<String> ANNOTATIONS = Set.of("embedding", "layer_norm", "conv", "max_pool", "avg_pool", "batch_norm", "attention",
            "multi_head_attention", "lstm", "gru");

    private LayerForms() {
    }

    static boolean covers(String fusedName) {
        return FUSED.contains(fusedName);
    }

    static String[] emit(Emitter e, Trace.Call c) {
        if (c.op().equals("lstm") || c.op().equals("gru")) {
            return recurrent(e, c, c.op().equals("lstm"));
        }
        String y = switch (c.op()) {
            case "embedding" -> e.node("Gather", List.of(attr("axis", 0L)), e.in(1), e.in(0));
            case "layer_norm" -> layerNorm(e, c);
            case "conv" -> conv(e, c);
            case "max_pool" -> maxPool(e, c);
            case "avg_pool" -> avgPool(e, c);
            case "batch_norm" -> batchNorm(e, c);
            case "attention" -> attention(e, e.in(0), e.in(1), e.in(2), c.args()[3] == null ? null : e.in(3),
                    (Boolean) c.args()[4], scale((Double) c.args()[5], Emitter.argTensor(c.args()[0])), c.output().dtype());
            case "multi_head_attention" -> multiHead(e, c);
            default -> null;
        };
        return y == null ? null : new String[] {y};
    }

    private static double scale(double given, Tensor q) {
        return Double.isNaN(given) ? 1.0 / Math.sqrt(q.size(-1)) : given;
    }

    /** LayerNormalization over the last k dims; a missing weight is ones (ONNX needs a scale), a missing bias left out. */
    private static String layerNorm(Emitter e, Trace.Call c) {
        Tensor x = Emitter.argTensor(c.args()[0]);
        int k = (Integer) c.args()[3];
        String scale = c.args()[1] != null ? e.in(1) : e.constant(Tensor.ones(x.dtype(), tail(x.shape(), k)));
        List<OnnxProto.Attribute> attrs = List.of(attr("axis", (long) -k), attr("epsilon", (Double) c.args()[4]));
        return c.args()[2] != null ? e.node("LayerNormalization", attrs, e.in(0), scale, e.in(2))
                : e.node("LayerNormalization", attrs, e.in(0), scale);
    }

    private static int[] tail(int[] shape, int k) {
        return java.util.Arrays.copyOfRange(shape, shape.length - k, shape.length);
    }

    private static String conv(Emitter e, Trace.Call c) {
        Tensor w = Emitter.argTensor(c.args()[1]);
        long[] kernel = new long[w.dim() - 2];
        for (int i = 0; i < kernel.length; i++) {
            kernel[i] = w.size(i + 2);
        }
        List<OnnxProto.Attribute> attrs = List.of(attr("kernel_shape", kernel), attr("strides", e.constInts(3)),
                attr("pads", twice(e.constInts(4))), attr("dilations", e.constInts(5)), attr("group", e.constInt(6)));
        return c.args()[2] != null ? e.node("Conv", attrs, e.in(0), e.in(1), e.in(2)) : e.node("Conv", attrs, e.in(0), e.in(1));
    }

    /** PyTorch's symmetric padding as ONNX's begins then ends. */
    private static long[] twice(long[] p) {
        long[] out = new long[2 * p.length];
        System.arraycopy(p, 0, out, 0, p.length);
        System.arraycopy(p, 0, out, p.length, p.length);
        return out;
    }

    private static String maxPool(Emitter e, Trace.Call c) {
        List<OnnxProto.Attribute> attrs = List.of(attr("kernel_shape", e.constInts(1)), attr("strides", e.constInts(2)),
                attr("pads", twice(e.constInts(3))), attr("dilations", e.constInts(4)), attr("ceil_mode", (Boolean) c.args()[5] ? 1L : 0L));
        return e.node("MaxPool", attrs, e.in(0));
    }

    private static String avgPool(Emitter e, Trace.Call c) {
        List<OnnxProto.Attribute> attrs = List.of(attr("kernel_shape", e.constInts(1)), attr("strides", e.constInts(2)),
                attr("pads", twice(e.constInts(3))), attr("ceil_mode", (Boolean) c.args()[4] ? 1L : 0L),
                attr("count_include_pad", (Boolean) c.args()[5] ? 1L : 0L));
        return e.node("AveragePool", attrs, e.in(0));
    }

    /** Eval-mode batch norm with the running statistics (initializers under their buffer names). */
    private static String batchNorm(Emitter e, Trace.Call c) {
        Tensor x = Emitter.argTensor(c.args()[0]);
        int channels = x.size(1);
        String scale = c.args()[3] != null ? e.in(3) : e.constant(Tensor.ones(x.dtype(), channels));
        String bias = c.args()[4] != null ? e.in(4) : e.constant(Tensor.zeros(x.dtype(), channels));
        return e.node("BatchNormalization", List.of(attr("epsilon", (Double) c.args()[5])), e.in(0), scale, bias, e.in(1), e.in(2));
    }

    /**
     * softmax(q k^T scale + mask) v, as scaled_dot_product_attention: a bool mask is true where a key is left out (a row
     * with every key left out gets zero weights, as jgrad's), a float one is added; causal leaves out the keys after each
     * query, from a Range over the sizes in the graph, so the sequence length may change.
     */
    static String attention(Emitter e, String q, String k, String v, String mask, boolean causal, double scale, DType dt) {
        String kt = e.node("Transpose", List.of(attr("perm", lastTwoSwapped(e, k))), k);
        String scores = e.node("Mul", e.node("MatMul", q, kt), e.scalar(scale, dt));
        String out = null;
        if (mask != null && e.dtype(mask) != DType.BOOL) {
            scores = e.node("Add", scores, e.cast(mask, dt));
            mask = null;
        }
        // Only a mask of the caller's can leave a row with no key: the causal one always keeps the first.
        boolean rowsMayBeEmpty = mask != null;
        if (causal) {
            String t = e.node("Gather", List.of(attr("axis", 0L)), e.node("Shape", q), e.scalarLong(-2));
            String s = e.node("Gather", List.of(attr("axis", 0L)), e.node("Shape", k), e.scalarLong(-2));
            String rows = e.node("Unsqueeze", e.node("Range", e.scalarLong(0), t, e.scalarLong(1)), e.longs(1));
            String cols = e.node("Range", e.scalarLong(0), s, e.scalarLong(1));
            String after = e.typed(e.node("Greater", cols, rows), DType.BOOL);
            mask = mask == null ? after : e.typed(e.node("Or", mask, after), DType.BOOL);
        }
        if (mask == null) {
            out = e.node("Softmax", List.of(attr("axis", -1L)), scores);
        } else if (!rowsMayBeEmpty) {
            out = e.node("Softmax", List.of(attr("axis", -1L)), e.node("Where", mask, e.scalar(Double.NEGATIVE_INFINITY, dt), scores));
        } else {
            String filled = e.node("Where", mask, e.scalar(Double.NEGATIVE_INFINITY, dt), scores);
            String kept = e.reduce("ReduceMax", e.node("Cast", List.of(attr("to", (long) OnnxProto.FLOAT)), e.node("Not", mask)),
                    new long[] {-1}, true);
            String empty = e.node("Equal", kept, e.scalar(0, DType.FLOAT32));
            String w = e.node("Softmax", List.of(attr("axis", -1L)), filled);
            out = e.node("Where", empty, e.scalar(0, dt), w);
        }
        return e.node("MatMul", out, v);
    }

    private static long[] lastTwoSwapped(Emitter e, String value) {
        int r = rankOf(e, value);
        long[] perm = new long[r];
        for (int i = 0; i < r; i++) {
            perm[i] = i;
        }
        perm[r - 2] = r - 1;
        perm[r - 1] = r - 2;
        return perm;
    }

    private static int rankOf(Emitter e, String value) {
        Integer r = e.rank(value);
        if (r == null) {
            throw new Emitter.Unsupported("attention: the rank of " + value + " is not known");
        }
        return r;
    }

    /** nn.MultiheadAttention(batch_first) forward: the packed in-projection cut in three, heads, attention, out-projection. */
    private static String multiHead(Emitter e, Trace.Call c) {
        Object[] a = c.args();
        Tensor query = Emitter.argTensor(a[0]);
        int heads = (Integer) a[3];
        int embed = query.size(2);
        int d = embed / heads;
        DType dt = c.output().dtype();
        String[] qkv = new String[3];
        for (int p = 0; p < 3; p++) {
            String w = e.node("Slice", e.in(4), e.longs(p * (long) embed), e.longs((p + 1) * (long) embed), e.longs(0));
            String y = e.node("MatMul", e.in(p), e.node("Transpose", List.of(attr("perm", new long[] {1, 0})), w));
            if (a[5] != null) {
                y = e.node("Add", y, e.node("Slice", e.in(5), e.longs(p * (long) embed), e.longs((p + 1) * (long) embed), e.longs(0)));
            }
            String split = e.node("Reshape", y, e.longs(0, 0, heads, d));
            qkv[p] = e.rankTyped(e.node("Transpose", List.of(attr("perm", new long[] {0, 2, 1, 3})), split), 4, dt);
        }
        String mask = null;
        if (a[8] != null) {
            mask = e.typed(e.node("Unsqueeze", e.cast(e.in(8), DType.BOOL), e.longs(1, 2)), DType.BOOL);
        }
        if (a[9] != null) {
            String m = e.in(9);
            if (e.dtype(m) == DType.BOOL) {
                mask = mask == null ? m : e.typed(e.node("Or", mask, m), DType.BOOL);
            } else if (mask != null) {
                throw new Emitter.Unsupported("multi_head_attention with a float attn_mask beside a key padding mask" + CallSite.at(c));
            } else {
                mask = m;
            }
        }
        String heads4 = attention(e, qkv[0], qkv[1], qkv[2], mask, (Boolean) a[10], 1.0 / Math.sqrt(d), dt);
        String merged = e.node("Reshape", e.node("Transpose", List.of(attr("perm", new long[] {0, 2, 1, 3})), heads4), e.longs(0, 0, embed));
        String out = e.node("MatMul", merged, e.node("Transpose", List.of(attr("perm", new long[] {1, 0})), e.in(6)));
        return a[7] != null ? e.node("Add", out, e.in(7)) : out;
    }

    /**
     * One LSTM or GRU layer as ONNX's own op (so the sequence length stays dynamic), batch first as jgrad's: the input
     * transposed to (T, B, In), PyTorch's gate blocks reordered to ONNX's (LSTM: i, f, g, o to i, o, f, g; GRU: r, z, n
     * to z, r, n, with linear_before_reset as PyTorch computes n), the output and last states brought back to
     * (B, T, H) and (B, H).
     */
    private static String[] recurrent(Emitter e, Trace.Call c, boolean lstm) {
        Object[] a = c.args();
        int w = lstm ? 3 : 2;
        Tensor wHh = Emitter.argTensor(a[w + 1]);
        long hidden = wHh.size(1);
        int[] order = lstm ? new int[] {0, 3, 1, 2} : new int[] {1, 0, 2};
        String x = e.node("Transpose", List.of(attr("perm", new long[] {1, 0, 2})), e.in(0));
        String wOnnx = e.node("Unsqueeze", gates(e, e.in(w), order, hidden), e.longs(0));
        String rOnnx = e.node("Unsqueeze", gates(e, e.in(w + 1), order, hidden), e.longs(0));
        String bias = "";
        if (a[w + 2] != null || a[w + 3] != null) {
            Tensor zeros = Tensor.zeros(wHh.dtype(), order.length * (int) hidden);
            String bi = a[w + 2] != null ? e.in(w + 2) : e.constant(zeros);
            String bh = a[w + 3] != null ? e.in(w + 3) : e.constant(zeros);
            bias = e.node("Unsqueeze", e.node("Concat", List.of(attr("axis", 0L)), gates(e, bi, order, hidden), gates(e, bh, order, hidden)),
                    e.longs(0));
        }
        String h0 = e.node("Unsqueeze", e.in(1), e.longs(0));
        List<OnnxProto.Attribute> attrs = new ArrayList<>(List.of(attr("hidden_size", hidden)));
        String[] outs;
        if (lstm) {
            String c0 = e.node("Unsqueeze", e.in(2), e.longs(0));
            outs = e.nodeN("LSTM", 3, attrs, x, wOnnx, rOnnx, bias, "", h0, c0);
        } else {
            attrs.add(attr("linear_before_reset", 1L));
            outs = e.nodeN("GRU", 2, attrs, x, wOnnx, rOnnx, bias, "", h0);
        }
        String y = e.node("Transpose", List.of(attr("perm", new long[] {1, 0, 2})), e.node("Squeeze", outs[0], e.longs(1)));
        String h = e.node("Squeeze", outs[1], e.longs(0));
        return lstm ? new String[] {y, h, e.node("Squeeze", outs[2], e.longs(0))} : new String[] {y, h};
    }

    /** A (G H, ...) weight or (G H) bias with its gate blocks in {@code order}. */
    private static String gates(Emitter e, String weight, int[] order, long hidden) {
        long[] sizes = new long[order.length];
        java.util.Arrays.fill(sizes, hidden);
        String[] blocks = e.nodeN("Split", order.length, List.of(attr("axis", 0L)), weight, e.longs(sizes));
        String[] ordered = new String[order.length];
        for (int i = 0; i < order.length; i++) {
            ordered[i] = blocks[order[i]];
        }
        return e.node("Concat", List.of(attr("axis", 0L)), ordered);
    }
}
