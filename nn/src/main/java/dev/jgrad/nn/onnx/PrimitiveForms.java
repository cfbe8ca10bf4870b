package dev.jgrad.nn.onnx;

import dev.jgrad.autograd.Trace;
import dev.jgrad.tensor.BinaryOp;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Index;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.UnaryOp;

import java.util.ArrayList;
import java.util.List;

import static dev.jgrad.nn.onnx.Emitter.attr;

/**
 * The ONNX form of each primitive op of {@code Variable} (the calls a trace records), as the table in
 * docs/onnx.md lists them. Each method reads the call's arguments through the emitter and returns the names of
 * its outputs; an op without a form throws {@link Emitter.Unsupported}, which becomes an error only where the
 * graph's output depends on it.
 */
final class PrimitiveForms {
    private PrimitiveForms() {
    }

    static String[] emit(Emitter e, Trace.Call c) {
        Object[] a = c.args();
        return switch (c.op()) {
            case "unary" -> one(unary(e, (UnaryOp) a[1], e.in(0), c.output().dtype()));
            case "binary" -> one(binary(e, (BinaryOp) a[1], e.in(0), e.in(2), c.output().dtype()));
            case "inplace" -> one(binary(e, (BinaryOp) a[1], e.in(0), e.in(2), c.output().dtype()));
            case "clamp" -> one(clamp(e, e.in(0), (Double) a[1], (Double) a[2], c.output().dtype()));
            case "leakyRelu" -> one(e.node("LeakyRelu", List.of(attr("alpha", (float) (double) (Double) a[1])), e.in(0)));
            case "where" -> one(e.node("Where", e.cast(e.in(1), DType.BOOL), e.cast(e.in(0), c.output().dtype()),
                    e.cast(e.in(2), c.output().dtype())));
            case "maskedFill", "maskedFilli" -> one(e.node("Where", e.cast(e.in(1), DType.BOOL),
                    e.scalar((Double) a[2], c.output().dtype()), e.in(0)));
            case "to" -> one(castOrIdentity(e, e.in(0), (DType) a[1]));
            case "sum" -> one(e.reduce("ReduceSum", e.in(0), axes(e, 1), (Boolean) a[2]));
            case "mean" -> one(e.reduce("ReduceMean", e.in(0), axes(e, 1), (Boolean) a[2]));
            case "prod" -> one(e.reduce("ReduceProd", e.in(0), axes(e, 1), (Boolean) a[2]));
            case "amax" -> one(e.reduce("ReduceMax", e.in(0), axes(e, 1), (Boolean) a[2]));
            case "amin" -> one(e.reduce("ReduceMin", e.in(0), axes(e, 1), (Boolean) a[2]));
            case "logsumexp" -> one(e.reduce("ReduceLogSumExp", e.in(0), axes(e, 1), (Boolean) a[2]));
            case "var" -> one(variance(e, c));
            case "cumsum" -> one(e.node("CumSum", e.cast(e.in(0), c.output().dtype()),
                    e.scalar(normalized(new long[] {e.constInt(1)}, Math.max(1, rank(c, 0)))[0], DType.INT64)));
            case "max", "min" -> maxMin(e, c);
            case "sort" -> sort(e, c);
            case "topk" -> topk(e, c);
            case "softmax" -> one(e.node("Softmax", List.of(attr("axis", e.constInt(1))), e.in(0)));
            case "logSoftmax" -> one(e.node("LogSoftmax", List.of(attr("axis", e.constInt(1))), e.in(0)));
            case "view", "reshape" -> one(reshape(e, c));
            case "unsqueeze" -> one(e.node("Unsqueeze", e.in(0), e.longs(e.constInt(1))));
            case "squeeze" -> one(a.length == 1 ? squeezeAll(e, c) : squeezeOne(e, c));
            case "transpose" -> one(transpose(e, c));
            case "permute" -> one(e.node("Transpose", List.of(attr("perm", normalized(e.constInts(1), rank(c, 0)))), e.in(0)));
            case "expand" -> one(expand(e, c));
            case "slice" -> one(slice(e, c));
            case "select" -> one(select(e, c));
            case "flip" -> one(flip(e, c));
            case "pad" -> one(pad(e, c));
            case "clone", "alias" -> one(e.node("Identity", e.in(0)));
            case "gather" -> one(e.node("GatherElements", List.of(attr("axis", e.constInt(1))), e.in(0), e.in(2)));
            case "indexSelect" -> one(e.node("Gather", List.of(attr("axis", e.constInt(1))), e.in(0), e.in(2)));
            case "index" -> one(index(e, c));
            case "matmul" -> one(e.node("MatMul", e.in(0), e.in(1)));
            case "linear" -> one(linear(e, c));
            case "cat" -> one(cat(e, c, false));
            case "stack" -> one(cat(e, c, true));
            case "einsum" -> one(einsum(e, c));
            case "copyFrom" -> one(e.cast(e.node("Expand", e.in(1), e.node("Shape", e.in(0))), c.output().dtype()));
            case "fill" -> one(e.node("Expand", e.scalar((Double) a[1], c.output().dtype()), e.node("Shape", e.in(0))));
            case "custom" -> custom(e, c);
            default -> throw new Emitter.Unsupported("op '" + c.op() + "' (" + inputShapes(c) + " -> " + shape(c.output())
                    + ") has no ONNX form in jgrad's exporter" + CallSite.at(c));
        };
    }

