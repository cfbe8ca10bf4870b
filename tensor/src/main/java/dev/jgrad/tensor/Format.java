package dev.jgrad.tensor;

import java.util.Locale;

/**
 * Prints tensors the way PyTorch does, with the shape and type at the end:
 * <pre>
 * tensor([[ 1.0000, -2.5000],
 *         [ 0.1250,  4.0000]], shape=[2, 2], dtype=float32)
 * </pre>
 * Above {@link #THRESHOLD} elements, each dim shows its first and last {@link #EDGE} entries around "...".
 */
final class Format {
    static final int THRESHOLD = 1000;
    static final int EDGE = 3;

    private Format() {
    }

    static String format(Tensor t) {
        boolean summarize = t.numel() > THRESHOLD;
        String[] cells = cells(t, summarize);
        int width = 0;
        for (String c : cells) {
            width = Math.max(width, c.length());
        }
        StringBuilder sb = new StringBuilder("tensor(");
        int[] next = {0};
        render(t, 0, new int[t.dim()], summarize, cells, width, next, sb, "tensor(".length());
        sb.append(", shape=").append(Shape.str(t.shape)).append(", dtype=").append(t.dtype()).append(')');
        return sb.toString();
    }

    /** The printed elements in the order {@link #render} visits them. */
    private static String[] cells(Tensor t, boolean summarize) {
        java.util.List<Double> values = new java.util.ArrayList<>();
        collect(t, 0, new int[t.dim()], summarize, values);
        String[] out = new String[values.size()];
        DType type = t.dtype();
        boolean integral = true;
        boolean sci = false;
        double maxAbs = 0;
        double minAbs = Double.POSITIVE_INFINITY;
        for (double v : values) {
            if (Double.isFinite(v)) {
                integral &= v == Math.rint(v);
                double a = Math.abs(v);
                maxAbs = Math.max(maxAbs, a);
                if (a > 0) {
                    minAbs = Math.min(minAbs, a);
                }
            }
        }
        if (type.isFloating() && (maxAbs >= 1e8 || (minAbs < 1e-4 && !integral) || (maxAbs / minAbs > 1000 && !integral))) {
            sci = true;
        }
        for (int i = 0; i < out.length; i++) {
            double v = values.get(i);
            if (type == DType.BOOL) {
                out[i] = v != 0 ? "True" : "False";
            } else if (type == DType.INT64) {
                out[i] = Long.toString((long) v);
            } else if (Double.isNaN(v)) {
                out[i] = "nan";
            } else if (Double.isInfinite(v)) {
                out[i] = v > 0 ? "inf" : "-inf";
            } else if (sci) {
                out[i] = String.format(Locale.ROOT, "%.4e", v);
            } else if (integral) {
                out[i] = String.format(Locale.ROOT, "%.0f.", v);
            } else {
                out[i] = String.format(Locale.ROOT, "%.4f", v);
            }
        }
        return out;
    }

    private static void collect(Tensor t, int d, int[] idx, boolean summarize, java.util.List<Double> out) {
        if (d == t.dim()) {
            out.add(t.getDouble(idx));
            return;
        }
        int n = t.shape[d];
        for (int i = 0; i < n; i++) {
            if (summarize && n > 2 * EDGE && i == EDGE) {
                i = n - EDGE;
            }
            idx[d] = i;
            collect(t, d + 1, idx, summarize, out);
        }
    }

    private static void render(Tensor t, int d, int[] idx, boolean summarize, String[] cells, int width, int[] next,
                               StringBuilder sb, int indent) {
        if (d == t.dim()) {
            String c = cells[next[0]++];
            sb.append(" ".repeat(width - c.length())).append(c);
            return;
        }
        sb.append('[');
        int n = t.shape[d];
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                sb.append(',');
                if (d == t.dim() - 1) {
                    sb.append(' ');
                } else {
                    sb.append("\n".repeat(t.dim() - d - 1)).append(" ".repeat(indent + d + 1));
                }
            }
            if (summarize && n > 2 * EDGE && i == EDGE) {
                sb.append("...");
                sb.append(',');
                if (d == t.dim() - 1) {
                    sb.append(' ');
                } else {
                    sb.append('\n').append(" ".repeat(indent + d + 1));
                }
                i = n - EDGE;
            }
            idx[d] = i;
            render(t, d + 1, idx, summarize, cells, width, next, sb, indent);
        }
        sb.append(']');
    }
}