    /** A cast to {@code dtype}, or an Identity where the value has that type: the op's output is a value of its own. */
    private static String castOrIdentity(Emitter e, String x, DType dtype) {
        return e.dtype(x) == dtype ? e.node("Identity", x) : e.cast(x, dtype);
    }

    private static String[] one(String name) {
        return new String[] {name};
    }

    /** The shapes of the call's tensor arguments, for messages. */
    static String inputShapes(Trace.Call c) {
        List<String> s = new ArrayList<>();
        for (Object a : c.args()) {
            if (a instanceof dev.jgrad.autograd.Variable || a instanceof Tensor) {
                s.add(shape(Emitter.argTensor(a)));
            }
        }
        return String.join(", ", s);
    }

    static String shape(Tensor t) {
        return java.util.Arrays.toString(t.shape());
    }

    static int rank(Trace.Call c, int a) {
        return Emitter.argTensor(c.args()[a]).dim();
    }

    /** dims normalised to 0..rank-1. */
    static long[] normalized(long[] dims, int rank) {
        long[] out = new long[dims.length];
        for (int i = 0; i < dims.length; i++) {
            out[i] = dims[i] < 0 ? dims[i] + rank : dims[i];
        }
        return out;
    }

    /** The reduction's axes (null: all). */
    private static long[] axes(Emitter e, int a) {
        return e.call.args()[a] == null ? null : e.constInts(a);
    }

    static String unary(Emitter e, UnaryOp op, String x, DType out) {
        return switch (op) {
            case NEG -> e.node("Neg", x);
            case ABS -> e.node("Abs", x);
            case SIGN -> e.node("Sign", x);
            case EXP -> e.node("Exp", x);
            case LOG -> e.node("Log", x);
            case LOG1P -> e.node("Log", e.node("Add", x, e.scalar(1, out)));
            case SQRT -> e.node("Sqrt", x);
            case RSQRT -> e.node("Reciprocal", e.node("Sqrt", x));
            case SIN -> e.node("Sin", x);
            case COS -> e.node("Cos", x);
            case TANH -> e.node("Tanh", x);
            case SIGMOID -> e.node("Sigmoid", x);
            case RELU -> e.node("Relu", x);
            case SILU -> e.node("Mul", x, e.node("Sigmoid", x));
            case GELU -> gelu(e, x, out);
            case GELU_TANH -> geluTanh(e, x, out);
            case SQUARE -> e.node("Mul", x, x);
            case RECIPROCAL -> e.node("Reciprocal", x);
            case ERF -> e.node("Erf", x);
            case SOFTPLUS -> e.node("Softplus", x);
            case FLOOR -> e.node("Floor", x);
            case ATAN -> e.node("Atan", x);
            case ROUND -> e.node("Round", x);
            case EXPM1 -> e.node("Sub", e.node("Exp", x), e.scalar(1, out));
            case LOGICAL_NOT -> e.node("Not", e.cast(x, DType.BOOL));
            case ISNAN -> e.node("IsNaN", x);
        };
    }

    /** 0.5 x (1 + erf(x / sqrt 2)): ONNX has Gelu only from opset 20. */
    private static String gelu(Emitter e, String x, DType dt) {
        String erf = e.node("Erf", e.node("Mul", x, e.scalar(1 / Math.sqrt(2), dt)));
        return e.node("Mul", e.node("Mul", x, e.scalar(0.5, dt)), e.node("Add", erf, e.scalar(1, dt)));
    }

    /** 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))). */
    private static String geluTanh(Emitter e, String x, DType dt) {
        String cube = e.node("Mul", e.node("Mul", x, x), x);
        String inner = e.node("Mul", e.node("Add", x, e.node("Mul", cube, e.scalar(0.044715, dt))), e.scalar(Math.sqrt(2 / Math.PI), dt));
        return e.node("Mul", e.node("Mul", x, e.scalar(0.5, dt)), e.node("Add", e.node("Tanh", inner), e.scalar(1, dt)));
    }

    /**
     * ONNX has no atan2: the arctangent of a / b, moved by pi into the left half-plane (up where a &gt;= 0, down where a
     * &lt; 0), and +-pi/2 or 0 where b is 0.
     */
    private static String atan2(Emitter e, String a, String b, DType dt) {
        String zero = e.scalar(0, dt);
        String base = e.node("Atan", e.node("Div", a, b));
        String pi = e.scalar(Math.PI, dt);
        String left = e.node("Where", e.node("GreaterOrEqual", a, zero), e.node("Add", base, pi), e.node("Sub", base, pi));
        String onAxis = e.node("Where", e.node("Greater", a, zero), e.scalar(Math.PI / 2, dt),
                e.node("Where", e.node("Less", a, zero), e.scalar(-Math.PI / 2, dt), zero));
        return e.node("Where", e.node("Greater", b, zero), base, e.node("Where", e.node("Less", b, zero), left, onAxis));
    }

    static String binary(Emitter e, BinaryOp op, String a, String b, DType out) {
        DType compute = switch (op) {
            case EQ, NE, LT, LE, GT, GE -> DType.promote(e.dtype(a), e.dtype(b));
            case LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR -> DType.BOOL;
            default -> out;
        };
        String x = e.cast(a, compute);
        String y = e.cast(b, compute);
        return switch (op) {
            case ADD -> e.node("Add", x, y);
            case SUB -> e.node("Sub", x, y);
            case MUL -> e.node("Mul", x, y);
            case DIV -> e.node("Div", x, y);
            case POW -> e.node("Pow", x, y);
            case MAXIMUM -> e.node("Max", x, y);
            case MINIMUM -> e.node("Min", x, y);
            case ATAN2 -> atan2(e, x, y, compute);
            case EQ -> e.node("Equal", x, y);
            case NE -> e.node("Not", e.node("Equal", x, y));
            case LT -> e.node("Less", x, y);
            case LE -> e.node("LessOrEqual", x, y);
            case GT -> e.node("Greater", x, y);
            case GE -> e.node("GreaterOrEqual", x, y);
            case LOGICAL_AND -> e.node("And", x, y);
            case LOGICAL_OR -> e.node("Or", x, y);
            case LOGICAL_XOR -> e.node("Xor", x, y);
        };
    }

    private static String clamp(Emitter e, String x, double min, double max, DType dt) {
        return e.node("Clip", x, Double.isNaN(min) ? "" : e.scalar(min, dt), Double.isNaN(max) ? "" : e.scalar(max, dt));
    }

    /**
     * sum((x - mean)^2) / (n - correction) over the dims; n counted in the graph where a reduced dim follows a dynamic
     * axis, else a constant.
     */
    private static String variance(Emitter e, Trace.Call c) {
        Tensor x = Emitter.argTensor(c.args()[0]);
        long[] dims = c.args()[1] == null ? null : normalized(e.constInts(1), x.dim());
        boolean[] dynamic = e.dynamicDims(0);
        long n = 1;
        boolean counted = false;
        for (int d = 0; d < x.dim(); d++) {
            if (dims == null || contains(dims, d)) {
                n *= x.size(d);
                counted |= dynamic != null && dynamic[d];
            }
        }
        String in = e.in(0);
        DType dt = c.output().dtype();
        String centred = e.node("Sub", in, e.reduce("ReduceMean", in, dims, true));
        String ss = e.reduce("ReduceSum", e.node("Mul", centred, centred), dims, (Boolean) c.args()[3]);
        String divisor = e.scalar(n - (Double) c.args()[2], dt);
        if (counted) {
            String shape = e.node("Shape", in);
            String sizes = dims == null ? shape : e.node("Gather", List.of(attr("axis", 0L)), shape, e.longs(dims));
            String count = e.cast(e.typed(e.reduce("ReduceProd", sizes, null, false), DType.INT64), dt);
            divisor = e.node("Sub", count, e.scalar((Double) c.args()[2], dt));
        }
        return e.node("Div", ss, divisor);
    }

    static boolean contains(long[] a, long v) {
        for (long x : a) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    /** TopK over the whole dim (its size read from the input's shape, so a dynamic dim stays so). */
    private static String[] sort(Emitter e, Trace.Call c) {
        long dim = normalized(new long[] {e.constInt(1)}, rank(c, 0))[0];
        return topK(e, c, dim, e.node("Gather", e.node("Shape", e.in(0)), e.longs(dim)), (Boolean) c.args()[2]);
    }

    /** TopK of the traced k. */
    private static String[] topk(Emitter e, Trace.Call c) {
        long dim = normalized(new long[] {e.constInt(2)}, rank(c, 0))[0];
        return topK(e, c, dim, e.longs(e.constInt(1)), (Boolean) c.args()[3]);
    }

    /** A sorted TopK node and its typed outputs: ONNX's ties keep the lower index first, as jgrad's stable order does. */
    private static String[] topK(Emitter e, Trace.Call c, long dim, String k, boolean largest) {
        String[] vi = e.nodeN("TopK", 2, List.of(attr("axis", dim), attr("largest", largest ? 1L : 0L), attr("sorted", 1L)),
                e.in(0), k);
        return new String[] {e.typed(vi[0], c.outputs()[0].dtype()), e.typed(vi[1], DType.INT64)};
    }

    private static String[] maxMin(Emitter e, Trace.Call c) {
        boolean max = c.op().equals("max");
        long dim = e.constInt(1);
        long keep = (Boolean) c.args()[2] ? 1L : 0L;
        String values = e.reduce(max ? "ReduceMax" : "ReduceMin", e.in(0), new long[] {dim}, (Boolean) c.args()[2]);
        String indices = e.node(max ? "ArgMax" : "ArgMin", List.of(attr("axis", dim), attr("keepdims", keep), attr("select_last_index", 0L)),
                e.in(0));
        return new String[] {values, e.typed(indices, DType.INT64)};
    }

    /**
     * A reshape to the traced output's shape: a dim that follows a dynamic axis is computed from the inputs (or,
     * where the target asked for it, left to -1), the others fixed.
     */
    private static String reshape(Emitter e, Trace.Call c) {
        return e.node("Reshape", e.in(0), e.ints(1));
    }

    /** The dims of size 1 at every traced size (a dynamic dim that was 1 once changed the rank, which the traces refuse). */
    private static String squeezeAll(Emitter e, Trace.Call c) {
        int[] s = Emitter.argTensor(c.args()[0]).shape();
        boolean[] dynamic = e.dynamicDims(0);
        List<Long> ones = new ArrayList<>();
        for (int d = 0; d < s.length; d++) {
            if (s[d] == 1 && (dynamic == null || !dynamic[d])) {
                ones.add((long) d);
            }
        }
        return ones.isEmpty() ? e.node("Identity", e.in(0)) : e.node("Squeeze", e.in(0), e.longs(ones.stream().mapToLong(Long::longValue).toArray()));
    }

    private static String squeezeOne(Emitter e, Trace.Call c) {
        Tensor x = Emitter.argTensor(c.args()[0]);
        long d = normalized(new long[] {e.constInt(1)}, x.dim())[0];
        if (x.dim() == 0 || x.size((int) d) != 1) {
            return e.node("Identity", e.in(0));
        }
        return e.node("Squeeze", e.in(0), e.longs(d));
    }

    private static String transpose(Emitter e, Trace.Call c) {
        int r = rank(c, 0);
        long[] perm = new long[r];
        for (int i = 0; i < r; i++) {
            perm[i] = i;
        }
        long d0 = normalized(new long[] {e.constInt(1)}, r)[0];
        long d1 = normalized(new long[] {e.constInt(2)}, r)[0];
        perm[(int) d0] = d1;
        perm[(int) d1] = d0;
        return e.node("Transpose", List.of(attr("perm", perm)), e.in(0));
    }

    /** Expand to the sizes asked; -1 (keep) becomes 1, which ONNX's broadcasting keeps too. */
    private static String expand(Emitter e, Trace.Call c) {
        int[] sizes = (int[]) c.args()[1];
        boolean keep = false;
        for (int s : sizes) {
            keep |= s == -1;
        }
        if (!keep) {
            return e.node("Expand", e.in(0), e.ints(1));
        }
        int[] out = c.output().shape();
        int[] in = Emitter.argTensor(c.args()[0]).shape();
        long[] fixed = new long[sizes.length];
        for (int i = 0; i < sizes.length; i++) {
            fixed[i] = sizes[i] == -1 ? 1 : sizes[i];
            if (sizes[i] != -1 && e.isSymbolic("1[" + i + "]")) {
                throw new Emitter.Unsupported("expand to a size that follows a dynamic axis beside -1 is not supported"
                        + CallSite.at(c));
            }
        }
        assert out.length >= in.length;
        return e.node("Expand", e.in(0), e.longs(fixed));
    }

    private static String slice(Emitter e, Trace.Call c) {
        long dim = normalized(new long[] {e.constInt(1)}, rank(c, 0))[0];
        return e.node("Slice", e.in(0), e.ints(2), e.ints(3), e.longs(dim), e.ints(4));
    }

    private static String select(Emitter e, Trace.Call c) {
        long dim = normalized(new long[] {e.constInt(1)}, rank(c, 0))[0];
        String index = e.node("Squeeze", e.ints(2));
        return e.node("Gather", List.of(attr("axis", dim)), e.in(0), index);
    }

    private static String flip(Emitter e, Trace.Call c) {
        long[] dims = normalized(e.constInts(1), rank(c, 0));
        long[] starts = new long[dims.length];
        long[] ends = new long[dims.length];
        long[] steps = new long[dims.length];
        for (int i = 0; i < dims.length; i++) {
            starts[i] = -1;
            ends[i] = Long.MIN_VALUE;
            steps[i] = -1;
        }
        return e.node("Slice", e.in(0), e.longs(starts), e.longs(ends), e.longs(dims), e.longs(steps));
    }

    /** F.pad's (left, right) pairs from the last dim backwards, as ONNX's begins then ends, first dim first. */
    private static String pad(Emitter e, Trace.Call c) {
        long[] p = e.constInts(1);
        int r = rank(c, 0);
        long[] pads = new long[2 * r];
        for (int i = 0; i < p.length / 2; i++) {
            int d = r - 1 - i;
            pads[d] = p[2 * i];
            pads[r + d] = p[2 * i + 1];
        }
        return e.node("Pad", List.of(attr("mode", "constant")), e.in(0), e.longs(pads), e.scalar((Double) c.args()[2], c.output().dtype()));
    }

    /**
     * Basic indexing (positions, slices, None, the ellipsis) and one int64 tensor index, left to right: Gather, Slice,
     * Unsqueeze. A bool mask (its result's size depends on the values) or several tensor indices have no form here.
     */
    private static String index(Emitter e, Trace.Call c) {
        Index[] ix = (Index[]) c.args()[1];
        int rank = rank(c, 0);
        int consumed = 0;
        int tensors = 0;
        boolean ints = false;
        for (Index i : ix) {
            consumed += i.kind() == Index.Kind.INT || i.kind() == Index.Kind.SLICE || i.kind() == Index.Kind.TENSOR ? 1 : 0;
            tensors += i.kind() == Index.Kind.TENSOR ? 1 : 0;
            ints |= i.kind() == Index.Kind.INT;
            if (i.kind() == Index.Kind.TENSOR && i.tensor().dtype() == DType.BOOL) {
                throw new Emitter.Unsupported("indexing with a bool mask (its result's size depends on the mask's values) has no ONNX"
                        + " form in jgrad's exporter; use where() or masked_fill instead" + CallSite.at(c));
            }
        }
        if (tensors > 1 || (tensors == 1 && ints)) {
            throw new Emitter.Unsupported("indexing with several tensor indices, or a tensor index beside positions, has no ONNX"
                    + " form in jgrad's exporter" + CallSite.at(c));
        }
        String x = e.in(0);
        int d = 0;
        for (int k = 0; k < ix.length; k++) {
            Index i = ix[k];
            String p = "1[" + k + "]";
            switch (i.kind()) {
                case INT -> x = e.node("Gather", List.of(attr("axis", (long) d)), x, e.node("Squeeze", e.intAt(p + "[1]", i.position())));
                case SLICE -> {
                    boolean up = i.step() > 0;
                    String start = i.start() == null ? e.longs(up ? 0 : -1) : e.intAt(p + "[2]", i.start());
                    String stop = i.stop() == null ? e.longs(up ? Long.MAX_VALUE : Long.MIN_VALUE) : e.intAt(p + "[3]", i.stop());
                    x = e.node("Slice", x, start, stop, e.longs(d), e.longs(i.step()));
                    d++;
                }
                case NONE -> {
                    x = e.node("Unsqueeze", x, e.longs(d));
                    d++;
                }
                case ELLIPSIS -> d += rank - consumed;
                case TENSOR -> {
                    x = e.node("Gather", List.of(attr("axis", (long) d)), x, e.inPath(1, i.tensor(), k, 5));
                    d += i.tensor().dim();
                }
            }
        }
        return x;
    }

    /** x w^T + b: MatMul with the transposed weight (a Gemm where x is 2-d). */
    static String linear(Emitter e, Trace.Call c) {
        String x = e.in(0);
        String w = e.in(1);
        boolean bias = c.args()[2] != null;
        if (rank(c, 0) == 2) {
            return bias ? e.node("Gemm", List.of(attr("transB", 1L)), x, w, e.in(2)) : e.node("Gemm", List.of(attr("transB", 1L)), x, w);
        }
        String y = e.node("MatMul", x, e.node("Transpose", List.of(attr("perm", new long[] {1, 0})), w));
        return bias ? e.node("Add", y, e.in(2)) : y;
    }

    private static String cat(Emitter e, Trace.Call c, boolean stack) {
        List<?> parts = (List<?>) c.args()[0];
        int r = c.output().dim();
        long dim = normalized(new long[] {e.constInt(1)}, r)[0];
        String[] names = new String[parts.size()];
        for (int i = 0; i < names.length; i++) {
            String p = e.inList(0, i);
            names[i] = stack ? e.node("Unsqueeze", p, e.longs(dim)) : e.cast(p, c.output().dtype());
        }
        return e.node("Concat", List.of(attr("axis", dim)), names);
    }

    private static String einsum(Emitter e, Trace.Call c) {
        List<?> ops = java.util.Arrays.asList((Object[]) c.args()[1]);
        String[] names = new String[ops.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = e.inList(1, i);
        }
        return e.node("Einsum", List.of(attr("equation", ((String) c.args()[0]).replace(" ", ""))), names);
    }

    /**
     * A fused op: the annotation that follows gives its form, or its definition (run and recorded before it) its value;
     * one with neither has no ONNX form.
     */
    private static String[] custom(Emitter e, Trace.Call c) {
        if (e.hasValue(e.callIndex, 0) || LayerForms.covers((String) c.args()[0])) {
            return null;
        }
        throw new Emitter.Unsupported("custom function '" + c.args()[0] + "' (-> " + shape(c.output()) + ") has no ONNX form"
                + " and no definition in differentiable ops to export instead; give CustomFunction.apply a definition" + CallSite.at(c));
    }
}
